import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { escapeDeep } from '../../cli/escape.js';
import { colours } from '../../cli/output.js';
import { drawTree } from '../../cli/tree.js';
import type { Page } from '../../contract/content.js';
import { pageColumns, pageWhere, pathsById } from './columns.js';
import { flattenPages, listPages, type PageRow } from './lookup.js';

/** The tree each printed list came from, to draw it on a terminal. */
const trees = new WeakMap<object, Page[]>();

/** The pages of a tree as rows, depth first, remembering the tree for `drawPages` (also used by `cr pages`). */
export function pageRows(tree: Page[]): PageRow[] {
  const rows = flattenPages(tree);
  trees.set(rows, tree);
  return rows;
}

/** On a terminal: the tree the rows came from (`raw`: the rows `pageRows` made), its text escaped. */
export async function drawPages(rows: PageRow[], ctx: Context, raw: PageRow[]): Promise<string> {
  const pages = escapeDeep(trees.get(raw) ?? []);
  const { paint } = await colours(ctx);
  const paths = pathsById(rows);
  const lines = drawTree(pages, {
    label: (p) =>
      [`${p.emoji ? `${p.emoji} ` : ''}${p.title || '(untitled)'}`, paint.dim(pageWhere(p, paths)), p.hidden ? '(hidden)' : ''].filter(Boolean).join('  '),
    children: (p) => p.pages ?? [],
  });
  return lines.length > 0 ? lines.join('\n') + '\n' : paint.dim('(no pages)') + '\n';
}

export default defineCommand({
  name: 'pages',
  summary: 'List the pages of a space (drawn as a tree on a terminal; depth first otherwise)',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl content pages sp_123', 'docsctl content pages sp_123 --json | jq -r ".[].path"'],
  output: { columns: pageColumns, human: drawPages },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return pageRows(await listPages(api, args.space));
  },
});
