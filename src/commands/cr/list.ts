import { checkQuery, defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import type { Api, Page, Paginator } from '../../client/api.js';
import { CR_ORDERS, CR_STATUSES, ops, type ChangeRequest, type ChangeRequestStatus } from '../../contract/change-requests.js';
import { concatLists, type PageFetch } from '../lists.js';
import { crColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the change requests of a space, or of the whole organization',
  description:
    'With a space, its change requests; without one, those of every space of the organization you can see ' +
    '(the current organization, or the one given with --org ID). Only open ones unless --status says otherwise; ' +
    '--status all lists every status (draft, open, archived, merged, in that order); when nothing is open but drafts ' +
    'are, stderr says so. Most recently updated first, ' +
    'or most recently created with --order-by createdAt.',
  args: [{ name: 'space', description: 'space id (omit for the organization-wide list)', optional: true }],
  flags: {
    status: { description: 'only this status (default open), or all', value: 'status', choices: [...CR_STATUSES, 'all'] },
    creator: { description: 'only those created by this user id', value: 'user' },
    contributor: { description: 'only those this user id contributed to', value: 'user' },
    requestedReviewer: { description: 'only those that request a review from this user id', value: 'user' },
    conversationsIssuesCluster: { description: 'only those of this issues cluster', value: 'id' },
    orderBy: { description: 'most recent first by this date (default updatedAt)', value: 'field', choices: CR_ORDERS },
  },
  examples: [
    'docsctl cr list sp_123',
    'docsctl cr list sp_123 --status all --creator u_456',
    'docsctl cr list --org org_123 --status merged --json',
    'docsctl cr list sp_123 --order-by createdAt',
  ],
  list: true,
  output: { columns: crColumns },
  async run(ctx, { args, flags }) {
    const filters = checkQuery(ops.listChangeRequests, {
      creator: flags.creator,
      contributor: flags.contributor,
      requestedReviewer: flags.requestedReviewer,
      conversationsIssuesCluster: flags.conversationsIssuesCluster,
      orderBy: flags.orderBy,
    }) as Record<string, string>;
    const api = await ctx.api();
    const { fetch, name } = await pageFetcher(ctx, api, args.space, filters);
    if (flags.status === 'all') return everyStatus(api, fetch, flags.page, name);
    const status = flags.status as ChangeRequestStatus | undefined;
    return api.paginator(
      async (cursor, limit) => {
        const page = await fetch(status, cursor, limit);
        // Nothing open (the default) but drafts: say where they are, on stderr.
        if (status === undefined && cursor === undefined && page.count === 0) await hintDrafts(ctx, fetch);
        return page;
      },
      flags.page,
      name,
    );
  },
});

/** `no open change requests, but 2 drafts: …` when there are drafts (a failure to count them says nothing). */
async function hintDrafts(ctx: Context, fetch: Fetch): Promise<void> {
  const drafts = await fetch('draft', undefined, 1).then(
    (p) => p.count,
    () => 0,
  );
  if (drafts > 0) {
    ctx.info(`no open change requests, but ${drafts} draft${drafts === 1 ? '' : 's'}: see them with --status draft, or every status with --status all`);
  }
}

type Fetch = (status: ChangeRequestStatus | undefined, cursor: string | undefined, limit: number) => Promise<Page<ChangeRequest>>;

/** One page of the space's list, or of the organization's; and the list's name for messages. */
async function pageFetcher(ctx: Context, api: Api, space: string | undefined, filters: Record<string, string>): Promise<{ fetch: Fetch; name: string }> {
  const organizationId = space === undefined ? await ctx.org() : undefined;
  const fetch: Fetch = (status, cursor, limit) => {
    const query = { ...filters, ...(status ? { status } : {}), limit, ...(cursor ? { page: cursor } : {}) };
    return organizationId === undefined
      ? api.call(ops.listChangeRequests, { params: { spaceId: space! }, query })
      : api.call(ops.listOrganizationChangeRequests, { params: { organizationId }, query });
  };
  const name =
    organizationId === undefined
      ? `GET /v1/spaces/${encodeURIComponent(space!)}/change-requests`
      : `GET /v1/orgs/${encodeURIComponent(organizationId)}/change-requests`;
  return { fetch, name };
}

/** The service lists one status at a time (default open): `all` walks the statuses in turn (lists.ts). */
function everyStatus(api: Api, fetch: Fetch, start: string | undefined, name: string): Paginator<ChangeRequest> {
  const lists = CR_STATUSES.map(
    (s): PageFetch<ChangeRequest> =>
      (cursor, limit) =>
        fetch(s, cursor, limit),
  );
  return concatLists(api, lists, start, name, 'cr list --status all');
}
