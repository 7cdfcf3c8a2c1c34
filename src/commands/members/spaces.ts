import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops, ORDERS } from '../../contract/members.js';
import { memberSpaceColumns } from './columns.js';

export default defineCommand({
  name: 'spaces',
  summary: 'List the spaces a member can access, with their permission on each',
  args: [{ name: 'user', description: 'user id of the member' }],
  flags: { order: { description: 'asc (oldest space first) or desc (default)', value: 'order', choices: ORDERS } },
  examples: ['docsctl members spaces u_123', 'docsctl members spaces u_123 --order asc --json'],
  list: true,
  output: { columns: memberSpaceColumns },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.listMemberSpaces, { order: flags.order });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listMemberSpaces, { params: { organizationId, userId: args.user }, query }, flags.page);
  },
});
