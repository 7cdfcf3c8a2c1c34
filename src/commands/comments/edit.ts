import { checkBody, defineCommand } from '../../cli/command.js';
import { postFields } from './columns.js';
import { crFlag, bodyFlags, bodyOf, replyFlag, threadOf, updatePost } from './thread.js';

export default defineCommand({
  name: 'edit',
  summary: 'Change the text of your comment (or reply, with --reply); admins may edit any',
  args: [
    { name: 'space', description: 'space id' },
    { name: 'comment', description: 'comment id' },
  ],
  flags: {
    ...crFlag,
    ...replyFlag,
    ...bodyFlags('the new text'),
  },
  examples: ['docsctl comments edit sp_123 c_456 -m "Fixed in #4"', 'docsctl comments edit sp_123 c_456 --reply r_789 --body-file note.md'],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const { body: text, flagOf } = await bodyOf(ctx, flags);
    const body = checkBody(t.ops.updateComment, { body: text }, flagOf);
    return updatePost(await ctx.api(), t, args.comment, flags.reply, body);
  },
});
