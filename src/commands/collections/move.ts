import { checkBody, defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/collections.js';
import { collectionFields } from './columns.js';

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
    if (flags.parent && flags.root) throw new UsageError('--parent and --root cannot be used together');
    if (flags.before && flags.after) throw new UsageError('--before and --after cannot be used together');
    const anchor = flags.before ?? flags.after;
    const body = checkBody(ops.moveCollection, {
      parent: flags.root ? null : flags.parent,
      position: anchor === undefined ? undefined : { [flags.before ? 'before' : 'after']: { type: 'space', space: anchor } },
    }, { position: flags.before ? '--before' : '--after' });
    if (Object.keys(body).length === 0) throw new UsageError('nowhere to move', 'pass --parent, --root, --before or --after');
    const api = await ctx.api();
    return api.call(ops.moveCollection, { params: { collectionId: args.collection }, body });
  },
});
