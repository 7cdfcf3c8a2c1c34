import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { RETENTION_DAYS } from '../../contract/spaces.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: `Delete a collection (its spaces go to the trash, restorable for ${RETENTION_DAYS} days)`,
  args: [{ name: 'collection', description: 'collection id' }],
  examples: ['docsctl collections delete col_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const api = await ctx.api();
    await confirmAction(ctx, flags.yes, {
      verb: 'Delete',
      kind: 'collection',
      id: args.collection,
      rest: 'and everything in it',
      then: `Its spaces can be restored for ${RETENTION_DAYS} days.`,
      title: async () => (await api.call(ops.getCollection, { params: { collectionId: args.collection } })).title,
    });
    await api.call(ops.deleteCollection, { params: { collectionId: args.collection } });
    ctx.info(`deleted collection ${args.collection}`);
  },
});
