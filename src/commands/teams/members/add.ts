import { checkBody, defineCommand } from '../../../cli/command.js';
import { plural } from '../../../cli/text.js';
import { TEAM_ROLES } from '../../../contract/members.js';
import { ops } from '../../../contract/teams.js';
import { listValues } from '../../flags.js';
import { ctxTeam } from './ids.js';

export default defineCommand({
  name: 'add',
  summary: 'Add members of the organization to a team (by user id or email, many at once), or change their team role',
  description:
    'One request for them all (the bulk update): if one of them is not a member of the organization, nothing changes. ' +
    '--role owner lets them manage the team’s members; a member already in the team gets the role given. With --role, each user ' +
    'is named as given in the request’s memberships (the official document does not say whether it takes emails there; ' +
    'the sandbox does): user ids are surest.',
  args: [
    { name: 'team', description: 'team id' },
    { name: 'user', description: 'user id or email of a member of the organization (one or more)', variadic: true },
  ],
  flags: { role: { description: 'their role in the team: member (default for newcomers) or owner', value: 'role', choices: TEAM_ROLES } },
  examples: ['docsctl teams members add team_123 u_ada bob@example.com', 'docsctl teams members add team_123 u_ada --role owner'],
  async run(ctx, { args, flags }) {
    const users = listValues(args.user);
    const memberships = flags.role ? Object.fromEntries(users.map((u) => [u, { role: flags.role }])) : undefined;
    const body = checkBody(ops.updateTeamMembers, { add: users, memberships }, { add: '<user>', memberships: '--role' });
    const { api, params } = await ctxTeam(ctx, args.team);
    await api.call(ops.updateTeamMembers, { params, body });
    ctx.info(`added ${plural(users.length, 'member')} to team ${args.team}${flags.role ? ` as ${flags.role}` : ''}: ${users.join(', ')}`);
  },
});
