/**
 * Import a small website as documentation pages: crawl same-origin links breadth-first
 * from a start URL, convert each HTML page to Markdown, and collect the images and
 * downloadable files the pages reference.
 *
 * The result is flat: every page carries its `urlPath` and the caller nests pages by
 * path. Links between imported pages are rewritten to `/<urlPath>`, references to
 * imported files to `file:<key>`; every other link is kept absolute, so a link to a
 * page that could not be fetched stays visibly broken.
 */
import { createHash } from 'node:crypto';
import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes, Parent as MdastParent, Root as MdastRoot } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { FetchError, safeFetch, type FetchResult, type SafeFetchOptions } from './fetch.js';
import { checkMarkdown, MarkdownTooDeep, MAX_NESTING, writeMarkdown } from './markdown.js';

export interface ImportWebsiteOptions {
  /** Largest number of HTML pages imported (the start page included). Default 50. */
  maxPages?: number;
  /** Largest number of files (images, downloads) imported. Default 50. */
  maxFiles?: number;
  /** Bounds applied to every single fetch. */
  fetch?: SafeFetchOptions;
}

export interface ImportedPage {
  /** Final URL the page was read from (after redirects, without fragment). */
  sourceUrl: string;
  /** Pathname without leading/trailing slash, `.html` or trailing `index`; '' for the root. */
  urlPath: string;
  title: string;
  description?: string;
  markdown: string;
}

export interface ImportedFile {
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
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
/** Link targets with these extensions (or none) are expected to be pages, anything else a file. */
const PAGE_EXTENSIONS = new Set(['', 'html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp']);

type Hint = 'page' | 'file';

/** A same-origin URL discovered while crawling, and what became of it. */
interface Resource {
  /** Dedup key, see {@link resourceKey}. */
  key: string;
  /** URL as first discovered, without fragment. */
  url: string;
  /** Which bound (maxPages or maxFiles) must have room before it is fetched. */
  hint: Hint;
  /** Discovered through an `<a href>`: only such resources may become pages. */
  linked: boolean;
  state: 'queued' | 'page' | 'file' | 'failed' | 'skipped';
  urlPath?: string;
  fileKey?: string;
}

/** A fetched page, kept parsed until every resource is known and links can be rewritten. */
interface ParsedPage {
  sourceUrl: string;
  urlPath: string;
  title: string;
  description?: string;
  /** URL relative links resolve against (`<base href>` or the page URL). */
  base: URL;
  /** The page's content as mdast, links not yet rewritten. */
  tree: MdastRoot;
}

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
  const parsedPages: ParsedPage[] = [];
  const files: ImportedFile[] = [];

  const discover = (href: string, base: URL, via: 'link' | 'image'): void => {
    const url = parseUrl(href, base);
    if (!url || url.origin !== origin) return;
    const key = resourceKey(url);
    const known = byKey.get(key);
    if (known) {
      if (via === 'link') known.linked = true;
      return;
    }
    const hint: Hint = via === 'link' && PAGE_EXTENSIONS.has(extensionOf(url.pathname)) ? 'page' : 'file';
    const resource: Resource = { key, url: url.href, hint, linked: via === 'link', state: 'queued' };
    byKey.set(key, resource);
    queue.push(resource);
  };

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
      if (!resource.linked) resource.state = 'failed'; // an <img> answered with a web page
      else if (parsedPages.length >= maxPages) resource.state = 'skipped';
      else {
        const parsed = parsePage(res, finalUrl);
        if (parsed instanceof MarkdownTooDeep) {
          // A page nested too deeply is not imported (the start page fails the import).
          if (resource === startResource) throw new FetchError('FETCH_ERROR', `reading ${finalUrl.href}: the page ${parsed.message}`);
          resource.state = 'failed';
          return;
        }
        const { page, references } = parsed;
        resource.state = 'page';
        resource.urlPath = page.urlPath;
        parsedPages.push(page);
        // Discovery covers the stripped parts too (nav is where a site's structure lives).
        for (const { href, via } of references) discover(href, page.base, via);
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

  while (queue.length > 0) {
    const resource = queue.shift()!;
    if (byKey.get(resource.key) !== resource) continue; // superseded by a redirect to the same place
    const full = resource.hint === 'page' ? parsedPages.length >= maxPages : files.length >= maxFiles;
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

  /** Where a link or image reference points in the imported documentation. */
  const rewrite = (href: string, base: URL): string | null => {
    if (href.startsWith('#')) return href;
    const url = parseUrl(href, base);
    if (!url) return href; // unparsable: leave it as written
    if (url.protocol === 'javascript:') return null;
    if (url.origin === origin) {
      const target = byKey.get(resourceKey(url));
      if (target?.state === 'page') return `/${target.urlPath}${url.hash}`;
      if (target?.state === 'file') return `file:${target.fileKey}`;
    }
    return url.href;
  };

  const pages = parsedPages.map(({ base, tree, ...page }): ImportedPage => ({
    ...page,
    markdown: writeMarkdown(rewriteTree(tree, (href) => rewrite(href, base))),
  }));
  return {
    pages,
    files,
    importedResources: pages.length + files.length,
    totalResources: new Set(byKey.values()).size,
  };
}

// ---------------------------------------------------------------------------
// URLs

function parseUrl(href: string, base: URL): URL | null {
  try {
    return new URL(href.trim(), base);
  } catch {
    return null;
  }
}

/**
 * Dedup key of a URL: origin plus normalized path. Fragments and query strings are
 * ignored, and `/a`, `/a/`, `/a.html` and `/a/index.html` are the same resource.
 */
function resourceKey(url: URL): string {
  return `${url.origin}/${pagePath(url.pathname)}`;
}

/** The urlPath of a page: see {@link ImportedPage.urlPath}. */
function pagePath(pathname: string): string {
  return pathname
    .replace(/^\/+/, '')
    .replace(/\.html?$/i, '')
    .replace(/(^|\/)index$/, '')
    .replace(/\/+$/, '');
}

function extensionOf(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

function lastSegment(pathname: string): string {
  const segment = pathname.replace(/\/+$/, '');
  const last = segment.slice(segment.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

// ---------------------------------------------------------------------------
// Pages and files

function isHtml(contentType: string): boolean {
  return /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType);
}

function decodeText(body: Buffer, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder().decode(body); // unknown charset label
  }
}

/** Elements whose content never reaches the Markdown (still scanned for links). */
const STRIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'head',
  'svg', 'iframe', 'button', 'select', 'textarea',
]);

/** Deepest nesting of HTML elements read (deeper pages are not imported). */
const MAX_HTML_DEPTH = 4 * MAX_NESTING;

/**
 * A fetched page as mdast, with every link and image reference found in it (stripped parts
 * included); MarkdownTooDeep when it nests too deeply to be read.
 */
function parsePage(res: FetchResult, url: URL): { page: ParsedPage; references: { href: string; via: 'link' | 'image' }[] } | MarkdownTooDeep {
  let root: HastRoot;
  try {
    root = fromHtml(decodeText(res.body, res.contentType));
  } catch (err) {
    if (err instanceof RangeError) return new MarkdownTooDeep();
    throw err;
  }
  if (depthOf(root) > MAX_HTML_DEPTH) return new MarkdownTooDeep();
  const content: HastRoot | Element = find(root, (el) => el.tagName === 'body') ?? root;

  const baseHref = attribute(find(root, (el) => el.tagName === 'base'), 'href');
  const base = (baseHref !== undefined && parseUrl(baseHref, url)) || url;
  const references: { href: string; via: 'link' | 'image' }[] = [];
  for (const el of elements(content)) {
    const href = el.tagName === 'a' ? attribute(el, 'href') : el.tagName === 'img' ? attribute(el, 'src') : undefined;
    if (href !== undefined) references.push({ href, via: el.tagName === 'a' ? 'link' : 'image' });
  }

  const titleElement = find(root, (el) => el.tagName === 'title');
  stripElements(content);
  const title =
    collapse(titleElement ? textOf(titleElement) : '') ||
    collapse(textOf(find(content, (el) => el.tagName === 'h1'))) ||
    lastSegment(url.pathname) ||
    url.hostname;
  const description = attribute(find(root, (el) => el.tagName === 'meta' && String(el.properties.name).toLowerCase() === 'description'), 'content');
  let tree: MdastRoot;
  try {
    tree = toMdast(content.type === 'root' ? content : { type: 'root', children: [content] }) as MdastRoot;
    checkMarkdown(writeMarkdown(tree));
  } catch (err) {
    if (err instanceof MarkdownTooDeep) return err;
    if (err instanceof RangeError) return new MarkdownTooDeep();
    throw err;
  }
  const page: ParsedPage = { sourceUrl: url.href, urlPath: pagePath(url.pathname), title, base, tree };
  if (description?.trim()) page.description = collapse(description);
  return { page, references };
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

// ---------------------------------------------------------------------------
// HTML traversal (without recursion: pages nest deeply)

/** All elements below `root`, in document order. */
function* elements(root: HastNodes): Generator<Element> {
  const stack: HastNodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root && node.type === 'element') yield node;
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    if (node.type === 'element' && node.tagName === 'template' && node.content) stack.push(node.content);
  }
}

function find(root: HastNodes, test: (el: Element) => boolean): Element | undefined {
  for (const el of elements(root)) if (test(el)) return el;
  return undefined;
}

function depthOf(root: HastNodes): number {
  let deepest = 0;
  const stack: [HastNodes, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

function attribute(el: Element | undefined, name: string): string | undefined {
  const value = el?.properties[name];
  return value === undefined || value === null ? undefined : String(value);
}

function textOf(el: Element | undefined): string {
  let out = '';
  if (el) for (const node of [el, ...elements(el)]) for (const child of node.children) if (child.type === 'text') out += child.value;
  return out;
}

/** Remove the elements whose content never reaches the Markdown. */
function stripElements(root: HastRoot | Element): void {
  for (const el of [root, ...elements(root)]) {
    el.children = el.children.filter((child) => child.type !== 'element' || !STRIPPED.has(child.tagName));
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------
// Links of the Markdown

/**
 * `tree` with link and image destinations rewritten by `rewrite` (null: a link becomes its text,
 * an image goes).
 */
function rewriteTree(tree: MdastRoot, rewrite: (href: string) => string | null): MdastRoot {
  const stack: MdastNodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('children' in node)) continue;
    const parent = node as MdastParent;
    parent.children = parent.children.flatMap((child): MdastParent['children'] => {
      if (child.type !== 'link' && child.type !== 'image') return [child];
      const url = rewrite(child.url);
      if (url === null) return child.type === 'link' ? child.children : [];
      child.url = url;
      return [child];
    });
    stack.push(...parent.children);
  }
  return tree;
}
