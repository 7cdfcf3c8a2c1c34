import { checkBody, defineCommand } from '../../../cli/command.js';
import { UsageError } from '../../../cli/errors.js';
import { MEMBER_ROLES } from '../../../contract/members.js';
import { ops } from '../../../contract/invites.js';
import { roleOrGuest } from '../../flags.js';
import { linkColumns } from '../columns.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change the role an invite link gives (--role for a link to the organization, --level for one to a space or collection)',
  args: [{ name: 'link', description: 'invite link id' }],
  flags: {
    role: { description: 'the role in the organization it gives (guest: none)', value: 'role', choices: MEMBER_ROLES, conflicts: ['level'] },
    level: { description: 'the role on its space or collection', value: 'role', choices: MEMBER_ROLES },
  },
  examples: ['docsctl invites links update inv_123 --role edit', 'docsctl invites links update inv_456 --level read'],
  output: { fields: linkColumns },
  async run(ctx, { args, flags }) {
    if (flags.role === undefined && flags.level === undefined) throw new UsageError('nothing to update', 'pass --role or --level');
    const body =
      flags.role !== undefined
        ? checkBody(ops.updateInviteLink, { role: roleOrGuest(flags.role) })
        : checkBody(ops.updateInviteLink, { level: roleOrGuest(flags.level) });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateInviteLink, { params: { organizationId, inviteId: args.link }, body });
  },
});
