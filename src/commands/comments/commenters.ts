import { defineCommand } from '../../cli/command.js';
import { commenterColumns } from './columns.js';
import { crFlag, threadOf } from './thread.js';

export default defineCommand({
  name: 'commenters',
  summary: 'List the members who commented or replied, in order of their first word',
  args: [{ name: 'space', description: 'space id' }],
  flags: { ...crFlag },
  examples: ['docsctl comments commenters sp_123', 'docsctl comments commenters sp_123 --cr 3 --json'],
  list: true,
  output: { columns: commenterColumns },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const api = await ctx.api();
    return api.paginate(t.ops.listCommenters, { params: t.params }, flags.page);
  },
});
