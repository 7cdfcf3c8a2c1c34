/**
 * A website import turned into content: pages nested by URL path (a missing level gets an empty
 * page, so paths stay those of the site), files stored, and links rewritten to where their targets
 * landed. A link to a page of the site that was not imported (it failed, or a bound was reached)
 * becomes a link to the path it would have had, so the space's links report it as broken.
 *
 * The pages are read and written in a worker thread of the import's own (worker/pool.ts), ended
 * with the import: the time reading takes is bounded by the import's deadline, whatever the page,
 * and never holds up the sandbox's other requests. Their links come back as tokens that placing
 * the pages replaces (no Markdown is read again here).
 */
import { badRequest } from '../errors.js';
import { FetchError, type FetchBudget } from '../lib/fetch.js';
import { importWebsite, type ImportResult, type PageReader } from '../lib/html-import.js';
import { slugify } from '../lib/slug.js';
import { newId } from '../ids.js';
import { clientGone, LIMITS } from '../limits.js';
import type { Store } from '../store.js';
import { CpuWorker } from '../worker/pool.js';
import { rewriteLinks } from './links.js';
import { edit, newPage, putBlob, uniqueSlug, walkPages, type PageRec, type RevisionContent } from './model.js';

/** Bounds of a website import. */
const IMPORT_LIMITS = { maxPages: 50, maxFiles: 50, fetch: { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 } };

/**
 * Read the website at `url` (its pages and files, within the bounds above and the sandbox's fetch
 * policy), for a space or a change request; a site that cannot be read is a 400 naming the cause.
 * The import as a whole is bounded too (LIMITS.import): past its deadline, or when its client goes
 * away, it stops and changes nothing; past its number of fetches or bytes, what is left is not
 * fetched (like the bounds on pages and files, the links to it stay, broken).
 */
export async function readWebsite(store: Store, url: string, connection?: object): Promise<ImportResult> {
  const { deadlineMs, maxFetches, maxBytes } = LIMITS.import;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error(`the import did not finish within ${deadlineMs} ms`)), deadlineMs);
  const client = clientGone(connection);
  client?.signal.addEventListener('abort', () => stop.abort(client.signal.reason), { once: true });
  if (client?.signal.aborted) stop.abort(client.signal.reason);
  const budget: FetchBudget = {
    fetchesLeft: maxFetches,
    bytesLeft: maxBytes,
    signal: stop.signal,
    fetchesSpent: `the import's limit of ${maxFetches} fetches was reached`,
    bytesSpent: `the import's limit of ${maxBytes} bytes was reached`,
  };
  const failed = (detail: string) => badRequest(`url: the import failed, nothing was changed: ${detail}`);
  // The import's own thread, started with its first page and ended with it (or at once on a stop).
  const worker = new CpuWorker();
  stop.signal.addEventListener('abort', () => worker.close(stop.signal.reason as Error), { once: true });
  const reader: PageReader = {
    read: (input) => worker.run('readPage', input),
    write: (id, targets) => worker.run('writePage', { id, targets }),
  };
  try {
    const result = await importWebsite(url, { ...IMPORT_LIMITS, fetch: { ...IMPORT_LIMITS.fetch, ...store.fetchPolicy, budget }, reader, tokens: true });
    if (stop.signal.aborted) throw failed((stop.signal.reason as Error).message);
    // What would be stored: the fetched bytes bound it, but the Markdown is made here.
    const stored = result.files.reduce((n, f) => n + f.size, 0) + result.pages.reduce((n, p) => n + Buffer.byteLength(p.markdown), 0);
    if (stored > maxBytes) throw failed(`the import would store ${stored} bytes, more than its limit of ${maxBytes}`);
    return result;
  } catch (err) {
    if (stop.signal.aborted) throw failed((stop.signal.reason as Error).message);
    if (err instanceof FetchError) throw failed(err.message);
    throw err;
  } finally {
    clearTimeout(timer);
    client?.stop();
    worker.close();
  }
}

/** New content: `content` with the imported pages appended at the top level and the files added. */
export function applyImport(store: Store, content: RevisionContent, result: ImportResult): RevisionContent {
  const next = edit(content);
  const fileIds = new Map<string, string>();
  for (const f of result.files) {
    const id = newId();
    fileIds.set(f.key, id);
    next.files.push({
      id,
      name: f.name,
      contentType: f.contentType,
      size: f.size,
      blob: putBlob(store, f.data),
      ...(f.dimensions ? { dimensions: f.dimensions } : {}),
    });
  }

  // Parents before children; among equals, the crawl's order.
  const depth = (urlPath: string) => (urlPath === '' ? 0 : urlPath.split('/').length);
  const ordered = result.pages.map((p, i) => ({ p, i })).sort((a, b) => depth(a.p.urlPath) - depth(b.p.urlPath) || a.i - b.i);
  /** urlPath → the page that stands for it. */
  const placed = new Map<string, PageRec>();
  const parentFor = (urlPath: string): PageRec[] => {
    const cut = urlPath.lastIndexOf('/');
    if (cut < 0) return next.pages;
    const parentPath = urlPath.slice(0, cut);
    let parent = placed.get(parentPath);
    if (!parent) {
      const segment = parentPath.slice(parentPath.lastIndexOf('/') + 1);
      const siblings = parentFor(parentPath);
      parent = newPage(store, { title: titleOfSegment(segment), slug: uniqueSlug(siblings, slugify(segment)) });
      siblings.push(parent);
      placed.set(parentPath, parent);
    }
    return parent.pages;
  };
  for (const { p } of ordered) {
    const siblings = parentFor(p.urlPath);
    const base = p.urlPath === '' ? slugify(p.title) : slugify(p.urlPath.slice(p.urlPath.lastIndexOf('/') + 1));
    const page = newPage(store, {
      title: p.title.slice(0, 200),
      slug: uniqueSlug(siblings, base),
      markdown: p.markdown,
      ...(p.description ? { description: p.description } : {}),
    });
    siblings.push(page);
    placed.set(p.urlPath, page);
  }

  // Where each URL path landed, then every imported page's links rewritten accordingly.
  const finalPath = new Map<string, string>();
  const pathOf = new Map([...walkPages(next.pages)].map((e) => [e.page, e.path]));
  for (const [urlPath, page] of placed) finalPath.set(urlPath, pathOf.get(page)!);
  const { tokens } = result;
  if (tokens) {
    // Written by the import with tokens for what placing decides (html-page.ts LinkTargets): one pass, no parse.
    const token = new RegExp(`${tokens.nonce}-([pf])(\\d+)`, 'g');
    const place = (_: string, kind: string, i: string) => (kind === 'p' ? finalPath.get(tokens.paths[Number(i)]) : fileIds.get(tokens.files[Number(i)])) ?? _;
    for (const { p } of ordered) {
      const page = placed.get(p.urlPath)!;
      page.markdown = page.markdown.replace(token, place);
    }
    return next;
  }
  const origin = result.pages[0] ? new URL(result.pages[0].sourceUrl).origin : undefined;
  const rewrite = (href: string): string | undefined => {
    if (href.startsWith('file:')) {
      const id = fileIds.get(href.slice(5));
      return id && `file:${id}`;
    }
    let path: string;
    let hash = '';
    if (href.startsWith('/') && !href.startsWith('//')) {
      const cut = href.indexOf('#');
      path = (cut < 0 ? href : href.slice(0, cut)).slice(1);
      hash = cut < 0 ? '' : href.slice(cut);
    } else {
      const url = sameOrigin(href, origin);
      if (!url) return undefined;
      path = sitePath(url.pathname);
      hash = url.hash;
    }
    return `/${finalPath.get(path) ?? path}${hash}`;
  };
  for (const { p } of ordered) {
    const page = placed.get(p.urlPath)!;
    page.markdown = rewriteLinks(page.markdown, rewrite);
  }
  return next;
}

function sameOrigin(href: string, origin: string | undefined): URL | undefined {
  if (!origin || !/^https?:/i.test(href)) return undefined;
  try {
    const url = new URL(href);
    return url.origin === origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A site's URL path as the importer names pages: no slashes around, no `.html`, no trailing `index`. */
function sitePath(pathname: string): string {
  return pathname
    .replace(/^\/+/, '')
    .replace(/\.html?$/i, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\/+$/, '');
}

function titleOfSegment(segment: string): string {
  const words = segment.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Untitled';
}
