import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { colours } from '../../cli/output.js';
import type { Page } from '../../contract/content.js';
import { pageColumns } from './columns.js';
import { flattenPages, listPages, type PageRow } from './lookup.js';

/** The tree each printed list came from, to draw it on a terminal. */
const trees = new WeakMap<object, Page[]>();

async function drawTree(rows: PageRow[], ctx: Context): Promise<string> {
  const pages = trees.get(rows) ?? [];
  const { paint } = await colours(ctx);
  const lines: string[] = [];
  const draw = (list: readonly Page[], prefix: string) => {
    list.forEach((p, i) => {
      const last = i === list.length - 1;
      const label = [`${p.emoji ? `${p.emoji} ` : ''}${p.title || '(untitled)'}`, paint.dim(`/${p.path}`), p.hidden ? '(hidden)' : '']
        .filter(Boolean).join('  ');
      lines.push(`${prefix}${last ? '└─ ' : '├─ '}${label}`);
      draw(p.pages ?? [], prefix + (last ? '   ' : '│  '));
    });
  };
  draw(pages, '');
  return lines.length > 0 ? lines.join('\n') + '\n' : paint.dim('(no pages)') + '\n';
}

export default defineCommand({
  name: 'pages',
  summary: 'List the pages of a space (drawn as a tree on a terminal; depth first otherwise)',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl content pages sp_123', 'docsctl content pages sp_123 --json | jq -r ".[].path"'],
  output: { columns: pageColumns, human: drawTree },
  async run(ctx, { args }) {
    const api = await ctx.api();
    const tree = await listPages(api, args.space);
    const rows = flattenPages(tree);
    trees.set(rows, tree);
    return rows;
  },
});
