import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/members.js';
import { memberTeamColumns } from './columns.js';

export default defineCommand({
  name: 'teams',
  summary: 'List the teams a member is in, with their role in each',
  args: [{ name: 'user', description: 'user id of the member' }],
  flags: { title: { description: 'only teams whose title contains this text (case-insensitive)', value: 'text' } },
  examples: ['docsctl members teams u_123', 'docsctl members teams u_123 --title writ'],
  list: true,
  output: { columns: memberTeamColumns },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.listMemberTeams, { title: flags.title });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listMemberTeams, { params: { organizationId, userId: args.user }, query }, flags.page);
  },
});
