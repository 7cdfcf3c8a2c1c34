import { checkQuery, defineCommand } from '../../cli/command.js';
import { COMMENT_FORMATS } from '../../contract/comments.js';
import { postFields } from './columns.js';
import { crFlag, replyFlag, threadOf } from './thread.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one comment (or one of its replies with --reply)',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: {
    ...crFlag,
    ...replyFlag,
    format: { description: 'body as markdown (default) or document (rich text, in --json)', value: 'format', choices: COMMENT_FORMATS },
  },
  examples: ['docsctl comments get sp_123 c_456', 'docsctl comments get sp_123 c_456 --cr 3 --reply r_789 --json'],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const query = checkQuery(t.ops.getComment, { format: flags.format });
    const api = await ctx.api();
    const params = { ...t.params, commentId: args.comment };
    if (flags.reply === undefined) return api.call(t.ops.getComment, { params, query });
    return api.call(t.ops.getCommentReply, { params: { ...params, commentReplyId: flags.reply }, query });
  },
});
