import { checkBody, defineCommand } from '../../../cli/command.js';
import { plural } from '../../../cli/text.js';
import { TEAM_ROLES } from '../../../contract/members.js';
import { ops as memberOps } from '../../../contract/members.js';
import { ops } from '../../../contract/teams.js';
import type { Api } from '../../../client/api.js';
import { CliError, EXIT } from '../../../cli/errors.js';
import { listValues } from '../../flags.js';
import { ctxTeam } from './ids.js';

export default defineCommand({
  name: 'add',
  summary: 'Add members of the organization to a team (by user id or email, many at once), or change their team role',
  description:
    'One request for them all (the bulk update): if one of them is not a member of the organization, nothing changes. ' +
    '--role owner lets them manage the team’s members; a member already in the team gets the role given. With --role, an email ' +
    'is first looked up in the organization’s members: the request’s memberships name users by id (the official document ' +
    'takes emails in add only).',
  args: [
    { name: 'team', description: 'team id' },
    { name: 'user', description: 'user id or email of a member of the organization (one or more)', variadic: true },
  ],
  flags: { role: { description: 'their role in the team: member (default for newcomers) or owner', value: 'role', choices: TEAM_ROLES } },
  examples: ['docsctl teams members add team_123 u_ada bob@example.com', 'docsctl teams members add team_123 u_ada --role owner'],
  async run(ctx, { args, flags }) {
    const users = listValues(args.user);
    checkBody(ops.updateTeamMembers, { add: users }, { add: '<user>' });
    const { api, organizationId, params } = await ctxTeam(ctx, args.team);
    const memberships = flags.role ? Object.fromEntries((await userIds(api, organizationId, users)).map((id) => [id, { role: flags.role }])) : undefined;
    const body = checkBody(ops.updateTeamMembers, { add: users, memberships }, { add: '<user>', memberships: '--role' });
    await api.call(ops.updateTeamMembers, { params, body });
    ctx.info(`added ${plural(users.length, 'member')} to team ${args.team}${flags.role ? ` as ${flags.role}` : ''}: ${users.join(', ')}`);
  },
});

/**
 * The user ids of `users` (ids or emails): an email is the member whose email it is, any case,
 * found with the member list's search. Not a member: exit 4, nothing sent.
 */
async function userIds(api: Api, organizationId: string, users: string[]): Promise<string[]> {
  return Promise.all(
    users.map(async (u) => {
      if (!u.includes('@')) return u;
      const email = u.toLowerCase();
      for await (const m of api.paginate(memberOps.listMembers, { params: { organizationId }, query: { search: u } }).take()) {
        if (m.user.email?.toLowerCase() === email) return m.user.id;
      }
      throw new CliError(`<user>: no member with email ${u} in organization ${organizationId}`, EXIT.NOT_FOUND);
    }),
  );
}
