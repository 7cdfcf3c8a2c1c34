/**
 * Link and backlink lists as the content commands print them: page references shown by path
 * (read from the space's pages), JSON left as the service's own items.
 */
import type { Api } from '../../client/api.js';
import type { Context } from '../../cli/context.js';
import type { CommonFlags } from '../../cli/command.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { render, type Column } from '../../cli/output.js';
import { ops, type Backlink, type ContentRef, type LinkItem, type LinkList } from '../../contract/content.js';
import { flattenPages, listPages } from './lookup.js';

type LinkStatus = LinkItem['status'];

/** Page id → path, per item printed (the items themselves stay the service's objects). */
const pathsOf = new WeakMap<object, Map<string, string>>();

function refText(ref: ContentRef, paths: Map<string, string> | undefined): string {
  const page = ref.page !== undefined ? `/${paths?.get(ref.page) ?? ref.page}` : undefined;
  switch (ref.kind) {
    case 'page':
      return page ?? '';
    case 'anchor':
      return `${page ?? ''}#${ref.anchor ?? ''}`;
    case 'file':
      return `file:${ref.file ?? ''}`;
    default:
      return ref.url ?? JSON.stringify(ref);
  }
}

export const linkColumns: Column<LinkItem>[] = [
  'status',
  { key: 'target', value: (l) => refText(l.targetReference, pathsOf.get(l)) },
  { key: 'from', value: (l) => l.locationReferences.map((r) => refText(r, pathsOf.get(l))).join(', ') },
];

export const backlinkColumns: Column<Backlink>[] = [
  { key: 'from', value: (b) => refText({ kind: b.page !== undefined ? 'page' : b.kind, page: b.page, file: b.file }, pathsOf.get(b)) },
  'kind', 'page', 'space',
  { key: 'revision', value: (b) => b.versionContext.revision },
];

/** Remember page paths for the columns above. */
export async function withPaths<T extends object>(api: Api, spaceId: string, items: T[]): Promise<T[]> {
  const paths = new Map(flattenPages(await listPages(api, spaceId)).map((p) => [p.id, p.path]));
  for (const item of items) pathsOf.set(item, paths);
  return items;
}

/**
 * The links of a space, or of one of its pages, whole; their stats go to stderr
 * (`N links, M broken`), the items to stdout.
 */
export async function listLinks(ctx: Context, spaceId: string, opts: { pageId?: string; status?: LinkStatus; failOnBroken?: boolean }, flags: CommonFlags = {}): Promise<LinkItem[] | undefined> {
  const api = await ctx.api();
  const query = (page: string | undefined) => ({ limit: 1000, ...(opts.status ? { status: opts.status } : {}), ...(page ? { page } : {}) });
  const where = `/v1/spaces/${encodeURIComponent(spaceId)}${opts.pageId ? `/content/page/${encodeURIComponent(opts.pageId)}` : ''}/links`;
  const { items, stats } = await readLinks(api, `GET ${where}`, (page) =>
    opts.pageId
      ? api.call(ops.listSpacePageLinks, { params: { spaceId, pageId: opts.pageId }, query: query(page) })
      : api.call(ops.listSpaceLinks, { params: { spaceId }, query: query(page) }),
  );
  ctx.info(`${stats.total} link${stats.total === 1 ? '' : 's'}, ${stats.broken.total} broken${opts.status ? `; showing ${items.length} ${opts.status}` : ''}`);
  const shown = await withPaths(api, spaceId, items);
  if (!opts.failOnBroken) return shown;
  // --fail-on-broken (for CI): the list first, then exit 1 when the space (or page) has a broken link,
  // whatever --status shows.
  const jq = flags.jq === undefined ? undefined : await (await import('../../cli/jq.js')).compileJq(ctx, flags.jq);
  await render(ctx, shown, { columns: linkColumns }, { ...flags, ...(jq ? { json: true, jqProgram: jq } : {}) });
  const broken = stats.broken.total;
  if (broken > 0) {
    throw new CliError(`${broken} broken link${broken === 1 ? '' : 's'}${opts.pageId ? ` in page ${opts.pageId}` : ` in space ${spaceId}`}`, EXIT.FAILED,
      opts.status === undefined || opts.status === 'broken' ? undefined : 'they are not in the list shown: see them with --broken');
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
async function readLinks(api: Api, name: string, fetchPage: (cursor: string | undefined) => Promise<LinkList>): Promise<{ items: LinkItem[]; stats: LinkList['stats'] }> {
  let stats: LinkList['stats'] | undefined;
  const pager = api.paginator<LinkItem>(async (cursor) => {
    const page = await fetchPage(cursor);
    stats ??= page.stats;
    return page;
  }, undefined, name);
  const items: LinkItem[] = [];
  for await (const page of pager.pages()) items.push(...page);
  return { items, stats: stats! };
}
