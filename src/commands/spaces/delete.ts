import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a space (restorable for 7 days, then gone for good)',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl spaces delete sp_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Delete space ${args.space}? It can be restored for 7 days.`, flags.yes);
    const api = await ctx.api();
    await api.call(ops.deleteSpace, { params: { spaceId: args.space } });
    ctx.info(`deleted space ${args.space} (restore it within 7 days: docsctl spaces restore ${args.space})`);
  },
});
