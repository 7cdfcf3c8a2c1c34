import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one space',
  args: [{ name: 'space', description: 'space id' }],
  examples: ['docsctl spaces get sp_123', 'docsctl spaces get sp_123 --json | jq .revision'],
  output: { fields: spaceFields },
  async run(ctx, { args }) {
    const api = await ctx.api();
    return api.call(ops.getSpace, { params: { spaceId: args.space } });
  },
});
