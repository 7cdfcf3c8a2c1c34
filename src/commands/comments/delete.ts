import { defineCommand } from '../../cli/command.js';
import { crFlag, replyFlag, threadOf } from './thread.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete your comment with its replies (or one reply, with --reply); admins may delete any',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: { ...crFlag, ...replyFlag },
  examples: ['docsctl comments delete sp_123 c_456 --yes', 'docsctl comments delete sp_123 c_456 --cr 3 --reply r_789 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const what = flags.reply === undefined ? `comment ${args.comment} and its replies` : `reply ${flags.reply} to comment ${args.comment}`;
    await ctx.confirm(`Delete ${what}?`, flags.yes);
    const api = await ctx.api();
    const params = { ...t.params, commentId: args.comment };
    if (flags.reply === undefined) await api.call(t.ops.deleteComment, { params });
    else await api.call(t.ops.deleteCommentReply, { params: { ...params, commentReplyId: flags.reply } });
    ctx.info(`deleted ${what}`);
  },
});
