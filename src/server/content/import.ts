/**
 * A website import turned into content: pages nested by URL path (a missing level gets an empty
 * page, so paths stay those of the site), files stored, and links rewritten to where their targets
 * landed. A link to a page of the site that was not imported (it failed, or a bound was reached)
 * becomes a link to the path it would have had, so the space's links report it as broken.
 *
 * The import runs in a worker thread of its own (worker/tasks.ts `importSite`): the crawl, every
 * fetch (the fetch policy's checks by name and by address; an injected resolver is asked here),
 * reading and writing the pages, and the files' digests and base64. The thread ends with the
 * import, and at once at its deadline or when its client goes away: whatever the site, the time it
 * takes is bounded by the import's deadline and never holds up the sandbox's other requests. This
 * thread only places the pages (a few µs each), gives the worker the paths they landed at to write
 * their links, and takes the texts back a few at a time (`importTexts`).
 */
import { badRequest } from '../errors.js';
import { rewriteLinks } from './links.js';
import type { ImportResult } from '../lib/html-import.js';
import { slugify } from '../lib/slug.js';
import { newId } from '../ids.js';
import { clientGone, LIMITS } from '../limits.js';
import type { Store } from '../store.js';
import { CpuWorker, TaskStopped } from '../worker/pool.js';
import type { SiteSummary } from '../worker/tasks.js';
import { edit, newPage, putBlob, slugPlacer, storeBlob, type PageRec, type RevisionContent } from './model.js';

/** Bounds of a website import. */
const IMPORT_LIMITS = { maxPages: 50, maxFiles: 50, fetch: { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 } };

/** Where an import goes: the content to build on (asked again after each wait: it may have moved), and how to record it. */
export interface ImportTarget<T> {
  latest(): RevisionContent;
  commit(content: RevisionContent): T;
}

/**
 * Import the website at `url` (its pages and files, within the bounds above and the sandbox's fetch
 * policy) into `target`, for a space or a change request; a site that cannot be read is a 400
 * naming the cause. The import as a whole is bounded too (LIMITS.import): past its deadline, or
 * when its client goes away, it stops and changes nothing; past its number of fetches or bytes,
 * what is left is not fetched (like the bounds on pages and files, the links to it stay, broken).
 * The pages are placed on what `target.latest()` gives right before `target.commit`, in the same turn.
 */
export async function importWebsite<T>(
  store: Store,
  url: string,
  connection: object | undefined,
  target: ImportTarget<T>,
): Promise<{ committed: T; importedResources: number; totalResources: number }> {
  const { deadlineMs, maxFetches, maxBytes } = LIMITS.import;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error(`the import did not finish within ${deadlineMs} ms`)), deadlineMs);
  const client = clientGone(connection);
  client?.signal.addEventListener('abort', () => stop.abort(client.signal.reason), { once: true });
  if (client?.signal.aborted) stop.abort(client.signal.reason);
  const failed = (detail: string) => badRequest(`url: the import failed, nothing was changed: ${detail}`);
  // The import's own thread, ended with it (or at once on a stop: its fetches with it).
  const worker = new CpuWorker();
  stop.signal.addEventListener('abort', () => worker.close(stop.signal.reason as Error), { once: true });
  const { lookup, ...policy } = store.fetchPolicy;
  try {
    const site = await worker.run(
      'importSite',
      {
        url,
        maxPages: IMPORT_LIMITS.maxPages,
        maxFiles: IMPORT_LIMITS.maxFiles,
        fetch: { ...IMPORT_LIMITS.fetch, ...policy },
        budget: {
          fetches: maxFetches,
          bytes: maxBytes,
          fetchesSpent: `the import's limit of ${maxFetches} fetches was reached`,
          bytesSpent: `the import's limit of ${maxBytes} bytes was reached`,
        },
        resolveInParent: lookup !== undefined,
      },
      lookup ? { calls: { lookup: (hostname: string) => lookup(hostname) } } : {},
    );
    // What would be stored: the fetched bytes bound it, but the Markdown is made from them.
    const stored = site.files.reduce((n, f) => n + f.size, 0) + site.pages.reduce((n, p) => n + p.bytes, 0);
    if (stored > maxBytes) throw failed(`the import would store ${stored} bytes, more than its limit of ${maxBytes}`);
    const blobs = await takeTexts(worker, 'blobs', site.files.length);
    const fileIds = site.files.map(() => newId());
    let written: { paths: (string | null)[]; markdown: string[] } | undefined;
    for (;;) {
      // Placed on the latest content; the links written for it unless they were already (the usual case).
      const placed = placeImport(store, target.latest(), site.pages, site.files, fileIds);
      const paths = site.paths.map((p) => placed.paths.get(p) ?? null);
      if (written && paths.every((p, i) => p === written!.paths[i])) {
        const markdown = written.markdown;
        placed.pages.forEach((page, i) => {
          page.markdown = markdown[i];
        });
        site.files.forEach((f, i) => storeBlob(store, f.blob, blobs[i]));
        return { committed: target.commit(placed.next), importedResources: site.importedResources, totalResources: site.totalResources };
      }
      await worker.run('importWrite', { paths, files: fileIds });
      written = { paths, markdown: await takeTexts(worker, 'pages', site.pages.length) };
    }
  } catch (err) {
    if (stop.signal.aborted) throw failed((stop.signal.reason as Error).message);
    // The worker's errors come as their name and message.
    if (err instanceof TaskStopped || (err instanceof Error && err.name === 'FetchError')) throw failed(err.message);
    throw err;
  } finally {
    clearTimeout(timer);
    client?.stop();
    worker.close();
  }
}

/** The `count` texts of the import in `worker`, a few at a time (each answer is copied into this thread: a few ms at most). */
async function takeTexts(worker: CpuWorker, of: 'pages' | 'blobs', count: number): Promise<string[]> {
  const texts: string[] = [];
  while (texts.length < count) texts.push(...(await worker.run('importTexts', { of, from: texts.length })));
  return texts;
}

/** A page or a file of an import, as placing it needs. */
type PlacedPage = Pick<SiteSummary['pages'][number], 'urlPath' | 'title' | 'description'> & { markdown?: string };
type PlacedFile = Omit<SiteSummary['files'][number], 'sourceUrl'>;

/**
 * `content` with the imported pages appended at the top level (parents before children; among
 * equals, the crawl's order) and the files added as `ids`: the new content, each imported page's
 * record (in `pages`' order, to write its Markdown into) and where each URL path landed. Its cost is
 * that of the import and of the top level's slugs, not of the content.
 */
function placeImport(store: Store, content: RevisionContent, pages: readonly PlacedPage[], files: readonly PlacedFile[], ids: readonly string[]) {
  const next = edit(content);
  files.forEach((f, i) => {
    next.files.push({
      id: ids[i],
      name: f.name,
      contentType: f.contentType,
      size: f.size,
      blob: f.blob,
      ...(f.dimensions ? { dimensions: f.dimensions } : {}),
    });
  });
  const depth = (urlPath: string) => (urlPath === '' ? 0 : urlPath.split('/').length);
  const ordered = pages.map((p, i) => ({ p, i })).sort((a, b) => depth(a.p.urlPath) - depth(b.p.urlPath) || a.i - b.i);
  const slug = slugPlacer();
  /** urlPath → the page that stands for it, and where it landed. */
  const placed = new Map<string, { page: PageRec; path: string }>();
  const parentFor = (urlPath: string): { siblings: PageRec[]; path: string } => {
    const cut = urlPath.lastIndexOf('/');
    if (cut < 0) return { siblings: next.pages, path: '' };
    const parentPath = urlPath.slice(0, cut);
    let parent = placed.get(parentPath);
    if (!parent) {
      const segment = parentPath.slice(parentPath.lastIndexOf('/') + 1);
      const above = parentFor(parentPath);
      const page = newPage(store, { title: titleOfSegment(segment), slug: slug(above.siblings, slugify(segment)) });
      above.siblings.push(page);
      parent = { page, path: above.path ? `${above.path}/${page.slug}` : page.slug };
      placed.set(parentPath, parent);
    }
    return { siblings: parent.page.pages, path: parent.path };
  };
  const records: PageRec[] = new Array(pages.length);
  for (const { p, i } of ordered) {
    const above = parentFor(p.urlPath);
    const base = p.urlPath === '' ? slugify(p.title) : slugify(p.urlPath.slice(p.urlPath.lastIndexOf('/') + 1));
    const page = newPage(store, {
      title: p.title.slice(0, 200),
      slug: slug(above.siblings, base),
      markdown: p.markdown ?? '',
      ...(p.description ? { description: p.description } : {}),
    });
    above.siblings.push(page);
    placed.set(p.urlPath, { page, path: above.path ? `${above.path}/${page.slug}` : page.slug });
    records[i] = page;
  }
  return { next, pages: records, paths: new Map([...placed].map(([urlPath, { path }]) => [urlPath, path])) };
}

/** New content: `content` with the imported pages of `result` (read in this thread) appended at the top level and the files added. */
export function applyImport(store: Store, content: RevisionContent, result: ImportResult): RevisionContent {
  const files = result.files.map((f) => ({ ...f, blob: putBlob(store, f.data) }));
  const fileIds = new Map(result.files.map((f) => [f.key, newId()]));
  const { next, pages, paths: finalPath } = placeImport(store, content, result.pages, files, [...fileIds.values()]);
  const { tokens } = result;
  if (tokens) {
    // Written by the import with tokens for what placing decides (html-page.ts LinkTargets): one pass, no parse.
    const token = new RegExp(`${tokens.nonce}-([pf])(\\d+)`, 'g');
    const place = (_: string, kind: string, i: string) => (kind === 'p' ? finalPath.get(tokens.paths[Number(i)]) : fileIds.get(tokens.files[Number(i)])) ?? _;
    for (const page of pages) page.markdown = page.markdown.replace(token, place);
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
  for (const page of pages) page.markdown = rewriteLinks(page.markdown, rewrite);
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
