import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/invites.js';

export default defineCommand({
  name: 'join',
  summary: 'Join an organization with an invite link (as the signed-in user)',
  description: 'The link gives the role it was made for: in the organization, or on its space or collection. --org names the organization of the link.',
  args: [{ name: 'link', description: 'invite link id' }],
  examples: ['docsctl invites join inv_123 --org org_123'],
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.joinWithInvite, { params: { organizationId, inviteId: args.link } });
    ctx.info(`joined ${organizationId} with invite link ${args.link}`);
  },
});
