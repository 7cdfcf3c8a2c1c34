import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/invites.js';
import { linkGives } from '../columns.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete an invite link: no one can join with it any more (those who joined stay)',
  args: [{ name: 'link', description: 'invite link id' }],
  examples: ['docsctl invites links delete inv_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const params = { organizationId, inviteId: args.link };
    if (!flags.yes) {
      // What it gives, looked up only to ask (a lookup that fails leaves the id alone).
      const link = await api.call(ops.getInviteLink, { params }).catch(() => undefined);
      const gives = link ? ` (${linkGives(link)})` : '';
      await ctx.confirm(
        `Delete invite link ${args.link}${gives} of organization ${organizationId}? No one can join with it any more; those who joined stay.`,
        flags.yes,
      );
    }
    await api.call(ops.deleteInviteLink, { params });
    ctx.info(`deleted invite link ${args.link}`);
  },
});
