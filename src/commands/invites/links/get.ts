import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/invites.js';
import { linkColumns } from '../columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one invite link',
  args: [{ name: 'link', description: 'invite link id' }],
  examples: ['docsctl invites links get inv_123'],
  output: { fields: linkColumns },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getInviteLink, { params: { organizationId, inviteId: args.link } });
  },
});
