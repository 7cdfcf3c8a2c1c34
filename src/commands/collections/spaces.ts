import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { spaceColumns } from '../spaces/columns.js';

export default defineCommand({
  name: 'spaces',
  summary: 'List the spaces in a collection',
  args: [{ name: 'collection', description: 'collection id' }],
  examples: ['docsctl collections spaces col_123', 'docsctl collections spaces col_123 --all --json'],
  list: true,
  output: { columns: spaceColumns },
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    return api.paginate(ops.listCollectionSpaces, { params: { collectionId: args.collection } }, flags.page);
  },
});
