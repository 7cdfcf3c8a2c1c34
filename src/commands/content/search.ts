import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/content.js';
import { searchColumns } from './columns.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'search',
  summary: 'Search the pages of a space, best matches first, with the sections that match',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'query', description: `words to find (${characters(ops.searchSpaceContent.query.shape.query)}; the last one also matches as a prefix)` },
  ],
  examples: ['docsctl content search sp_123 "install windows"', 'docsctl content search sp_123 deploy --json | jq ".[0].sections"'],
  list: true,
  output: { columns: searchColumns },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.searchSpaceContent, { query: args.query }, { query: '<query>' });
    const api = await ctx.api();
    return api.paginate(ops.searchSpaceContent, { params: { spaceId: args.space }, query }, flags.page);
  },
});
