import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/spaces.js';
import { spaceFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one space',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    shareKey: { description: 'the secret key of a share-link space (from its share link), to view it without membership', value: 'key' },
  },
  examples: ['docsctl spaces get sp_123', 'docsctl spaces get sp_123 --json | jq .revision', 'docsctl spaces get sp_123 --share-key 4kq0N7...'],
  output: { fields: spaceFields },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.getSpace, { shareKey: flags.shareKey });
    const api = await ctx.api();
    return api.call(ops.getSpace, { params: { spaceId: args.space }, query });
  },
});
