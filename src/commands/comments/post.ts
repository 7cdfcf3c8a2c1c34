import { checkBody, defineCommand } from '../../cli/command.js';
import { postFields } from './columns.js';
import { textInput } from './input.js';
import { crFlag, resolvePage, threadOf } from './thread.js';

export default defineCommand({
  name: 'post',
  summary: 'Post a comment on a space or a change request, about a page if you name one',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...crFlag,
    body: { short: 'm', description: 'the comment, in Markdown', value: 'markdown' },
    bodyFile: { description: 'the comment from a file, or - for stdin', value: 'file' },
    page: { description: 'the page it is about: its path (e.g. guides/install) or id', value: 'path' },
    node: { description: 'the block it is about (node id in the page)', value: 'id' },
  },
  examples: [
    'docsctl comments post sp_123 --page getting-started -m "Is this still true?"',
    'docsctl comments post sp_123 --cr 3 --body-file review.md',
    'git log -1 --format=%B | docsctl comments post sp_123 --body-file -',
  ],
  output: { fields: postFields },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const markdown = await textInput(ctx, flags.body, flags.bodyFile, ['--body', '--body-file']);
    const flagOf = { body: flags.bodyFile !== undefined ? '--body-file' : '--body' };
    const body = checkBody(t.ops.postComment, { body: { markdown }, page: flags.page, node: flags.node }, flagOf);
    const api = await ctx.api();
    // The page is named by path or id; the API takes its id. (A change request's comments name pages of the space too.)
    if (flags.page !== undefined) body.page = await resolvePage(api, args.space, flags.page);
    return api.call(t.ops.postComment, { params: t.params, body });
  },
});
