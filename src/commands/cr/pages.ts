import { defineCommand } from '../../cli/command.js';
import { pageColumns } from '../content/columns.js';
import { drawPages, pageRows } from '../content/pages.js';
import { CR_ARGS, crParams } from './columns.js';
import { listCrPages } from './lookup.js';

export default defineCommand({
  name: 'pages',
  summary: 'List the pages of a change request’s content (drawn as a tree on a terminal; depth first otherwise)',
  args: CR_ARGS,
  examples: ['docsctl cr pages sp_123 3', 'docsctl cr pages sp_123 3 --json | jq -r ".[].path"'],
  output: { columns: pageColumns, human: drawPages },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return pageRows(await listCrPages(api, crParams(args)));
  },
});
