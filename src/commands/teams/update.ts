import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, teamTitle } from '../../contract/teams.js';
import { characters } from '../flags.js';
import { teamFields } from './columns.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit', 'rename'],
  summary: 'Rename a team (admins)',
  args: [{ name: 'team', description: 'team id' }],
  flags: { title: { description: `new title (${characters(teamTitle)})`, value: 'title' } },
  examples: ['docsctl teams update team_123 --title "Technical writers"'],
  output: { fields: teamFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateTeam, { title: flags.title });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateTeam, { params: { organizationId, teamId: args.team }, body });
  },
});
