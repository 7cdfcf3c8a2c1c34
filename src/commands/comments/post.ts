import { checkBody, defineCommand } from '../../cli/command.js';
import { CliError } from '../../cli/errors.js';
import { postFields } from './columns.js';
import { resolvePage } from '../content/lookup.js';
import { resolveCrPage } from '../cr/lookup.js';
import { crFlag, bodyFlags, bodyOf, threadOf } from './thread.js';
import { pageIdFlags, pageIdOf } from '../flags.js';

export default defineCommand({
  name: 'post',
  summary: 'Post a comment on a space or a change request, about a page if you name one',
  description:
    'Without --body, --body-file or --document-file, on a terminal, it opens your editor (DOCSCTL_EDITOR, VISUAL or ' +
    'EDITOR, else nano or vi) on a temporary file and posts what you save; an empty comment cancels (exit 130, nothing sent). ' +
    'Without a terminal a missing body is a usage error (exit 2).',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...crFlag,
    ...bodyFlags('the comment'),
    ...pageIdFlags('the page it is about: its path (e.g. guides/install) or id', 'page'),
    node: { description: 'the block it is about (node id in the page)', value: 'id' },
  },
  examples: [
    'docsctl comments post sp_123 --page-id getting-started -m "Is this still true?"',
    'docsctl comments post sp_123 --cr 3 --body-file review.md',
    'git log -1 --format=%B | docsctl comments post sp_123 --body-file -',
    'docsctl comments post sp_123 --document-file note.json',
  ],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const pageRef = pageIdOf(ctx, flags);
    const { body: text, flagOf } = await bodyOf(ctx, flags, { what: 'the comment' });
    const body = checkBody(t.ops.postComment, { body: text, page: pageRef, node: flags.node }, { ...flagOf, page: '--page-id' });
    const api = await ctx.api();
    // The page is named by path or id, in the content the comment is on; the API takes its id.
    if (pageRef !== undefined) {
      const page = await (t.onChangeRequest
        ? resolveCrPage(api, { spaceId: args.space, changeRequestId: t.params.changeRequestId }, pageRef)
        : resolvePage(api, args.space, pageRef)
      ).catch((err: unknown) => {
        throw err instanceof CliError ? new CliError(`--page-id: ${err.message}`, err.exitCode, err.hint) : err;
      });
      body.page = page.id;
    }
    return api.call(t.ops.postComment, { params: t.params, body });
  },
});
