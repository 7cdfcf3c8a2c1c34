import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'restore',
  summary: 'Restore a deleted space (within 7 days of its deletion)',
  description: 'It goes back at the end of its collection, or at the organization’s root when that collection is gone.',
  args: [{ name: 'space', description: 'space id (see docsctl spaces list --deleted)' }],
  examples: ['docsctl spaces restore sp_123', 'docsctl spaces list --deleted'],
  output: { fields: spaceFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.restoreSpace, { params: { spaceId: args.space } });
  },
});
