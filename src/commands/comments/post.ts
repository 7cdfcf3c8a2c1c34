import { checkBody, defineCommand } from '../../cli/command.js';
import { CliError } from '../../cli/errors.js';
import { postFields } from './columns.js';
import { resolvePage } from '../content/lookup.js';
import { resolveCrPage } from '../cr/lookup.js';
import { crFlag, bodyFlags, bodyOf, threadOf } from './thread.js';

export default defineCommand({
  name: 'post',
  summary: 'Post a comment on a space or a change request, about a page if you name one',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...crFlag,
    ...bodyFlags('the comment'),
    page: { description: 'the page it is about: its path (e.g. guides/install) or id', value: 'path' },
    node: { description: 'the block it is about (node id in the page)', value: 'id' },
  },
  examples: [
    'docsctl comments post sp_123 --page getting-started -m "Is this still true?"',
    'docsctl comments post sp_123 --cr 3 --body-file review.md',
    'git log -1 --format=%B | docsctl comments post sp_123 --body-file -',
    'docsctl comments post sp_123 --document-file note.json',
  ],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const { body: text, flagOf } = await bodyOf(ctx, flags);
    const body = checkBody(t.ops.postComment, { body: text, page: flags.page, node: flags.node }, flagOf);
    const api = await ctx.api();
    // The page is named by path or id, in the content the comment is on; the API takes its id.
    if (flags.page !== undefined) {
      const page = await (t.onChangeRequest
        ? resolveCrPage(api, { spaceId: args.space, changeRequestId: t.params.changeRequestId }, flags.page)
        : resolvePage(api, args.space, flags.page)
      ).catch((err: unknown) => {
        throw err instanceof CliError ? new CliError(`--page: ${err.message}`, err.exitCode, err.hint) : err;
      });
      body.page = page.id;
    }
    return api.call(t.ops.postComment, { params: t.params, body });
  },
});
