import { checkQuery, defineCommand } from '../../cli/command.js';
import { DEFAULT_LIST_LIMIT } from '../../cli/output.js';
import { COMMENT_STATUS_FILTERS } from '../../contract/comments.js';
import { ORDERS } from '../../contract/members.js';
import { commentColumns, renderThreads, type Thread } from './columns.js';
import { crFlag, threadOf } from './thread.js';
import { aliased, hiddenAlias } from '../flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the comments of a space (or of a change request with --cr)',
  description: 'Newest first unless --order asc. On a terminal each comment is shown with its replies under it.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    ...crFlag,
    status: { description: 'only open or resolved comments (default all)', value: 'status', choices: COMMENT_STATUS_FILTERS },
    order: { description: 'asc (oldest first) or desc (newest first, the default)', value: 'order', choices: ORDERS },
    pageId: { description: 'only the comments on this page id', value: 'page', conflicts: ['targetPage'] },
    targetPage: hiddenAlias('--page-id', 'page'),
    authors: { type: 'list', description: 'only the comments of these user ids (repeatable, or comma-separated)', value: 'user' },
  },
  examples: [
    'docsctl comments list sp_123',
    'docsctl comments list sp_123 --cr 3 --status open --order asc',
    'docsctl comments list sp_123 --authors u_1,u_2 --json',
  ],
  list: true,
  output: { columns: commentColumns, human: renderThreads },
  async run(ctx, { args, flags }) {
    const t = threadOf(args.space, flags.cr);
    const query = checkQuery(
      t.ops.listComments,
      {
        status: flags.status,
        order: flags.order,
        targetPage: aliased(ctx, { flag: '--page-id', old: '--target-page' }, flags.pageId, flags.targetPage),
        authors: flags.authors,
      },
      { targetPage: '--page-id' },
    );
    const api = await ctx.api();
    const pager = api.paginate(t.ops.listComments, { params: t.params, query }, flags.page);
    if (!ctx.tty || flags.json || flags.fields) return pager;
    // A terminal shows threads: the comments of this page of the list, each with all its replies.
    const threads: Thread[] = [];
    for await (const comment of pager.take(flags.all ? undefined : (flags.limit ?? DEFAULT_LIST_LIMIT))) {
      const replies = [];
      if (comment.replies > 0) {
        for await (const r of api.paginate(t.ops.listCommentReplies, { params: { ...t.params, commentId: comment.id } })) replies.push(r);
      }
      threads.push({ comment, replies });
    }
    if (threads.length === 0) return ctx.info('no results');
    if (!flags.all && pager.nextCursor) {
      ctx.info(`showing ${threads.length} of ${pager.count} — use --all or --limit (next page: --page ${pager.nextCursor})`);
    }
    return threads;
  },
});
