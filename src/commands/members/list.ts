import { checkQuery, defineCommand } from '../../cli/command.js';
import { MEMBER_ROLES, MEMBER_SORTS, ops, ORDERS } from '../../contract/members.js';
import { memberColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the members of the organization',
  flags: {
    role: { description: 'only members with this role (guest: members without one)', value: 'role', choices: MEMBER_ROLES },
    search: { description: 'only members whose name or email contains this text (case-insensitive)', value: 'text' },
    sort: { description: 'sort by joinedAt (default), lastSeenAt (only members seen at least once) or name', value: 'field', choices: MEMBER_SORTS },
    order: { description: 'asc or desc (default desc)', value: 'order', choices: ORDERS },
  },
  examples: [
    'docsctl members list',
    'docsctl members list --role admin',
    'docsctl members list --search acme.test --sort name --order asc',
    'docsctl members list --sort lastSeenAt --json | jq -r ".[].user.email"',
  ],
  list: true,
  output: { columns: memberColumns },
  async run(ctx, { flags }) {
    const query = checkQuery(ops.listMembers, { role: flags.role, search: flags.search, sort: flags.sort, order: flags.order });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listMembers, { params: { organizationId }, query }, flags.page);
  },
});
