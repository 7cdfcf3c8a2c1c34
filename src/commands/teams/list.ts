import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/teams.js';
import { teamColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the teams of the organization',
  flags: {
    title: { description: 'only teams whose title contains this text (case-insensitive)', value: 'text' },
    owner: { description: 'only the teams this member can manage (those they own; all for an admin)', value: 'user' },
  },
  examples: ['docsctl teams list', 'docsctl teams list --title writ', 'docsctl teams list --owner u_123 --json | jq -r ".[].title"'],
  list: true,
  output: { columns: teamColumns },
  async run(ctx, { flags }) {
    const query = checkQuery(ops.listTeams, { title: flags.title, owner: flags.owner });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listTeams, { params: { organizationId }, query }, flags.page);
  },
});
