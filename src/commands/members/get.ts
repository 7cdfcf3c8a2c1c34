import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/members.js';
import { memberFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one member',
  args: [{ name: 'user', description: 'user id of the member' }],
  examples: ['docsctl members get u_123', 'docsctl members get u_123 --json'],
  output: { fields: memberFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getMember, { params: { organizationId, userId: args.user } });
  },
});
