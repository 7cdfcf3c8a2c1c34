import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/teams.js';
import { teamMemberColumns } from '../columns.js';
import { ctxTeam } from './ids.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the members of a team, with their role in it (owner or member)',
  args: [{ name: 'team', description: 'team id' }],
  examples: ['docsctl teams members list team_123', 'docsctl teams members list team_123 --json | jq -r ".[].organization.user.email"'],
  list: true,
  output: { columns: teamMemberColumns },
  async run(ctx, { args, flags }) {
    const { api, params } = await ctxTeam(ctx, args.team);
    return api.paginate(ops.listTeamMembers, { params }, flags.page);
  },
});
