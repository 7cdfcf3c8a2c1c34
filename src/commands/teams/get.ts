import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/teams.js';
import { teamFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one team',
  args: [{ name: 'team', description: 'team id' }],
  examples: ['docsctl teams get team_123', 'docsctl teams get team_123 --json'],
  output: { fields: teamFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getTeam, { params: { organizationId, teamId: args.team } });
  },
});
