import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/members.js';
import { memberFields } from './columns.js';

export default defineCommand({
  name: 'sso',
  summary: 'Make a member an SSO member (they sign in through the organization’s SAML provider)',
  args: [{ name: 'user', description: 'user id of the member' }],
  examples: ['docsctl members sso u_123'],
  output: { fields: memberFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.setMemberSso, { params: { organizationId, userId: args.user } });
  },
});
