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
 */
import type { Backlink, ContentRef, LinkItem, LinkList } from '../../contract/content.js';
import { extractLinks } from '../lib/markdown.js';
import { paginate } from '../paginate.js';
import { findFile, findPageByPath, walkPages, type PageRec, type RevisionContent } from './model.js';
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

function rawLinks(content: RevisionContent): RawLink[] {
  let links = extracted.get(content);
  if (!links) {
    links = [];
    for (const { page, path } of walkPages(content.pages)) {
      for (const l of extractLinks(pageMarkdown(content, page) ?? '')) {
        links.push({ from: page, fromPath: path, href: l.href.trim(), text: l.text, image: l.image === true });
      }
    }
    extracted.set(content, links);
  }
  return links;
}

/** Every link of the revision, in page order, classified. */
export function linksOf(content: RevisionContent, baseUrl: string): LinkOccurrence[] {
  return rawLinks(content)
    .filter((l) => l.href !== '')
    .map((l) => ({ from: l.from, href: l.href, text: l.text, image: l.image, ...classify(content, l.from, l.fromPath, l.href, baseUrl) }));
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function classify(content: RevisionContent, from: PageRec, fromPath: string, href: string, baseUrl: string): { status: LinkStatus; target: ContentRef } {
  if (href.startsWith('#')) return { status: 'ok', target: { kind: 'anchor', page: from.id, anchor: decode(href.slice(1)) } };
  if (/^file:/i.test(href)) {
    const file = href.slice(5);
    return { status: findFile(content, file) ? 'ok' : 'broken', target: { kind: 'file', file } };
  }
  if (SCHEME.test(href) || href.startsWith('//')) {
    const url = parse(href, baseUrl);
    const inApp = url !== null && url.origin === new URL(baseUrl).origin && url.pathname.startsWith('/app/');
    return { status: inApp ? 'in-app' : 'ok', target: { kind: 'url', url: href } };
  }
  const gitPath = from.pages.length > 0 ? `${fromPath}/README.md` : `${fromPath}.md`;
  const url = parse(href, `http://content.invalid/${gitPath}`);
  if (!url) return { status: 'broken', target: { kind: 'url', url: href } };
  const path = decode(url.pathname).replace(/^\/+|\/+$/g, '').replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '');
  const page = findPageByPath(content, path)?.page;
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
  const items = new Map<string, LinkItem>();
  for (const l of links) {
    const key = targetKey(l.target);
    let item = items.get(key);
    if (!item) {
      const target = l.target.page ? { ...l.target, space: scope.space } : l.target;
      item = { status: l.status, relation: 'reference', targetReference: target, locationReferences: [] };
      items.set(key, item);
    }
    if (!item.locationReferences.some((r) => r.page === l.from.id)) {
      item.locationReferences.push({ kind: 'page', page: l.from.id, space: scope.space });
    }
  }
  return [...items.values()];
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
    const hit = 'page' in target
      ? l.status === 'ok' && l.target.page === target.page && l.from.id !== target.page
      : l.target.kind === 'file' && l.target.file === target.file;
    if (!hit || seen.has(l.from.id)) continue;
    seen.add(l.from.id);
    out.push({
      kind: 'page', organization: scope.org, space: scope.space,
      versionContext: { type: 'revision', revision: scope.rev.id }, page: l.from.id,
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
    const text = form === 'destination' ? writeDestination(to)
      : /^[a-z][a-z0-9+.-]*:[^\s<>]*$/i.test(to) ? `<${to}>` : `[${link.text.replace(/[\\[\]]/g, '\\$&')}](${writeDestination(to)})`;
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
