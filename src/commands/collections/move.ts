import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';
import { PLACEMENT_FLAGS, placementBody } from '../move.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a collection into another collection, to the root, or next to a space or collection',
  args: [{ name: 'collection', description: 'collection id' }],
  flags: PLACEMENT_FLAGS,
  examples: [
    'docsctl collections move col_123 --parent col_456',
    'docsctl collections move col_123 --root --after sp_789',
    'docsctl collections move col_123 --before-collection col_456',
  ],
  output: { fields: collectionFields },
  async run(ctx, { args, flags }) {
    const body = placementBody(ops.moveCollection, flags);
    const api = await ctx.api();
    return api.call(ops.moveCollection, { params: { collectionId: args.collection }, body });
  },
});
