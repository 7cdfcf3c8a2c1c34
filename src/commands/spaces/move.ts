import { checkBody, defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a space into a collection, to the root, or next to another space',
  description: 'Without --parent or --root the space stays in its container and --before/--after reorder it there.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    parent: { description: 'id of the collection to move it into', value: 'id' },
    root: { type: 'boolean', description: 'move to the organization’s root (parent null)' },
    before: { description: 'place it just before this space (in the target container)', value: 'space' },
    after: { description: 'place it just after this space (in the target container)', value: 'space' },
  },
  examples: [
    'docsctl spaces move sp_123 --parent col_456',
    'docsctl spaces move sp_123 --parent col_456 --before sp_789',
    'docsctl spaces move sp_123 --root --after sp_789',
  ],
  output: { fields: spaceFields },
  async run(ctx, { args, flags }) {
    if (flags.parent !== undefined && flags.root) throw new UsageError('--parent and --root cannot be used together');
    if (flags.before !== undefined && flags.after !== undefined) throw new UsageError('--before and --after cannot be used together');
    const anchor = flags.before ?? flags.after;
    const side = flags.before !== undefined ? 'before' : 'after';
    const body = checkBody(ops.moveSpace, {
      parent: flags.root ? null : flags.parent,
      position: anchor === undefined ? undefined : { [side]: { type: 'space', space: anchor } },
    }, { position: `--${side}` });
    if (Object.keys(body).length === 0) throw new UsageError('nowhere to move', 'pass --parent, --root, --before or --after');
    const api = await ctx.api();
    return api.call(ops.moveSpace, { params: { spaceId: args.space }, body });
  },
});
