/**
 * Import a small website as documentation pages: crawl same-origin links breadth-first
 * from a start URL, convert each HTML page to Markdown, and collect the images and
 * downloadable files the pages reference.
 *
 * The result is flat: every page carries its `urlPath` and the caller nests pages by
 * path. Links between imported pages are rewritten to `/<urlPath>`, references to
 * imported files to `file:<key>`; every other link is kept absolute, so a link to a
 * page that could not be fetched stays visibly broken (or, with `tokens`, written for the
 * caller to place: see html-page.ts LinkTargets).
 *
 * The crawl is here; reading and writing a page (CPU work as long as the page) is html-page.ts. The
 * sandbox runs the whole of it in a worker thread of the import's own (worker/tasks.ts `importSite`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { FetchError, safeFetch, type FetchResult, type SafeFetchOptions } from './fetch.js';
import { lastSegment, readPage, resourceKey, writePage, type LinkTargets, type ReadPage } from './html-page.js';
import { MarkdownTooDeep } from './markdown.js';

export interface ImportWebsiteOptions {
  /** Largest number of HTML pages imported (the start page included). Default 50. */
  maxPages?: number;
  /** Largest number of files (images, downloads) imported. Default 50. */
  maxFiles?: number;
  /** Bounds applied to every single fetch. */
  fetch?: SafeFetchOptions;
  /** Write links to imported pages and files as tokens, for the caller to place (`ImportResult.tokens`). */
  tokens?: boolean;
}

interface ImportedPage {
  /** Final URL the page was read from (after redirects, without fragment). */
  sourceUrl: string;
  /** Pathname without leading/trailing slash, `.html` or trailing `index`; '' for the root. */
  urlPath: string;
  title: string;
  description?: string;
  markdown: string;
}

interface ImportedFile {
  /** Stable short id derived from the URL; pages reference the file as `file:<key>`. */
  key: string;
  sourceUrl: string;
  name: string;
  contentType: string;
  size: number;
  data: Buffer;
  dimensions?: { width: number; height: number };
}

export interface ImportResult {
  pages: ImportedPage[];
  files: ImportedFile[];
  /** pages.length + files.length */
  importedResources: number;
  /** Distinct same-origin resources discovered: imported, failed and skipped because of the bounds. */
  totalResources: number;
  /** With `opts.tokens`: what the tokens in the pages' links stand for (see html-page.ts LinkTargets). */
  tokens?: { nonce: string; paths: string[]; files: string[] };
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

type Hint = 'page' | 'file';

/** A same-origin URL discovered while crawling, and what became of it. */
interface Resource {
  /** Dedup key, see html-page.ts resourceKey. */
  key: string;
  /** URL as first discovered. */
  url: string;
  /** Which bound (maxPages or maxFiles) must have room before it is fetched. */
  hint: Hint;
  /** Discovered through an `<a href>`: only such resources may become pages. */
  linked: boolean;
  state: 'queued' | 'page' | 'file' | 'failed' | 'skipped';
  urlPath?: string;
  fileKey?: string;
}

/** A page read, kept until every resource is known and links can be written. */
type CrawledPage = ReadPage;

export async function importWebsite(startUrl: string, opts: ImportWebsiteOptions = {}): Promise<ImportResult> {
  const maxPages = Math.max(1, opts.maxPages ?? 50);
  const maxFiles = Math.max(0, opts.maxFiles ?? 50);
  const fetchPage = { ...opts.fetch, accept: opts.fetch?.accept ?? HTML_ACCEPT };
  const fetchFile = { ...opts.fetch, accept: opts.fetch?.accept ?? '*/*' };

  // The start page is fetched first and its failures propagate unchanged.
  const start = await safeFetch(startUrl, fetchPage);
  if (!isHtml(start.contentType)) {
    throw new FetchError('FETCH_ERROR', `fetching ${startUrl}: not an HTML page (content type ${start.contentType || 'unknown'})`);
  }
  // The site is whatever origin the start URL ended up on (e.g. after an http -> https redirect).
  const origin = new URL(start.url).origin;

  /** Every key ever seen -> its resource. A redirect can make several keys share one resource. */
  const byKey = new Map<string, Resource>();
  const queue: Resource[] = [];
  const crawled: CrawledPage[] = [];
  const files: ImportedFile[] = [];

  /** Record a successful fetch of `resource` as a page or a file, within the bounds. */
  const accept = (resource: Resource, res: FetchResult): void => {
    const finalUrl = new URL(res.url);
    finalUrl.hash = '';
    if (finalUrl.origin !== origin) {
      // A redirect off the site: other origins are not imported.
      resource.state = 'failed';
      return;
    }
    const finalKey = resourceKey(finalUrl);
    if (finalKey !== resource.key) {
      const known = byKey.get(finalKey);
      if (known && (known.state === 'page' || known.state === 'file')) {
        // Redirected to something already imported: this URL is just another name for it.
        byKey.set(resource.key, known);
        return;
      }
      // This resource now stands for the final URL too; a queued duplicate is superseded.
      byKey.set(finalKey, resource);
    }

    if (isHtml(res.contentType)) {
      if (!resource.linked)
        resource.state = 'failed'; // an <img> answered with a web page
      else if (crawled.length >= maxPages) resource.state = 'skipped';
      else {
        const read = readPage({ body: res.body, contentType: res.contentType, url: finalUrl.href, origin });
        if (read instanceof MarkdownTooDeep) {
          // A page nested too deeply is not imported (the start page fails the import).
          if (resource === startResource) throw new FetchError('FETCH_ERROR', `reading ${finalUrl.href}: the page ${read.message}`);
          resource.state = 'failed';
          return;
        }
        resource.state = 'page';
        resource.urlPath = read.summary.urlPath;
        crawled.push(read);
        // Discovery covers the stripped parts too (nav is where a site's structure lives).
        for (const ref of read.summary.references) {
          const known = byKey.get(ref.key);
          if (known) {
            if (ref.via === 'link') known.linked = true;
            continue;
          }
          const hint: Hint = ref.via === 'link' && ref.pageLike ? 'page' : 'file';
          const discovered: Resource = { key: ref.key, url: ref.url, hint, linked: ref.via === 'link', state: 'queued' };
          byKey.set(ref.key, discovered);
          queue.push(discovered);
        }
      }
    } else if (files.length >= maxFiles) {
      resource.state = 'skipped';
    } else {
      const file = toFile(res, finalUrl, finalKey);
      resource.state = 'file';
      resource.fileKey = file.key;
      files.push(file);
    }
  };

  const startResource: Resource = {
    key: resourceKey(new URL(startUrl)),
    url: startUrl,
    hint: 'page',
    linked: true,
    state: 'queued',
  };
  byKey.set(startResource.key, startResource);
  accept(startResource, start);

  for (let next = 0; next < queue.length; next++) {
    const resource = queue[next];
    if (byKey.get(resource.key) !== resource) continue; // superseded by a redirect to the same place
    const full = resource.hint === 'page' ? crawled.length >= maxPages : files.length >= maxFiles;
    if (full) {
      resource.state = 'skipped';
      continue;
    }
    let res: FetchResult;
    try {
      res = await safeFetch(resource.url, resource.hint === 'page' ? fetchPage : fetchFile);
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      resource.state = 'failed';
      continue;
    }
    accept(resource, res);
  }

  // Where links go: the imported pages and files by every key that names them.
  const targets: LinkTargets = { origin, pages: [], files: [] };
  for (const [key, r] of byKey) {
    if (r.state === 'page') targets.pages.push([key, r.urlPath!]);
    else if (r.state === 'file') targets.files.push([key, r.fileKey!]);
  }
  if (opts.tokens) {
    // Every path a page will stand at once placed: the pages', and the levels above them (content/import.ts).
    const paths = new Set<string>();
    for (const { summary } of crawled) {
      paths.add(summary.urlPath);
      for (let cut = summary.urlPath.lastIndexOf('/'); cut > 0; cut = summary.urlPath.lastIndexOf('/', cut - 1)) paths.add(summary.urlPath.slice(0, cut));
    }
    targets.tokens = { nonce: `x${randomBytes(8).toString('hex')}`, paths: [...paths], files: files.map((f) => f.key) };
  }
  const pages: ImportedPage[] = [];
  for (const read of crawled) {
    const { references: _references, ...page } = read.summary;
    pages.push({ ...page, markdown: writePage(read, targets) });
  }
  return {
    pages,
    files,
    importedResources: pages.length + files.length,
    totalResources: new Set(byKey.values()).size,
    ...(targets.tokens ? { tokens: targets.tokens } : {}),
  };
}

// ---------------------------------------------------------------------------
// Pages and files

function isHtml(contentType: string): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType);
}

function toFile(res: FetchResult, url: URL, key: string): ImportedFile {
  const file: ImportedFile = {
    key: `f${createHash('sha1').update(key).digest('hex').slice(0, 12)}`,
    sourceUrl: url.href,
    name: lastSegment(url.pathname) || 'file',
    contentType: res.contentType || 'application/octet-stream',
    size: res.body.length,
    data: res.body,
  };
  const dimensions = imageDimensions(res.body);
  if (dimensions) file.dimensions = dimensions;
  return file;
}

/** Width and height read from a PNG, GIF or JPEG header; undefined for anything else. */
function imageDimensions(data: Buffer): { width: number; height: number } | undefined {
  // PNG: 8-byte signature, then the IHDR chunk (length, type, width, height).
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('latin1', 12, 16) === 'IHDR') {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  // GIF: signature, then the logical screen size, little-endian.
  if (data.length >= 10 && /^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) {
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  // JPEG: walk the marker segments up to a start-of-frame (SOFn) one:
  // FF Cn, length (2), precision (1), height (2), width (2).
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 <= data.length && data[i] === 0xff) {
      const marker = data[i + 1];
      if (marker === 0xff) {
        i++; // fill byte
        continue;
      }
      const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isStartOfFrame) return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
      i += 2 + data.readUInt16BE(i + 2);
    }
  }
  return undefined;
}
