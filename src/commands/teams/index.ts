import { defineCommand, defineGroup } from '../../cli/command.js';
import type { Column } from '../../cli/output.js';
import type { Team } from '../../contract/orgs.js';
import { ops } from '../../contract/teams.js';

const columns: Column<Team>[] = ['id', 'title', 'members', 'spaces', 'createdAt'];

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the teams of the organization',
  examples: ['docsctl teams list', 'docsctl teams list --json | jq -r ".[].title"'],
  list: true,
  output: { columns },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listTeams, { params: { organizationId } }, flags.page);
  },
});

export default defineGroup({ name: 'teams', summary: 'Teams of the organization', commands: [list] });
