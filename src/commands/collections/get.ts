import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one collection',
  args: [{ name: 'collection', description: 'collection id' }],
  examples: ['docsctl collections get col_123', 'docsctl collections get col_123 --json'],
  output: { fields: collectionFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.getCollection, { params: { collectionId: args.collection } });
  },
});
