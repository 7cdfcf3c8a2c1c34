import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';
import { PLACEMENT_FLAGS, placementOf, somewhere } from '../placement.js';

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
    const { input, flagOf } = placementOf(flags);
    const body = somewhere(checkBody(ops.moveCollection, input, flagOf));
    const api = await ctx.api();
    return api.call(ops.moveCollection, { params: { collectionId: args.collection }, body });
  },
});
