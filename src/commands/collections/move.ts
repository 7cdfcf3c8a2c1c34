import { checkBody, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';
import { placementOf, somewhere } from '../placement.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a collection into another collection, to the root, or next to a space',
  args: [{ name: 'collection', description: 'collection id' }],
  flags: {
    parent: { description: 'id of the new parent collection', value: 'id' },
    root: { type: 'boolean', description: 'move to the organization’s root (parent null)' },
    before: { description: 'place it just before this space', value: 'space' },
    after: { description: 'place it just after this space', value: 'space' },
  },
  examples: ['docsctl collections move col_123 --parent col_456', 'docsctl collections move col_123 --root --after sp_789'],
  output: { fields: collectionFields },
  async run(ctx, { args, flags }) {
    const { input, flagOf } = placementOf(flags);
    const body = somewhere(checkBody(ops.moveCollection, input, flagOf));
    const api = await ctx.api();
    return api.call(ops.moveCollection, { params: { collectionId: args.collection }, body });
  },
});
