import { defineCommand } from '../../cli/command.js';
import { crFlag, replyFlag, threadOf } from './thread.js';
import { confirmAction, excerpt } from '../prompts.js';

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
    const api = await ctx.api();
    const params = { ...t.params, commentId: args.comment };
    // A comment has no title: the start of its text stands for one.
    const text = (body: { markdown: string } | object) => ('markdown' in body ? excerpt(body.markdown) : undefined);
    await confirmAction(
      ctx,
      flags.yes,
      flags.reply === undefined
        ? {
            verb: 'Delete',
            kind: 'comment',
            id: args.comment,
            rest: 'and its replies',
            title: async () => text((await api.call(t.ops.getComment, { params, query: { format: 'markdown' } })).body),
          }
        : {
            verb: 'Delete',
            kind: 'reply',
            id: flags.reply,
            rest: `to comment ${args.comment}`,
            title: async () =>
              text((await api.call(t.ops.getCommentReply, { params: { ...params, commentReplyId: flags.reply! }, query: { format: 'markdown' } })).body),
          },
    );
    if (flags.reply === undefined) await api.call(t.ops.deleteComment, { params });
    else await api.call(t.ops.deleteCommentReply, { params: { ...params, commentReplyId: flags.reply } });
    ctx.info(`deleted ${what}`);
  },
});
