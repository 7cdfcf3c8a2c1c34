import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/members.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Remove a member from the organization (and from its teams)',
  args: [{ name: 'user', description: 'user id of the member' }],
  examples: ['docsctl members remove u_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const organizationId = await ctx.org();
    const api = await ctx.api();
    await confirmAction(ctx, flags.yes, {
      verb: 'Remove',
      kind: 'member',
      id: args.user,
      rest: `from organization ${organizationId}`,
      then: 'They lose access to its content and leave its teams.',
      title: async () => (await api.call(ops.getMember, { params: { organizationId, userId: args.user } })).user.displayName,
    });
    await api.call(ops.removeMember, { params: { organizationId, userId: args.user } });
    ctx.info(`removed ${args.user} from ${organizationId}`);
  },
});
