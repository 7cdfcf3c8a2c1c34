import { checkBody, defineCommand } from '../../../cli/command.js';
import { plural } from '../../../cli/text.js';
import { ops } from '../../../contract/teams.js';
import { named } from '../../prompts.js';
import { listValues } from '../../flags.js';
import { ctxTeam } from './ids.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm'],
  summary: 'Remove members from a team (by user id or email, many at once): they lose what the team was granted',
  description: 'One request for them all (the bulk update). They stay members of the organization.',
  args: [
    { name: 'team', description: 'team id' },
    { name: 'user', description: 'user id or email of a member (one or more)', variadic: true },
  ],
  examples: ['docsctl teams members remove team_123 u_ada bob@example.com --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const users = listValues(args.user);
    const body = checkBody(ops.updateTeamMembers, { remove: users }, { remove: '<user>' });
    const { api, params } = await ctxTeam(ctx, args.team);
    if (!flags.yes) {
      const team = await api.call(ops.getTeam, { params }).catch(() => undefined);
      const who = users.length === 1 ? users[0] : `${plural(users.length, 'member')} (${users.join(', ')})`;
      const from = named('team', args.team, team?.title);
      await ctx.confirm(`Remove ${who} from ${from}? They lose what the team was granted on spaces, collections and sites.`, flags.yes);
    }
    await api.call(ops.updateTeamMembers, { params, body });
    ctx.info(`removed ${plural(users.length, 'member')} from team ${args.team}: ${users.join(', ')}`);
  },
});
