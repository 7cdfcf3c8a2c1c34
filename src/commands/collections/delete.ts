import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a collection (its spaces go to the trash, restorable for 7 days)',
  args: [{ name: 'collection', description: 'collection id' }],
  examples: ['docsctl collections delete col_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Delete collection ${args.collection} and everything in it? Its spaces can be restored for 7 days.`, flags.yes);
    const api = await ctx.api();
    await api.call(ops.deleteCollection, { params: { collectionId: args.collection } });
    ctx.info(`deleted collection ${args.collection}`);
  },
});
