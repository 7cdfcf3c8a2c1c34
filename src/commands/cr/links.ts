import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/change-requests.js';
import { flattenPages } from '../content/lookup.js';
import { linkColumns, linkListFlags, linkStatusOf, listLinks } from '../content/links-output.js';
import { pageIdFlags, pageIdOf } from '../flags.js';
import { CR_ARGS, crParams } from './columns.js';
import { listCrPages, resolveCrPage } from './lookup.js';

export default defineCommand({
  name: 'links',
  summary: 'List the links of a page of a change request, each ok, broken or in-app',
  description:
    'As content links --page-id, in the change request’s content (the service lists the links of one page there). ' +
    'Its stats on stderr count the broken links the change request introduced.',
  args: CR_ARGS,
  flags: {
    ...linkListFlags,
    ...pageIdFlags('the page whose links to list (id or path); required', 'page'),
  },
  examples: [
    'docsctl cr links sp_123 3 --page-id getting-started/install',
    'docsctl cr links sp_123 3 --page-id getting-started --fail-on-broken   # in CI: exit 1 when a link is broken',
  ],
  output: { columns: linkColumns },
  async run(ctx, { args, flags, print }) {
    const status = linkStatusOf(flags);
    const pageRef = pageIdOf(ctx, flags);
    if (pageRef === undefined)
      throw new UsageError('missing --page-id: the page whose links to list (id or path)', `list the pages: docsctl cr pages ${args.space} ${args.cr}`);
    const api = await ctx.api();
    const params = crParams(args);
    const pageId = (await resolveCrPage(api, params, pageRef)).id;
    return listLinks(
      ctx,
      {
        // The operation takes no status: the items are filtered after.
        fetch: (cursor) =>
          api.call(ops.listChangeRequestPageLinks, { params: { ...params, pageId }, query: { limit: 1000, ...(cursor ? { page: cursor } : {}) } }),
        pages: async () => flattenPages(await listCrPages(api, params)),
        where: `page ${pageId} of change request ${params.changeRequestId}`,
        request: `GET /v1/spaces/${encodeURIComponent(params.spaceId)}/change-requests/${encodeURIComponent(params.changeRequestId)}/content/page/${encodeURIComponent(pageId)}/links`,
      },
      { ...(status ? { status } : {}), failOnBroken: flags.failOnBroken },
      print,
    );
  },
});
