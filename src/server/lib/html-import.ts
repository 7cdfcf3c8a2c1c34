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
import { HTMLElement, TextNode, parse } from 'node-html-parser';
import { FetchError, safeFetch, type FetchResult, type SafeFetchOptions } from './fetch.js';

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
  content: HTMLElement;
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
        const page = parsePage(res, finalUrl);
        resource.state = 'page';
        resource.urlPath = page.urlPath;
        parsedPages.push(page);
        // Discovery covers the stripped parts too (nav is where a site's structure lives).
        for (const el of elements(page.content)) {
          const tag = tagOf(el);
          const href = tag === 'a' ? el.getAttribute('href') : tag === 'img' ? el.getAttribute('src') : undefined;
          if (href !== undefined) discover(href, page.base, tag === 'a' ? 'link' : 'image');
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

  const pages = parsedPages.map(({ base, content, ...page }): ImportedPage => ({
    ...page,
    markdown: new MarkdownRenderer((href) => rewrite(href, base)).render(content),
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

function parsePage(res: FetchResult, url: URL): ParsedPage {
  const html = decodeText(res.body, res.contentType).replace(/^\s*<!doctype[^>]*>/i, '');
  // <pre> is parsed as markup (not raw text) so that its entities are decoded like elsewhere.
  const root = parse(html, { blockTextElements: { script: true, noscript: true, style: true } });
  const content = root.querySelector('body') ?? root;
  const urlPath = pagePath(url.pathname);

  const baseHref = root.querySelector('base')?.getAttribute('href');
  const base = (baseHref !== undefined && parseUrl(baseHref, url)) || url;

  const title =
    collapse(root.querySelector('title')?.text ?? '') ||
    collapse(firstContentElement(content, 'h1')?.text ?? '') ||
    lastSegment(url.pathname) ||
    url.hostname;
  const description = root
    .querySelectorAll('meta')
    .find((meta) => meta.getAttribute('name')?.toLowerCase() === 'description')
    ?.getAttribute('content');
  const page: ParsedPage = { sourceUrl: url.href, urlPath, title, base, content };
  if (description?.trim()) page.description = collapse(description);
  return page;
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
// HTML traversal

function tagOf(el: HTMLElement): string {
  return (el.rawTagName ?? '').toLowerCase();
}

/** All elements below `root`, in document order. */
function* elements(root: HTMLElement): Generator<HTMLElement> {
  for (const child of root.childNodes) {
    if (child instanceof HTMLElement) {
      yield child;
      yield* elements(child);
    }
  }
}

/** First `tag` element in document order outside stripped elements (a header's site name is not a title). */
function firstContentElement(root: HTMLElement, tag: string): HTMLElement | undefined {
  for (const child of root.childNodes) {
    if (!(child instanceof HTMLElement) || STRIPPED.has(tagOf(child))) continue;
    if (tagOf(child) === tag) return child;
    const found = firstContentElement(child, tag);
    if (found) return found;
  }
  return undefined;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------
// HTML -> Markdown

/** Elements that start a new Markdown block; every other element is rendered inline. */
const BLOCK_ELEMENTS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'div',
  'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hgroup', 'hr',
  'html', 'legend', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul',
]);

/** Stands for a <br> until the inline content of a block is finished. */
const HARD_BREAK = '\uE000';

/** A rendered block; lists nested in a list item follow the preceding block without a blank line. */
interface Block {
  text: string;
  list?: boolean;
}

class MarkdownRenderer {
  /** `rewrite` maps an href/src to the Markdown destination, or null to drop the link. */
  constructor(private readonly rewrite: (href: string) => string | null) {}

  render(content: HTMLElement): string {
    const text = this.blocks(content).map((block) => block.text).join('\n\n');
    return text ? `${text}\n` : '';
  }

  /** Render the children of `el` as blocks, gathering runs of inline content into paragraphs. */
  private blocks(el: HTMLElement): Block[] {
    const out: Block[] = [];
    let inline = '';
    const flush = (): void => {
      const paragraph = finishInline(inline, true);
      if (paragraph) out.push({ text: paragraph });
      inline = '';
    };
    for (const child of el.childNodes) {
      if (child instanceof TextNode) {
        inline += inlineText(child);
      } else if (child instanceof HTMLElement && !STRIPPED.has(tagOf(child))) {
        if (BLOCK_ELEMENTS.has(tagOf(child))) {
          flush();
          out.push(...this.block(child));
        } else {
          inline += this.inline(child);
        }
      }
    }
    flush();
    return out;
  }

  private block(el: HTMLElement): Block[] {
    const tag = tagOf(el);
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      const text = finishInline(this.inlineChildren(el), false);
      return text ? [{ text: `${'#'.repeat(Number(heading[1]))} ${text}` }] : [];
    }
    switch (tag) {
      case 'hr':
        return [{ text: '---' }];
      case 'pre':
        return this.codeBlock(el);
      case 'ul':
      case 'ol': {
        const text = this.list(el, tag === 'ol');
        return text ? [{ text, list: true }] : [];
      }
      case 'blockquote': {
        const inner = this.blocks(el).map((block) => block.text).join('\n\n');
        return inner ? [{ text: inner.split('\n').map((line) => (line ? `> ${line}` : '>')).join('\n') }] : [];
      }
      case 'table':
        return this.table(el);
      default:
        return this.blocks(el); // p, div, section, li outside a list, ...
    }
  }

  private codeBlock(pre: HTMLElement): Block[] {
    // HTML drops a newline right after <pre>; trailing blank lines are noise.
    const code = pre.text.replace(/^\r?\n/, '').replace(/\s+$/, '');
    if (!code) return [];
    const classes = [pre.getAttribute('class'), pre.querySelector('code')?.getAttribute('class')].join(' ');
    const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
    const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(Math.max(3, longestRun + 1));
    return [{ text: `${fence}${language}\n${code}\n${fence}` }];
  }

  private list(el: HTMLElement, ordered: boolean): string {
    const start = Number.parseInt(el.getAttribute('start') ?? '', 10);
    let number = ordered && Number.isFinite(start) ? start : 1;
    const items: Block[][] = [];
    for (const child of el.childNodes) {
      if (!(child instanceof HTMLElement)) continue;
      const tag = tagOf(child);
      if (tag === 'li') {
        items.push(this.blocks(child));
      } else if ((tag === 'ul' || tag === 'ol') && items.length > 0) {
        // Invalid but common: a nested list placed directly in the list, after its parent item.
        items[items.length - 1].push(...this.block(child));
      }
    }
    return items
      .filter((blocks) => blocks.length > 0)
      .map((blocks) => {
        const marker = ordered ? `${number++}. ` : '- ';
        const body = blocks.map((block, i) => (i === 0 ? '' : block.list ? '\n' : '\n\n') + block.text).join('');
        const indent = ' '.repeat(marker.length);
        return marker + body.split('\n').map((line, i) => (i === 0 || !line ? line : indent + line)).join('\n');
      })
      .join('\n');
  }

  /** A GFM table; the first row is the header, cells are single-line inline content. */
  private table(el: HTMLElement): Block[] {
    const rows = el.querySelectorAll('tr').map((tr) =>
      tr.childNodes
        .filter((cell): cell is HTMLElement => cell instanceof HTMLElement && /^t[hd]$/.test(tagOf(cell)))
        .map((cell) => finishInline(this.inlineChildren(cell), false).replace(/\|/g, '\\|')),
    );
    const width = Math.max(0, ...rows.map((row) => row.length));
    if (width === 0) return [];
    const line = (cells: string[]): string =>
      `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
    const [header, ...body] = rows;
    return [{ text: [line(header), line(Array(width).fill('---')), ...body.map(line)].join('\n') }];
  }

  private inlineChildren(el: HTMLElement): string {
    let out = '';
    for (const child of el.childNodes) {
      if (child instanceof TextNode) out += inlineText(child);
      else if (child instanceof HTMLElement && !STRIPPED.has(tagOf(child))) out += this.inline(child);
    }
    return out;
  }

  private inline(el: HTMLElement): string {
    switch (tagOf(el)) {
      case 'br':
        return HARD_BREAK;
      case 'strong':
      case 'b':
        return wrap(this.inlineChildren(el), '**', '**');
      case 'em':
      case 'i':
        return wrap(this.inlineChildren(el), '*', '*');
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        return codeSpan(el.text);
      case 'a': {
        const href = el.getAttribute('href');
        const text = this.inlineChildren(el);
        const destination = href === undefined ? null : this.rewrite(href);
        return destination === null ? text : wrap(text, '[', `](${escapeDestination(destination)})`);
      }
      case 'img': {
        const src = el.getAttribute('src');
        const destination = src === undefined ? null : this.rewrite(src);
        if (destination === null) return '';
        const alt = collapse(el.getAttribute('alt') ?? '').replace(/[\\[\]]/g, '\\$&');
        return `![${alt}](${escapeDestination(destination)})`;
      }
      default: {
        // Inline containers (span, abbr, del, ...) and blocks met inside inline content.
        const text = this.inlineChildren(el);
        return BLOCK_ELEMENTS.has(tagOf(el)) ? ` ${text} ` : text;
      }
    }
  }
}

/** Text node content: whitespace collapsed as a browser would, Markdown syntax escaped. */
function inlineText(node: TextNode): string {
  return node.text.replace(/[ \t\r\n\f]+/g, ' ').replace(/[\\`*_[\]<]/g, '\\$&');
}

/** Surround non-blank `text` with markers, keeping its outer whitespace outside them. */
function wrap(text: string, open: string, close: string): string {
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
  return core ? `${lead}${open}${core}${close}${trail}` : text;
}

function codeSpan(text: string): string {
  const code = text.replace(/\s+/g, ' ');
  if (!code.trim()) return '';
  const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longestRun + 1);
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

function escapeDestination(destination: string): string {
  return destination.replace(/\s/g, encodeURIComponent).replace(/[()]/g, '\\$&');
}

/**
 * Turn accumulated inline content into final text: collapse spaces, apply <br> as hard
 * line breaks (or spaces when `breaks` is false) and escape what would otherwise start
 * a heading, list item, quote or thematic break at the beginning of a line.
 */
function finishInline(text: string, breaks: boolean): string {
  const lines = text
    .split(HARD_BREAK)
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .filter((line) => line !== '');
  return breaks ? lines.map(escapeLineStart).join('\\\n') : escapeLineStart(lines.join(' '));
}

function escapeLineStart(line: string): string {
  const ordered = /^(\d{1,9})([.)])(?=\s|$)/.exec(line);
  if (ordered) return `${ordered[1]}\\${line.slice(ordered[1].length)}`;
  return /^(#{1,6}(\s|$)|[-+](\s|$)|>|[=-]+\s*$|~{3,})/.test(line) ? `\\${line}` : line;
}
