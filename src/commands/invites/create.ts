import { checkBody, defineCommand } from '../../cli/command.js';
import { plural } from '../../cli/text.js';
import { MEMBER_ROLES } from '../../contract/members.js';
import { ops } from '../../contract/invites.js';
import { listValues, roleOrGuest } from '../flags.js';
import { invitedFields } from './columns.js';

export default defineCommand({
  name: 'create',
  aliases: ['new'],
  summary: 'Invite people to the organization by email (many at once), with a role',
  description:
    'Without --role they get the organization’s default role; guest invites them with no role (only what they are given). ' +
    '--sso makes them SSO members (they sign in through the organization’s SAML provider).',
  args: [{ name: 'email', description: 'email address to invite (one or more)', variadic: true }],
  flags: {
    role: { description: 'their role in the organization (guest: no role)', value: 'role', choices: MEMBER_ROLES },
    sso: { type: 'boolean', description: 'make them SSO members' },
  },
  examples: ['docsctl invites create ada@example.com bob@example.com --role edit', 'docsctl invites create carol@example.com --role guest --sso'],
  output: { fields: invitedFields },
  async run(ctx, { args, flags }) {
    const emails = listValues(args.email);
    const body = checkBody(ops.inviteMembers, { emails, role: roleOrGuest(flags.role), sso: flags.sso }, { emails: '<email>' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const answer = await api.call(ops.inviteMembers, { params: { organizationId }, body });
    ctx.info(`invited ${plural(answer.invited, 'person', 'people')} to ${organizationId}`);
    if (answer.failedSSOEmails?.length) ctx.info(`warning: not SSO members (they belong to another organization): ${answer.failedSSOEmails.join(', ')}`);
    return answer;
  },
});
