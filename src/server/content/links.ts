/**
 * Links found in the pages' Markdown, each classified against the revision it is in:
 * - `/a/b` or a relative path: a page, `ok` when a page has that path, else `broken`; a `#fragment`
 *   makes it an anchor in that page. Relative paths resolve from the page's file in a git
 *   checkout (`a/b.md`, or `a/b/README.md` for a page with subpages, as `git.path` says), and
 *   `.md` and `README.md` endings are dropped: from `guide` (with subpages) `install` is
 *   `guide/install`; from `guide/install`, `quickstart` is `guide/quickstart` and `./` is `guide`;
 * - `#fragment` alone: an anchor in the same page, `ok`;
 * - `file:<id>`: a file, `ok` when the revision holds it, else `broken`;
 * - an absolute URL to an app page of this sandbox (`<base>/app/...`): `in-app`;
 * - any other absolute URL: external, `ok` (the sandbox never fetches it to check).
 * A link item gathers every place a target is linked from.
 *
 * Listing a revision's links reads every page's Markdown and classifies every link: requests do it
 * in slices (`linksInSlices`), each page read as markdown-reads.ts reads it (a costly page in the
 * worker thread), so that a space of thousands of pages does not hold up other requests.
 */
import type { Backlink, ContentRef, LinkItem, LinkList } from '../../contract/content.js';
import { extractLinks, type ExtractedLink } from '../lib/markdown.js';
import { readMarkdown } from '../markdown-reads.js';
import { paginate } from '../paginate.js';
import { runAtOnce, runInSlices, type Steps } from '../slices.js';
import { findFile, findPageByPath, walkPages, type FileRec, type PageEntry, type PageRec, type RevisionContent } from './model.js';
import { pageMarkdown, type ContentScope } from './views.js';

export type LinkStatus = LinkItem['status'];

export interface LinkOccurrence {
  /** The page the link is in. */
  from: PageRec;
  href: string;
  text: string;
  image: boolean;
  status: LinkStatus;
  target: ContentRef;
}

interface RawLink {
  from: PageRec;
  fromPath: string;
  href: string;
  text: string;
  image: boolean;
}

/** Extracted links per content (content is immutable, so this never goes stale). */
const extracted = new WeakMap<RevisionContent, RawLink[]>();
/** The same, read in slices (the reads under way too: a second listing waits for the first). */
const extractedInSlices = new WeakMap<RevisionContent, Promise<RawLink[]>>();

/** Each page's links, asking for them by the page's Markdown (`yield markdown`), in page order. */
function* rawLinkSteps(content: RevisionContent): Steps<string, ExtractedLink[], RawLink[]> {
  const links: RawLink[] = [];
  for (const { page, path } of walkPages(content.pages)) {
    for (const l of yield pageMarkdown(content, page) ?? '') {
      links.push({ from: page, fromPath: path, href: l.href.trim(), text: l.text, image: l.image === true });
    }
  }
  return links;
}

/** The links classified, pausing between them. */
function* classifySteps(content: RevisionContent, raw: readonly RawLink[], baseUrl: string): Steps<void, void, LinkOccurrence[]> {
  const where = indexOf(content);
  const out: LinkOccurrence[] = [];
  for (const l of raw) {
    if (l.href === '') continue;
    out.push({ from: l.from, href: l.href, text: l.text, image: l.image, ...classifyIn(where, l.from, l.fromPath, l.href, baseUrl) });
    yield;
  }
  return out;
}

/** Every link of the revision, in page order, classified. */
export function linksOf(content: RevisionContent, baseUrl: string): LinkOccurrence[] {
  let raw = extracted.get(content);
  if (!raw) extracted.set(content, (raw = runAtOnce(rawLinkSteps(content), (markdown) => extractLinks(markdown, { written: false }))));
  return runAtOnce(classifySteps(content, raw, baseUrl), () => undefined);
}

/** `linksOf`, for a request: in slices, each page's Markdown read within the sandbox's bounds (markdown-reads.ts). */
export async function linksInSlices(content: RevisionContent, baseUrl: string): Promise<LinkOccurrence[]> {
  let raw = extractedInSlices.get(content);
  if (!raw) {
    raw = runInSlices(rawLinkSteps(content), (markdown) => readMarkdown(markdown, 'links'));
    extractedInSlices.set(content, raw);
    raw.catch(() => extractedInSlices.delete(content));
  }
  return runInSlices(classifySteps(content, await raw, baseUrl), () => undefined);
}

/** Pages by path and files by id, for classifying links (a revision's pages are many: not walked once a link). */
interface ContentIndex {
  content: RevisionContent;
  pages: Map<string, PageEntry>;
  files: Map<string, FileRec>;
}

function indexOf(content: RevisionContent): ContentIndex {
  const pages = new Map<string, PageEntry>();
  // The first page with a path is the one found (findPageByPath).
  for (const entry of walkPages(content.pages)) if (!pages.has(entry.path)) pages.set(entry.path, entry);
  const files = new Map<string, FileRec>();
  for (const f of content.files) if (!files.has(f.id)) files.set(f.id, f);
  return { content, pages, files };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function classify(content: RevisionContent, from: PageRec, fromPath: string, href: string, baseUrl: string): { status: LinkStatus; target: ContentRef } {
  return classifyIn({ content }, from, fromPath, href, baseUrl);
}

/** `classify`, with the pages and files indexed (else looked for in the content). */
function classifyIn(
  where: Pick<ContentIndex, 'content'> & Partial<ContentIndex>,
  from: PageRec,
  fromPath: string,
  href: string,
  baseUrl: string,
): { status: LinkStatus; target: ContentRef } {
  const { content } = where;
  if (href.startsWith('#')) return { status: 'ok', target: { kind: 'anchor', page: from.id, anchor: decode(href.slice(1)) } };
  if (/^file:/i.test(href)) {
    const file = href.slice(5);
    return { status: (where.files ? where.files.get(file) : findFile(content, file)) ? 'ok' : 'broken', target: { kind: 'file', file } };
  }
  if (SCHEME.test(href) || href.startsWith('//')) {
    const url = parse(href, baseUrl);
    const inApp = url !== null && url.origin === new URL(baseUrl).origin && url.pathname.startsWith('/app/');
    return { status: inApp ? 'in-app' : 'ok', target: { kind: 'url', url: href } };
  }
  const gitPath = from.pages.length > 0 ? `${fromPath}/README.md` : `${fromPath}.md`;
  const url = parse(href, `http://content.invalid/${gitPath}`);
  if (!url) return { status: 'broken', target: { kind: 'url', url: href } };
  const path = decode(url.pathname)
    .replace(/^\/+|\/+$/g, '')
    .replace(/(^|\/)README\.md$/i, '')
    .replace(/\.md$/i, '');
  const page = (where.pages ? where.pages.get(path) : findPageByPath(content, path))?.page;
  if (!page) return { status: 'broken', target: { kind: 'url', url: href } };
  const anchor = decode(url.hash.slice(1));
  return { status: 'ok', target: anchor ? { kind: 'anchor', page: page.id, anchor } : { kind: 'page', page: page.id } };
}

function parse(href: string, base: string): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const targetKey = (t: ContentRef) => `${t.kind}:${t.page ?? ''}:${t.file ?? ''}:${t.anchor ?? ''}:${t.url ?? ''}`;

/** One item per distinct target, with every page linking to it, in order of first appearance. */
export function linkItems(scope: ContentScope, links: LinkOccurrence[]): LinkItem[] {
  return runAtOnce(linkItemSteps(scope, links), () => undefined);
}

/** `linkItems` in slices, for a request. */
export function linkItemsInSlices(scope: ContentScope, links: LinkOccurrence[]): Promise<LinkItem[]> {
  return runInSlices(linkItemSteps(scope, links), () => undefined);
}

function* linkItemSteps(scope: ContentScope, links: LinkOccurrence[]): Steps<void, void, LinkItem[]> {
  const items = new Map<string, { item: LinkItem; from: Set<string> }>();
  for (const l of links) {
    yield;
    const key = targetKey(l.target);
    let entry = items.get(key);
    if (!entry) {
      const target = l.target.page ? { ...l.target, space: scope.space } : l.target;
      entry = { item: { status: l.status, relation: 'reference', targetReference: target, locationReferences: [] }, from: new Set() };
      items.set(key, entry);
    }
    if (!entry.from.has(l.from.id)) {
      entry.from.add(l.from.id);
      entry.item.locationReferences.push({ kind: 'page', page: l.from.id, space: scope.space });
    }
  }
  return [...items.values()].map((e) => e.item);
}

/**
 * The link list envelope: `stats` count every item of the list (whatever `status` filters);
 * `changeRequestBroken` is what `stats.broken.changeRequest` reports.
 */
export function linkList(
  items: LinkItem[],
  query: { page?: string; limit?: number; status?: LinkStatus },
  scopeKey: string,
  changeRequestBroken = 0,
): LinkList {
  const stats = {
    total: items.length,
    broken: { total: items.filter((i) => i.status === 'broken').length, changeRequest: changeRequestBroken },
  };
  const shown = query.status ? items.filter((i) => i.status === query.status) : items;
  return { ...paginate(shown, query, targetKeyOfItem, scopeKey), stats };
}

const targetKeyOfItem = (item: LinkItem) => targetKey(item.targetReference);

/** Pages linking to a page (anchors into it included, its own anchors not) or to a file. */
export function backlinks(scope: ContentScope, links: LinkOccurrence[], target: { page: string } | { file: string }): Backlink[] {
  const out: Backlink[] = [];
  const seen = new Set<string>();
  for (const l of links) {
    const hit =
      'page' in target
        ? l.status === 'ok' && l.target.page === target.page && l.from.id !== target.page
        : l.target.kind === 'file' && l.target.file === target.file;
    if (!hit || seen.has(l.from.id)) continue;
    seen.add(l.from.id);
    out.push({
      kind: 'page',
      organization: scope.org,
      space: scope.space,
      versionContext: { type: 'revision', revision: scope.rev.id },
      page: l.from.id,
    });
  }
  return out;
}

/**
 * Replace link destinations in Markdown, the rest of the source untouched. `fn` answers the new
 * destination, or undefined to keep the link as it is. A reference link's destination is its
 * definition's (rewritten once); an autolink to something that is not an absolute URL becomes a link.
 */
export function rewriteLinks(markdown: string, fn: (href: string) => string | undefined): string {
  const edits = new Map<number, { end: number; text: string }>();
  for (const link of extractLinks(markdown)) {
    const to = fn(link.href);
    if (to === undefined || to === link.href || !link.written) continue;
    const { start, end, form } = link.written;
    const text =
      form === 'destination'
        ? writeDestination(to)
        : /^[a-z][a-z0-9+.-]*:[^\s<>]*$/i.test(to)
          ? `<${to}>`
          : `[${link.text.replace(/[\\[\]]/g, '\\$&')}](${writeDestination(to)})`;
    edits.set(start, { end, text });
  }
  // In order, in one pass (not the text rebuilt once per link).
  const parts: string[] = [];
  let at = 0;
  for (const [start, { end, text }] of [...edits].sort((a, b) => a[0] - b[0])) {
    parts.push(markdown.slice(at, start), text);
    at = end;
  }
  parts.push(markdown.slice(at));
  return parts.join('');
}

function writeDestination(destination: string): string {
  return destination.replace(/\s/g, encodeURIComponent).replace(/[()<>]/g, '\\$&');
}
