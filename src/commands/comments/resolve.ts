import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { postFields } from './columns.js';
import { crFlag, replyFlag, threadOf, updatePost } from './thread.js';

/** `resolve` and `reopen`: the same PUT with `resolved` true or false. */
export function resolution(resolved: boolean) {
  const verb = resolved ? 'resolve' : 'reopen';
  return defineCommand({
    name: verb,
    summary: resolved
      ? 'Mark a comment resolved (a change request’s reply too, with --cr and --reply)'
      : 'Reopen a resolved comment (or a change request’s reply)',
    args: [
      { name: 'space', description: 'space id' },
      { name: 'comment', description: 'comment id' },
    ],
    flags: { ...crFlag, ...replyFlag },
    examples: [`docsctl comments ${verb} sp_123 c_456`, `docsctl comments ${verb} sp_123 c_456 --cr 3 --reply r_789`],
    output: { fields: postFields },
    async run(ctx, { args, flags }) {
      const t = threadOf(args.space, flags.cr);
      if (flags.reply !== undefined && !t.onChangeRequest) {
        throw new UsageError(
          `--reply: only replies to a change request’s comments can be ${resolved ? 'resolved' : 'reopened'}`,
          'add --cr N, or leave out --reply',
        );
      }
      return updatePost(await ctx.api(), t, args.comment, flags.reply, { resolved });
    },
  });
}

export default resolution(true);
