import { checkBody, defineCommand } from '../../cli/command.js';
import { postFields } from './columns.js';
import { crFlag, markdownOf, threadOf } from './thread.js';

export default defineCommand({
  name: 'reply',
  summary: 'Reply to a comment',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: {
    ...crFlag,
    body: { short: 'm', description: 'the reply, in Markdown', value: 'markdown' },
    bodyFile: { description: 'the reply from a file, or - for stdin', value: 'file' },
  },
  examples: ['docsctl comments reply sp_123 c_456 -m "Done."', 'docsctl comments reply sp_123 c_456 --cr 3 --body-file answer.md'],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const { markdown, flagOf } = await markdownOf(ctx, flags);
    const body = checkBody(t.ops.postCommentReply, { body: { markdown } }, flagOf);
    const api = await ctx.api();
    return api.call(t.ops.postCommentReply, { params: { ...t.params, commentId: args.comment }, body });
  },
});
