import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/invites.js';
import { confirmAction } from '../../prompts.js';

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
    await confirmAction(ctx, flags.yes, {
      verb: 'Delete',
      kind: 'invite link',
      id: args.link,
      rest: `of organization ${organizationId}`,
      then: 'No one can join with it any more; those who joined stay.',
    });
    await api.call(ops.deleteInviteLink, { params });
    ctx.info(`deleted invite link ${args.link}`);
  },
});
