import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';
import { PLACEMENT_FLAGS, placementBody } from '../move.js';

export default defineCommand({
  name: 'move',
  summary: 'Move a space into a collection, to the root, or next to another space or collection',
  description: 'Without --parent or --root the space stays in its container and --before/--after reorder it there.',
  args: [{ name: 'space', description: 'space id' }],
  flags: PLACEMENT_FLAGS,
  examples: [
    'docsctl spaces move sp_123 --parent col_456',
    'docsctl spaces move sp_123 --parent col_456 --before sp_789',
    'docsctl spaces move sp_123 --root --after sp_789',
    'docsctl spaces move sp_123 --after-collection col_456 --before sp_789   # between two neighbours',
  ],
  output: { fields: spaceFields },
  async run(ctx, { args, flags }) {
    const body = placementBody(ops.moveSpace, flags);
    const api = await ctx.api();
    return api.call(ops.moveSpace, { params: { spaceId: args.space }, body });
  },
});
