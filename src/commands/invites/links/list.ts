import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/invites.js';
import { linkColumns } from '../columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organization’s invite links',
  examples: ['docsctl invites links list', 'docsctl invites links list --json'],
  list: true,
  output: { columns: linkColumns },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listInviteLinks, { params: { organizationId } }, flags.page);
  },
});
