import { checkBody, defineCommand } from '../../cli/command.js';
import { postFields } from './columns.js';
import { crFlag, replyFlag, threadOf, updatePost } from './thread.js';

/** `react` and `unreact`: add or remove the caller's reaction with one emoji. */
export function reaction(add: boolean) {
  const field = add ? 'addedReactions' : 'removedReactions';
  return defineCommand({
    name: add ? 'react' : 'unreact',
    summary: add ? 'React to a comment (or a reply) with an emoji or a reaction name' : 'Take back your reaction to a comment (or a reply)',
    args: [
      { name: 'space', description: 'space id' },
      { name: 'comment', description: 'comment id' },
      { name: 'emoji', description: 'the reaction: an emoji such as 👍, or a name such as :+1: (each is its own reaction)' },
    ],
    flags: { ...crFlag, ...replyFlag },
    examples: [
      `docsctl comments ${add ? 'react' : 'unreact'} sp_123 c_456 👍`,
      `docsctl comments ${add ? 'react' : 'unreact'} sp_123 c_456 :+1:`,
      `docsctl comments ${add ? 'react' : 'unreact'} sp_123 c_456 🎉 --cr 3 --reply r_789`,
    ],
    output: { fields: postFields },
    async run(ctx, { args, flags }) {
      const t = threadOf(args.space, flags.cr);
      const body = checkBody(t.ops.updateComment, { [field]: [args.emoji] }, { [field]: '<emoji>' });
      return updatePost(await ctx.api(), t, args.comment, flags.reply, body);
    },
  });
}

export default reaction(true);
