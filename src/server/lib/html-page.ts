/**
 * The CPU half of a website import (html-import.ts does the crawl): one fetched HTML page read
 * into Markdown's tree, with its title and the same-origin references found in it, then written as
 * Markdown once the crawl knows where its links go. Pure functions of their input, with no I/O and
 * no shared state, so that they run in a worker thread (worker/tasks.ts) as well as in process.
 *
 * Every step is linear in the page (or bounded by MAX_HTML_DEPTH): hast-util-to-mdast's whitespace
 * pass looks ahead over runs of siblings that show nothing (empty links, whitespace, comments) and
 * removes whitespace one splice at a time, quadratic on hostile pages (5,000 empty `<a>` took a
 * minute); `tidy` below removes what it would have removed, first and in one pass.
 */
import type { Element, ElementContent, Nodes as HastNodes, Root as HastRoot, RootContent } from 'hast';
import type { Nodes as MdastNodes, Parent as MdastParent, Root as MdastRoot } from 'mdast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import { checkMarkdown, MarkdownTooDeep, MAX_NESTING, writeMarkdown } from './markdown.js';

/** Link targets with these extensions (or none) are expected to be pages, anything else a file. */
const PAGE_EXTENSIONS = new Set(['', 'html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp']);

/** A same-origin URL a page refers to. */
interface PageReference {
  /** Dedup key, see {@link resourceKey}. */
  key: string;
  /** The URL, resolved, as written (fragment included). */
  url: string;
  via: 'link' | 'image';
  /** Its extension (or none) is a page's. */
  pageLike: boolean;
}

/** What the crawl needs of a page read. */
interface PageSummary {
  sourceUrl: string;
  urlPath: string;
  title: string;
  description?: string;
  /** Same-origin references (stripped parts included: nav is where a site's structure lives), each (key, via) once, in document order. */
  references: PageReference[];
}

/** A page read: its summary, and what `writePage` needs later (kept where it was read). */
export interface ReadPage {
  summary: PageSummary;
  tree: MdastRoot;
  /** URL relative links resolve against (`<base href>` or the page URL). */
  base: string;
}

/**
 * Where the links of the imported pages go. A same-origin link to an imported page becomes
 * `/<its urlPath>`, to an imported file `file:<its key>`; any other link is kept absolute. With
 * `tokens`, page and file targets are written as `<nonce>-p<i>` and `<nonce>-f<i>` instead (the
 * i-th of `tokens.paths` or `tokens.files`), to be replaced once the pages are placed (content/
 * import.ts), and a same-origin link to a page not imported is written `/<its path>` (a link the
 * space reports broken) unless its path is one of `tokens.paths` (a level the placement creates).
 */
export interface LinkTargets {
  origin: string;
  /** Resource key → the urlPath of an imported page. */
  pages: [string, string][];
  /** Resource key → the key of an imported file. */
  files: [string, string][];
  tokens?: { nonce: string; paths: string[]; files: string[] };
}

/** Deepest nesting of HTML elements read (deeper pages are not imported). */
const MAX_HTML_DEPTH = 4 * MAX_NESTING;

/** Elements whose content never reaches the Markdown (still scanned for links). */
const STRIPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'header', 'footer', 'head', 'svg', 'iframe', 'button', 'select', 'textarea']);

/** Read one fetched HTML page of the site at `origin`; MarkdownTooDeep when it nests too deeply to be read. */
export function readPage(input: { body: Uint8Array; contentType: string; url: string; origin: string }): ReadPage | MarkdownTooDeep {
  const url = new URL(input.url);
  let root: HastRoot;
  try {
    root = fromHtml(decodeText(input.body, input.contentType));
  } catch (err) {
    if (err instanceof RangeError) return new MarkdownTooDeep();
    throw err;
  }
  if (depthOf(root) > MAX_HTML_DEPTH) return new MarkdownTooDeep();
  const content: HastRoot | Element = find(root, (el) => el.tagName === 'body') ?? root;

  const baseHref = attribute(
    find(root, (el) => el.tagName === 'base'),
    'href',
  );
  const base = (baseHref !== undefined && parseUrl(baseHref, url)) || url;
  const references: PageReference[] = [];
  const seen = new Set<string>();
  for (const el of elements(content)) {
    const href = el.tagName === 'a' ? attribute(el, 'href') : el.tagName === 'img' ? attribute(el, 'src') : undefined;
    if (href === undefined) continue;
    const to = parseUrl(href, base);
    if (!to || to.origin !== input.origin) continue;
    const via = el.tagName === 'a' ? 'link' : 'image';
    const key = resourceKey(to);
    if (seen.has(`${via} ${key}`)) continue;
    seen.add(`${via} ${key}`);
    references.push({ key, url: to.href, via, pageLike: PAGE_EXTENSIONS.has(extensionOf(to.pathname)) });
  }

  const titleElement = find(root, (el) => el.tagName === 'title');
  stripElements(content);
  const title =
    collapse(titleElement ? textOf(titleElement) : '') ||
    collapse(textOf(find(content, (el) => el.tagName === 'h1'))) ||
    lastSegment(url.pathname) ||
    url.hostname;
  const description = attribute(
    find(root, (el) => el.tagName === 'meta' && String(el.properties.name).toLowerCase() === 'description'),
    'content',
  );
  tidy(content);
  let tree: MdastRoot;
  try {
    tree = toMdast(content.type === 'root' ? content : { type: 'root', children: [content] }) as MdastRoot;
    checkMarkdown(writeMarkdown(tree));
  } catch (err) {
    if (err instanceof MarkdownTooDeep) return err;
    if (err instanceof RangeError) return new MarkdownTooDeep();
    throw err;
  }
  const summary: PageSummary = { sourceUrl: url.href, urlPath: pagePath(url.pathname), title, references };
  if (description?.trim()) summary.description = collapse(description);
  return { summary, tree, base: base.href };
}

/** The Markdown of a page read, its links and images pointed where `targets` says. */
export function writePage(page: ReadPage, targets: LinkTargets): string {
  const base = new URL(page.base);
  const pages = new Map(targets.pages);
  const files = new Map(targets.files);
  const tokens = targets.tokens;
  const pathToken = new Map(tokens?.paths.map((p, i) => [p, `${tokens.nonce}-p${i}`]));
  const fileToken = new Map(tokens?.files.map((f, i) => [f, `${tokens.nonce}-f${i}`]));
  const rewrite = (href: string): string | null => {
    if (href.startsWith('#')) return href;
    const url = parseUrl(href, base);
    if (!url) return href; // unparsable: leave it as written
    if (url.protocol === 'javascript:') return null;
    if (url.origin !== targets.origin) return url.href;
    const key = resourceKey(url);
    const file = files.get(key);
    if (file !== undefined) return `file:${fileToken.get(file) ?? file}`;
    const urlPath = pages.get(key);
    if (!tokens) return urlPath === undefined ? url.href : `/${urlPath}${url.hash}`;
    const path = urlPath ?? pagePath(url.pathname);
    return `/${pathToken.get(path) ?? path}${url.hash}`;
  };
  return writeMarkdown(rewriteTree(page.tree, rewrite));
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
export function resourceKey(url: URL): string {
  return `${url.origin}/${pagePath(url.pathname)}`;
}

/** The urlPath of a page: pathname without leading/trailing slash, `.html` or trailing `index`; '' for the root. */
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

export function lastSegment(pathname: string): string {
  const segment = pathname.replace(/\/+$/, '');
  const last = segment.slice(segment.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function decodeText(body: Uint8Array, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder().decode(body); // unknown charset label
  }
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
// Tidying before hast-util-to-mdast (its whitespace pass is rehype-minify-whitespace's)

/** Elements that end a run of inline content (hast-util-minify-whitespace's block-like elements). */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'optgroup',
  'option',
  'p',
  'plaintext',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'wbr',
  'xmp',
]);
/** Elements that show something however empty (embedded content, form controls), or keep their spaces (code, quotes). */
const SHOWN = new Set([
  'audio',
  'canvas',
  'embed',
  'iframe',
  'img',
  'math',
  'object',
  'picture',
  'svg',
  'video',
  'button',
  'input',
  'select',
  'textarea',
  'code',
  'kbd',
  'samp',
  'tt',
  'var',
  'q',
]);
/** Elements the whitespace pass steps over without looking inside, and that bring no text to the Markdown (its `rp` aside). */
const SKIPPED = new Set([
  'area',
  'base',
  'basefont',
  'dialog',
  'datalist',
  'head',
  'link',
  'meta',
  'noembed',
  'noframes',
  'param',
  'rp',
  'script',
  'source',
  'style',
  'template',
  'track',
  'title',
]);
/** Elements whose whitespace is kept as written, or not trimmed (`nobr`, cells with `nowrap`). */
const PRESERVING = new Set(['pre', 'listing', 'plaintext', 'script', 'style', 'xmp', 'textarea', 'nobr']);
const preserves = (el: Element) => PRESERVING.has(el.tagName) || ((el.tagName === 'td' || el.tagName === 'th') && Boolean(el.properties.noWrap));

const isWhitespace = (value: string) => /^[ \t\n\f\r]*$/.test(value);
const isBlock = (node: RootContent | undefined) => node?.type === 'element' && BLOCKS.has(node.tagName);

/**
 * What shows nothing in the Markdown: whitespace, comments, skipped or hidden elements, and inline
 * elements holding only such things (an empty link, `<span> </span>`). 'space' when it holds
 * whitespace, which the page shows as one space at most.
 */
function blank(node: RootContent, memo: Map<RootContent, false | 'space' | 'none'>): false | 'space' | 'none' {
  const known = memo.get(node);
  if (known !== undefined) return known;
  let result: false | 'space' | 'none';
  if (node.type === 'comment' || node.type === 'doctype') result = 'none';
  else if (node.type === 'text') result = isWhitespace(node.value) ? (node.value === '' ? 'none' : 'space') : false;
  else if (node.type !== 'element') result = false;
  else if (BLOCKS.has(node.tagName) || SHOWN.has(node.tagName) || preserves(node)) result = false;
  else if (SKIPPED.has(node.tagName) || node.properties.hidden) result = 'none';
  else {
    result = 'none';
    for (const child of node.children) {
      const b = blank(child, memo);
      if (b === false) {
        result = false;
        break;
      }
      if (b === 'space') result = 'space';
    }
  }
  memo.set(node, result);
  return result;
}

/**
 * Inline elements that hast-util-to-mdast replaces by their content (its `all` handler): taken out
 * here, so that their texts are one text node (it joins adjacent text nodes one splice at a time).
 */
const UNWRAPPED = new Set([
  'abbr',
  'acronym',
  'bdi',
  'bdo',
  'big',
  'blink',
  'cite',
  'data',
  'dfn',
  'font',
  'ins',
  'label',
  'map',
  'marquee',
  'meter',
  'output',
  'progress',
  'rb',
  'rbc',
  'rt',
  'rtc',
  'ruby',
  'slot',
  'small',
  'span',
  'sub',
  'sup',
  'time',
]);

/**
 * In one pass, what the whitespace pass of hast-util-to-mdast would remove or reduce, so that it
 * has little left to do: a run of siblings that show nothing becomes one space (or nothing when it
 * holds no whitespace), whitespace beside a block or at the edges of a block goes, inline elements
 * that stand for their content are replaced by it and adjacent texts joined. Not inside elements
 * that keep their whitespace (`pre`, cells with `nowrap`…). Hidden elements and comments go too.
 */
function tidy(root: HastRoot | Element): void {
  const memo = new Map<RootContent, false | 'space' | 'none'>();
  // Children before their parent (post-order), so `blank` never recurses deeply.
  const order: (HastRoot | Element)[] = [];
  const stack: (HastRoot | Element)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    if (node.type === 'element' && preserves(node)) continue;
    for (const child of node.children) if (child.type === 'element') stack.push(child);
  }
  type Child = RootContent & ElementContent;
  for (let i = order.length - 1; i >= 0; i--) {
    const parent = order[i];
    const out: Child[] = [];
    let run: 'space' | 'none' | undefined;
    const flush = () => {
      if (run === 'space') push({ type: 'text', value: ' ' });
      run = undefined;
    };
    const push = (child: Child) => {
      const last = out[out.length - 1];
      if (child.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value + child.value };
      else out.push(child);
    };
    const take = (children: readonly Child[]) => {
      for (const child of children) {
        const b = blank(child, memo);
        if (b !== false) {
          run = b === 'space' ? 'space' : (run ?? 'none');
          continue;
        }
        if (child.type === 'element' && UNWRAPPED.has(child.tagName) && !preserves(child)) {
          take(child.children as Child[]); // tidied already: one level only
          continue;
        }
        flush();
        push(child);
      }
    };
    take(parent.children as Child[]);
    flush();
    // Whitespace beside a block, or at the edges of a block (or of the page), shows nothing.
    const edges = parent.type === 'root' || BLOCKS.has(parent.tagName);
    const kept = out.filter((child, j) => {
      if (child.type !== 'text' || !isWhitespace(child.value)) return true;
      if (isBlock(out[j - 1]) || isBlock(out[j + 1])) return false;
      return !(edges && (j === 0 || j === out.length - 1));
    });
    parent.children = kept as typeof parent.children;
    if (parent.type === 'element') memo.delete(parent);
  }
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
    for (const child of parent.children) stack.push(child);
  }
  return tree;
}
