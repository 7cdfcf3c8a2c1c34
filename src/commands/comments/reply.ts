import { checkBody, defineCommand } from '../../cli/command.js';
import { postFields } from './columns.js';
import { crFlag, bodyFlags, bodyOf, threadOf } from './thread.js';

export default defineCommand({
  name: 'reply',
  summary: 'Reply to a comment',
  description:
    'Without --body, --body-file or --document-file, on a terminal, it opens your editor (DOCSCTL_EDITOR, VISUAL or ' +
    'EDITOR, else nano or vi) on a temporary file and posts what you save; an empty reply cancels (exit 130, nothing sent). ' +
    'Without a terminal a missing body is a usage error (exit 2).',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: {
    ...crFlag,
    ...bodyFlags('the reply'),
  },
  examples: ['docsctl comments reply sp_123 c_456 -m "Done."', 'docsctl comments reply sp_123 c_456 --cr 3 --body-file answer.md'],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const { body: text, flagOf } = await bodyOf(ctx, flags, { what: 'the reply' });
    const body = checkBody(t.ops.postCommentReply, { body: text }, flagOf);
    const api = await ctx.api();
    return api.call(t.ops.postCommentReply, { params: { ...t.params, commentId: args.comment }, body });
  },
});
