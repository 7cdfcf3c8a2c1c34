/**
 * Link and backlink lists as the content commands print them: page references shown by path
 * (read from the space's pages), JSON left as the service's own items.
 */
import type { Api } from '../../client/api.js';
import type { Context } from '../../cli/context.js';
import type { Print } from '../../cli/command.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import type { Column } from '../../cli/output.js';
import { LINK_STATUSES, ops, type Backlink, type LinkItem, type LinkList } from '../../contract/content.js';
import { pathsById, refText } from './columns.js';
import { flattenPages, listPages, type PageRow } from './lookup.js';

export type LinkStatus = LinkItem['status'];

/** Page id → path, per item printed (the items themselves stay the service's objects). */
const pathsOf = new WeakMap<object, Map<string, string>>();

export const linkColumns: Column<LinkItem>[] = [
  'status',
  { key: 'target', value: (l) => refText(l.targetReference, pathsOf.get(l)) },
  { key: 'from', value: (l) => l.locationReferences.map((r) => refText(r, pathsOf.get(l))).join(', ') },
];

export const backlinkColumns: Column<Backlink>[] = [
  { key: 'from', value: (b) => refText({ kind: b.page !== undefined ? 'page' : b.kind, page: b.page, file: b.file }, pathsOf.get(b)) },
  'kind',
  'page',
  'space',
  { key: 'revision', value: (b) => b.versionContext.revision },
];

/** The filters of every link list (`content links`, `spaces links`, `cr links`). */
export const linkListFlags = {
  broken: { type: 'boolean', description: 'only broken links (status broken)' },
  status: { description: 'only links with this status', value: 'status', choices: LINK_STATUSES },
  failOnBroken: { type: 'boolean', description: 'exit 1 after the list when any link is broken (for CI)' },
} as const;

/** The status `--broken` or `--status` asks for (exit 2 when they ask for two). */
export function linkStatusOf(flags: { broken?: boolean; status?: LinkStatus }): LinkStatus | undefined {
  if (flags.broken && flags.status && flags.status !== 'broken') throw new UsageError('--broken and --status cannot be used together');
  return flags.broken ? 'broken' : flags.status;
}

/** Show the page references of `items` by the paths of `pages` (in the columns above). */
export function withPathsOf<T extends object>(items: T[], pages: readonly PageRow[]): T[] {
  const paths = pathsById(pages);
  for (const item of items) pathsOf.set(item, paths);
  return items;
}

/** Remember the paths of a space's pages for the columns above. */
export async function withPaths<T extends object>(api: Api, spaceId: string, items: T[]): Promise<T[]> {
  return withPathsOf(items, flattenPages(await listPages(api, spaceId)));
}

/** Where a link list comes from: a space, one of its pages, or a page of a change request. */
export interface LinkSource {
  /** One page of the list; `status` goes to the service where the operation takes it (the items are filtered here too). */
  fetch(cursor: string | undefined, status: LinkStatus | undefined): Promise<LinkList>;
  /** The pages whose paths the table shows. */
  pages(): Promise<PageRow[]>;
  /** Where the links are, for the failure of --fail-on-broken: `page pg_1`, `space sp_1`. */
  where: string;
  /** The request, for the list's errors: `GET /v1/spaces/sp_1/links`. */
  request: string;
}

/** The links of a space, or of one of its pages. */
export function spaceLinks(api: Api, spaceId: string, pageId?: string): LinkSource {
  const query = (cursor: string | undefined, status: LinkStatus | undefined) => ({
    limit: 1000,
    ...(status ? { status } : {}),
    ...(cursor ? { page: cursor } : {}),
  });
  return {
    fetch: (cursor, status) =>
      pageId
        ? api.call(ops.listSpacePageLinks, { params: { spaceId, pageId }, query: query(cursor, status) })
        : api.call(ops.listSpaceLinks, { params: { spaceId }, query: query(cursor, status) }),
    pages: async () => flattenPages(await listPages(api, spaceId)),
    where: pageId ? `page ${pageId}` : `space ${spaceId}`,
    request: `GET /v1/spaces/${encodeURIComponent(spaceId)}${pageId ? `/content/page/${encodeURIComponent(pageId)}` : ''}/links`,
  };
}

/**
 * The links of `source`, whole; their stats go to stderr (`N links, M broken`), the items to stdout.
 */
export async function listLinks(
  ctx: Context,
  source: LinkSource,
  opts: { status?: LinkStatus; failOnBroken?: boolean },
  print: Print,
): Promise<LinkItem[] | undefined> {
  const { items: all, stats } = await readLinks(await ctx.api(), source.request, (cursor) => source.fetch(cursor, opts.status));
  const items = opts.status ? all.filter((l) => l.status === opts.status) : all;
  ctx.info(`${stats.total} link${stats.total === 1 ? '' : 's'}, ${stats.broken.total} broken${opts.status ? `; showing ${items.length} ${opts.status}` : ''}`);
  const shown = withPathsOf(items, await source.pages());
  if (!opts.failOnBroken) return shown;
  // --fail-on-broken (for CI): the list first, then exit 1 when the space (or page) has a broken link,
  // whatever --status shows.
  await print(shown, { columns: linkColumns });
  const broken = stats.broken.total;
  if (broken > 0) {
    throw new CliError(
      `${broken} broken link${broken === 1 ? '' : 's'} in ${source.where}`,
      EXIT.FAILED,
      opts.status === undefined || opts.status === 'broken' ? undefined : 'they are not in the list shown: see them with --broken',
    );
  }
  return undefined;
}

/** The broken links of a space, whole (page references shown by path in `refText`). */
export async function brokenLinks(api: Api, spaceId: string): Promise<LinkItem[]> {
  const { items } = await readLinks(api, `GET /v1/spaces/${encodeURIComponent(spaceId)}/links`, (page) =>
    api.call(ops.listSpaceLinks, { params: { spaceId }, query: { limit: 1000, status: 'broken', ...(page ? { page } : {}) } }),
  );
  return items;
}

/** A link's target as the tables print it (`/guide/missing`, `https://…`, `file:…`). */
export function targetText(link: LinkItem): string {
  return refText(link.targetReference, pathsOf.get(link));
}

/** Where a link is, as the tables print it (`/guide, /faq`). */
export function locationText(link: LinkItem): string {
  return link.locationReferences.map((r) => refText(r, pathsOf.get(link))).join(', ');
}

/** A whole link list, page after page (through the client's Paginator), with the stats of its first page. */
async function readLinks(
  api: Api,
  name: string,
  fetchPage: (cursor: string | undefined) => Promise<LinkList>,
): Promise<{ items: LinkItem[]; stats: LinkList['stats'] }> {
  let stats: LinkList['stats'] | undefined;
  const pager = api.paginator<LinkItem>(
    async (cursor) => {
      const page = await fetchPage(cursor);
      stats ??= page.stats;
      return page;
    },
    undefined,
    name,
  );
  const items: LinkItem[] = [];
  for await (const page of pager.pages()) items.push(...page);
  return { items, stats: stats! };
}
