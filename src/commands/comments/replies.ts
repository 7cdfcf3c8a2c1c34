import { defineCommand } from '../../cli/command.js';
import { replyColumns } from './columns.js';
import { crFlag, threadOf } from './thread.js';

export default defineCommand({
  name: 'replies',
  summary: 'List the replies to a comment, oldest first',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: { ...crFlag },
  examples: ['docsctl comments replies sp_123 c_456', 'docsctl comments replies sp_123 c_456 --cr 3 --json'],
  list: true,
  output: { columns: replyColumns },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const api = await ctx.api();
    return api.paginate(t.ops.listCommentReplies, { params: { ...t.params, commentId: args.comment } }, flags.page);
  },
});
