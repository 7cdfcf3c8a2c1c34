import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/change-requests.js';
import { crFields, crRef } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one change request (by number or id)',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'cr', description: 'change request number (e.g. 3) or id' },
  ],
  examples: ['docsctl cr get sp_123 3', 'docsctl cr get sp_123 cr_456 --json | jq .status'],
  output: { fields: crFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.getChangeRequest, { params: { spaceId: args.space, changeRequestId: crRef(args.cr) } });
  },
});
