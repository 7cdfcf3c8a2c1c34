import { defineCommand } from '../../cli/command.js';
import { plural } from '../../cli/text.js';
import { ops } from '../../contract/teams.js';
import { ApiError } from '../../client/errors.js';
import { ctxTeam } from './members/ids.js';
import { named, question } from '../prompts.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a team (admins): its members lose what was granted to the team',
  description: 'The members stay in the organization; the roles the team was given on spaces, collections and sites are removed with it.',
  args: [{ name: 'team', description: 'team id' }],
  examples: ['docsctl teams delete team_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const { api, organizationId, params } = await ctxTeam(ctx, args.team);
    // The service answers 204 for a team that is not there: said here, nothing sent.
    const team = await api.call(ops.getTeam, { params }).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    });
    if (!team) {
      ctx.info(`team ${args.team} is not there (already deleted, or not a team of organization ${organizationId}): nothing to do`);
      return;
    }
    await ctx.confirm(
      question(
        {
          verb: 'Delete',
          kind: 'team',
          id: args.team,
          then: `Its ${plural(team.members, 'member')} lose what the team was granted (${plural(team.spaces, 'space')} and any collections and sites).`,
        },
        team.title,
      ),
      flags.yes,
    );
    await api.call(ops.deleteTeam, { params });
    ctx.info(`deleted ${named('team', args.team, team.title)}`);
  },
});
