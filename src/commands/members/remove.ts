import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/members.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Remove a member from the organization (and from its teams)',
  args: [{ name: 'user', description: 'user id of the member' }],
  examples: ['docsctl members remove u_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const organizationId = await ctx.org();
    await ctx.confirm(`Remove ${args.user} from organization ${organizationId}? They lose access to its content and leave its teams.`, flags.yes);
    const api = await ctx.api();
    await api.call(ops.removeMember, { params: { organizationId, userId: args.user } });
    ctx.info(`removed ${args.user} from ${organizationId}`);
  },
});
