/**
 * Markdown in the sandbox: one dialect, CommonMark with GitHub's extensions (tables, strikethrough,
 * task lists, autolink literals, footnotes), read and written by micromark and mdast
 * (`mdast-util-from-markdown`, `mdast-util-to-markdown`, `mdast-util-gfm`). Page bodies, imported
 * HTML (see html-import.ts), documents, links and search text all go through here.
 *
 * Our own code is the mapping between mdast and the service's rich-text Document (the official
 * document's JSONDocument): headings 4-6 become `heading-3`, a paragraph of images only an `images`
 * block, other images links to them, a hard break a `\n` in the text, a table the official grid
 * table (one text column per Markdown column, each cell a fragment holding a paragraph). What the
 * official document lets no quote hold (code, images, tables) ends the quote and follows it; images
 * alone in a list item's paragraph are links to them (a list item holds no `images` block).
 *
 * Nesting is bounded (MAX_NESTING levels of quotes, lists and inline markup): the parser and
 * the writer recurse, and deeper input would overflow the stack. `checkMarkdown` refuses such input
 * (what a write calls); readers of stored Markdown see a page nested too deeply as one paragraph of
 * its source text.
 */
import type * as M from 'mdast';
import { WRITER_OPTIONS } from '../../markdown/writer.js';
import { parse, postprocess, preprocess } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { attribute, decodeEntities, mayHoldTags, scanTags, TagsTooDeep, type Segment, type TagNode } from './gitbook-syntax.js';
import { slugify } from './slug.js';

// ---------------------------------------------------------------------------------------
// Document model

type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code';

/** A mark on a leaf (the official document's DocumentTextMark). */
interface Mark {
  object: 'mark';
  type: MarkType;
}

interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}

export interface TextNode {
  object: 'text';
  leaves: Leaf[];
}

export interface InlineNode {
  object: 'inline';
  type: 'link';
  data: { ref: { kind: 'url'; url: string } };
  nodes: TextNode[];
}

interface Fragment {
  object: 'fragment';
  fragment: string;
  type: string;
  nodes: BlockNode[];
}

export interface BlockNode {
  object: 'block';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  nodes: (BlockNode | TextNode | InlineNode)[];
  fragments?: Fragment[];
}

export interface DocumentNode {
  object: 'document';
  data: { schemaVersion: 1 };
  nodes: BlockNode[];
}

export interface ExtractedLink {
  href: string;
  /** Plain text of the link (alt text for images, the URL for autolinks). */
  text: string;
  /** Offset in the Markdown source where the link starts. */
  offset: number;
  image?: true;
  /**
   * Where the destination is written, to replace it: `[start, end)` of the source, and whether it is
   * a destination (of an inline link or of the definition a reference uses) or a whole autolink.
   */
  written?: { start: number; end: number; form: 'destination' | 'autolink' };
}

export interface Section {
  id: string;
  title: string;
  body: string;
}

const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

// ---------------------------------------------------------------------------------------
// Reading and writing Markdown, bounded

/** Deepest nesting of quotes, lists and inline markup accepted. */
export const MAX_NESTING = 100;

/** Markdown (or a document) nested deeper than MAX_NESTING: refused, a 400 where it is written. */
export class MarkdownTooDeep extends Error {
  constructor() {
    super(`nests quotes, lists or inline markup deeper than ${MAX_NESTING} levels`);
    this.name = 'MarkdownTooDeep';
  }
}

const micromarkOptions = { extensions: [gfm()] };
const fromOptions = { ...micromarkOptions, mdastExtensions: [gfmFromMarkdown()] };

/**
 * GFM without the constructs that cannot occur in a text: autolink literals need `@`, `www.` or
 * `http(s):`, tables a `|` or a `:` beside a `-` (the delimiter row). Most pages have neither, and
 * those constructs are tried at every letter (autolinks) or line (tables): parsing without them is
 * ~2.4 times faster and gives the same tree (test/unit/search-sections.test.ts). One dialect still.
 */
const GFM_LEAN = withoutConstructs(gfm(), new Set(['emailAutolink', 'wwwAutolink', 'protocolAutolink', 'table']));
// Its mdast side without the autolink-literal transform (the one extension with `transforms`: a
// search over every text node for the same `@`, `www.` and `http(s):`): ~15 % of a short text's read.
const leanFromOptions = { extensions: [GFM_LEAN], mdastExtensions: [gfmFromMarkdown().filter((e) => !e.transforms)] };
const NEEDS_AUTOLINKS = /@|www\.|https?:/i;
const NEEDS_TABLES = /\||:-|-:/;

/** The options to read `markdown` with: the whole of GFM, or GFM_LEAN when it is the same there. */
export function fromMarkdownOptions(markdown: string): typeof fromOptions {
  return NEEDS_AUTOLINKS.test(markdown) || NEEDS_TABLES.test(markdown) ? fromOptions : leanFromOptions;
}

type Extension = ReturnType<typeof gfm>;
type Construct = { name?: string };

/** A micromark extension without the constructs named (the maps of constructs by character). */
function withoutConstructs(extension: Extension, names: ReadonlySet<string>): Extension {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(extension)) {
    if (field === 'disable' || field === 'insideSpan' || field === 'attentionMarkers' || !value) {
      out[field] = value;
      continue;
    }
    const map: Record<string, Construct[]> = {};
    for (const [code, constructs] of Object.entries(value as Record<string, Construct | Construct[]>)) {
      const kept = (Array.isArray(constructs) ? constructs : [constructs]).filter((c) => !c.name || !names.has(c.name));
      if (kept.length > 0) map[code] = kept;
    }
    out[field] = map;
  }
  return out as Extension;
}
const toOptions: ToMarkdownOptions = {
  ...WRITER_OPTIONS,
  // Text that would read as GitBook's syntax at the start of a line (gitbook-syntax.ts) is escaped.
  unsafe: [
    { character: '{', atBreak: true, after: '%' },
    { character: '$', atBreak: true, after: '\\$' },
  ],
};

/** Container markers (quote markers, list bullets and numbers) at the start of a line. */
const CONTAINER_PREFIX = /^(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))+/;
const EMPHASIS_RUN = /[*_~]{200,}/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** Runs of emphasis delimiters that can open (before a non-space) or close (after one). */
const DELIMITER = /(?<=^|[\s\p{P}])[*_~]+(?=[^\s*_~])|(?<=[^\s*_~])[*_~]+(?=$|[\s\p{P}])/gu;

/**
 * Refuse, before parsing, what the parser cannot read without overflowing or going quadratic: a
 * line opening more than MAX_NESTING containers (markers, and indentation by two columns a level),
 * a paragraph opening more than MAX_NESTING emphasis delimiters it does not close, or a run of
 * hundreds of delimiters. Code (fenced or indented) is skipped, roughly: this is a bound, not a parser.
 */
function checkSource(markdown: string): void {
  let fence: string | null = null;
  let open = 0;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMark?.startsWith(fence)) fence = null;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    const prefix = CONTAINER_PREFIX.exec(line)?.[0];
    if (prefix) {
      const markers = prefix.match(/>|[-+*]|\d{1,9}[.)]/g)?.length ?? 0;
      const indent = /^[ \t]*/.exec(prefix)![0].replace(/\t/g, '    ').length;
      if (markers + indent / 2 > MAX_NESTING) throw new MarkdownTooDeep();
    }
    if (line.trim() === '') open = 0;
    else if (!/^(?: {4}|\t)/.test(line) && !THEMATIC_BREAK.test(line)) {
      if (EMPHASIS_RUN.test(line)) throw new MarkdownTooDeep();
      for (const m of line.matchAll(DELIMITER)) {
        const before = line[m.index - 1];
        open = before === undefined || /[\s\p{P}]/u.test(before) ? open + 1 : Math.max(0, open - 1);
        if (open > MAX_NESTING) throw new MarkdownTooDeep();
      }
    }
  }
}

const NESTING_TYPES = new Set(['blockquote', 'listItem', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'footnoteDefinition']);

/** How deep quotes, list items and inline markup nest in `tree` (walked without recursion). */
function nestingOf(tree: M.Root): number {
  let deepest = 0;
  const stack: [M.Nodes, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const d = NESTING_TYPES.has(node.type) ? depth + 1 : depth;
    deepest = Math.max(deepest, d);
    if ('children' in node) for (const child of node.children) stack.push([child, d]);
  }
  return deepest;
}

/** The mdast of `markdown`, or MarkdownTooDeep. */
function parseStrict(markdown: string): M.Root {
  checkSource(markdown);
  let tree: M.Root;
  try {
    tree = fromMarkdown(markdown, fromMarkdownOptions(markdown));
  } catch (err) {
    if (err instanceof RangeError) throw new MarkdownTooDeep();
    throw err;
  }
  if (nestingOf(tree) > MAX_NESTING) throw new MarkdownTooDeep();
  return tree;
}

/** Markdown read as one paragraph of its source text. */
const sourceTree = (markdown: string): M.Root => ({ type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: markdown }] }] });

/**
 * How stored Markdown is read: parsed, or (`source`) as one paragraph of its source text, what a
 * text too costly to parse shows (the sandbox bounds the time reading takes: markdown-reads.ts).
 */
export interface ReadOptions {
  source?: boolean;
}

/** The mdast of stored Markdown: a page nested too deeply reads as one paragraph of its source. */
function parseStored(markdown: string, opts: ReadOptions = {}): M.Root {
  if (opts.source) return sourceTree(markdown);
  try {
    return parseStrict(markdown);
  } catch (err) {
    if (!(err instanceof MarkdownTooDeep)) throw err;
    return sourceTree(markdown);
  }
}

/** Throw MarkdownTooDeep when `markdown` nests deeper than MAX_NESTING levels. */
export function checkMarkdown(markdown: string): void {
  if (nestingBound(markdown) <= MAX_NESTING) return;
  if (mayHoldTags(markdown)) {
    try {
      for (const text of markdownOfSegments(scanTags(markdown, true))) parseStrict(text);
    } catch (err) {
      if (err instanceof TagsTooDeep) throw new MarkdownTooDeep();
      throw err;
    }
    return;
  }
  parseStrict(markdown);
}

/** The plain Markdown of segments, each piece on its own (walked without recursion). */
function markdownOfSegments(segments: Segment[]): string[] {
  const out: string[] = [];
  const stack = [...segments];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (s.kind === 'md') out.push(s.text);
    else {
      stack.push(...s.tag.children);
      if (s.tag.summary) out.push(s.tag.summary);
    }
  }
  return out;
}

/**
 * A bound on how deep `markdown` can nest, read without parsing: every level that counts
 * (NESTING_TYPES) is opened by a character of its own among `>` (quotes), `-`, `+`, `*` or digits
 * (list items), `*`, `_`, `~` (emphasis, strong, delete), `[` and `<` (links, references, footnotes),
 * plus one for a bare GFM autolink (which holds no other link). Most texts are far below the limit
 * and need no parse to be checked (test/unit/markdown.test.ts checks the bound over generated text).
 */
export function nestingBound(markdown: string): number {
  let markers = 0;
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown.charCodeAt(i);
    // > - + * _ ~ [ < { and 0-9 (`{` opens GitBook's blocks, `<` its expandables)
    if (c === 0x3e || c === 0x2d || c === 0x2b || c === 0x2a || c === 0x5f || c === 0x7e || c === 0x5b || c === 0x3c || c === 0x7b || (c >= 0x30 && c <= 0x39))
      markers++;
  }
  return markers + 1;
}

/**
 * What reading `markdown` costs, roughly in characters of ordinary Markdown, read without parsing:
 * its length, plus for each stretch between blank lines (what one paragraph's inline text can
 * span) the square of its punctuation over MARKDOWN_QUADRATIC. micromark reads most text in a few
 * µs a character, but some runs of punctuation within one paragraph in time that grows with the
 * square of their length (`]` after `]`, nested image labels, unclosed `<!--`, emphasis markers):
 * this bounds both. Used to decide where a text is read (the sandbox's thread, or its worker).
 */
export function markdownCost(markdown: string): number {
  let cost = markdown.length;
  let punctuation = 0;
  let blank = true;
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown.charCodeAt(i);
    if (c === 0x0a) {
      if (blank) {
        cost += (punctuation * punctuation) / MARKDOWN_QUADRATIC;
        punctuation = 0;
      }
      blank = true;
    } else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      blank = false;
      // ASCII punctuation: ! to /, : to @, [ to `, { to ~
      if ((c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)) punctuation++;
    }
  }
  return Math.round(cost + (punctuation * punctuation) / MARKDOWN_QUADRATIC);
}

/**
 * The ratio of micromark's time per character of ordinary Markdown to its time per pair of
 * punctuation characters in its worst paragraphs (measured: test/unit/markdown-reads.test.ts).
 */
const MARKDOWN_QUADRATIC = 1_000;

/** How deep `markdown` nests, parsed (for tests of the bound above). */
export function markdownNesting(markdown: string): number {
  return nestingOf(fromMarkdown(markdown, fromMarkdownOptions(markdown)));
}

/** Markdown of an mdast tree, in the sandbox's style (`-` bullets, `_italic_`, `**bold**`, fenced code). */
export function writeMarkdown(tree: M.Root): string {
  if (nestingOf(tree) > MAX_NESTING) throw new MarkdownTooDeep();
  const out = toMarkdown(tree, toOptions);
  return out.trim() === '' ? '' : out;
}

// ---------------------------------------------------------------------------------------
// mdast -> Document

type Definitions = Map<string, string>;

function definitionsOf(tree: M.Root): Definitions {
  const defs: Definitions = new Map();
  const stack: M.Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'definition' && !defs.has(node.identifier)) defs.set(node.identifier, node.url);
    if ('children' in node) stack.push(...node.children);
  }
  return defs;
}

const leaf = (text: string, marks: readonly MarkType[] = []): Leaf => ({ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) });
const textNode = (leaves: Leaf[]): TextNode => ({ object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] });
const block = (type: string, nodes: BlockNode['nodes'], data: Record<string, unknown> = {}): BlockNode => ({ object: 'block', type, key: '', data, nodes });
const voidBlock = (type: string, data: Record<string, unknown> = {}): BlockNode => ({ object: 'block', type, key: '', isVoid: true, data, nodes: [] });
const withMark = (marks: readonly MarkType[], mark: MarkType): MarkType[] => MARK_ORDER.filter((m) => m === mark || marks.includes(m));

function pushLeaf(leaves: Leaf[], text: string, marks: readonly MarkType[]): void {
  if (!text) return;
  const last = leaves[leaves.length - 1];
  if (last && last.marks.length === marks.length && last.marks.every((m, i) => m.type === marks[i])) last.text += text;
  else leaves.push(leaf(text, marks));
}

function urlOf(node: M.Link | M.Image | M.LinkReference | M.ImageReference, defs: Definitions): string {
  return 'url' in node ? node.url : (defs.get(node.identifier) ?? '');
}

/** Plain text of phrasing content (images give their alt text). */
function phrasingText(nodes: readonly M.Nodes[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'break') out += '\n';
    else if (node.type === 'image' || node.type === 'imageReference') out += node.alt ?? '';
    else if ('value' in node) out += node.value;
    else if ('children' in node) out += phrasingText(node.children);
  }
  return out;
}

/** Phrasing content as text nodes (one per stretch between links) and link nodes. */
function inlineNodes(nodes: readonly M.PhrasingContent[], defs: Definitions): (TextNode | InlineNode)[] {
  const out: (TextNode | InlineNode)[] = [];
  let leaves: Leaf[] = [];
  const link = (url: string, text: Leaf[]) => {
    if (leaves.length > 0) out.push(textNode(leaves));
    leaves = [];
    out.push({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [textNode(text)] });
  };
  const walk = (node: M.PhrasingContent, marks: readonly MarkType[], into: Leaf[] | null): void => {
    const target = into ?? leaves;
    switch (node.type) {
      case 'text':
      case 'html':
        return pushLeaf(target, node.value.replace(/\n/g, ' '), marks);
      case 'break':
        return pushLeaf(target, '\n', marks);
      case 'inlineCode':
        return pushLeaf(target, node.value, withMark(marks, 'code'));
      case 'emphasis':
      case 'strong':
      case 'delete': {
        const mark = node.type === 'emphasis' ? 'italic' : node.type === 'strong' ? 'bold' : 'strikethrough';
        for (const child of node.children) walk(child, withMark(marks, mark), into);
        return;
      }
      case 'link':
      case 'linkReference': {
        if (into) {
          for (const child of node.children) walk(child, marks, into);
          return;
        }
        const text: Leaf[] = [];
        for (const child of node.children) walk(child, marks, text);
        return link(urlOf(node, defs), text);
      }
      case 'image':
      case 'imageReference': {
        if (into) return pushLeaf(into, node.alt ?? '', marks);
        const url = urlOf(node, defs);
        return link(url, [leaf(node.alt || url, marks)]);
      }
      case 'footnoteReference':
        return pushLeaf(target, `[^${node.label ?? node.identifier}]`, marks);
    }
  };
  for (const node of nodes) walk(node, [], null);
  if (leaves.length > 0 || out.length === 0) out.push(textNode(leaves));
  return out;
}

function imageBlock(node: M.Image | M.ImageReference, defs: Definitions): BlockNode {
  return { ...voidBlock('image', { ref: { kind: 'url', url: urlOf(node, defs) }, ...(node.alt ? { alt: node.alt } : {}) }), fragments: [] };
}

/**
 * Most cells a table's grid may hold: rows shorter than the widest are filled with empty cells up
 * to it, unless that would pass this bound (a row of thousands of cells over thousands of short
 * rows would make a document thousands of times its source); then each row keeps its own cells.
 */
export const MAX_TABLE_CELLS = 10_000;

/** A GFM table as the official grid table: text columns, one record a row, a fragment a cell. */
function tableBlock(node: M.Table, defs: Definitions): BlockNode {
  const [head, ...rows] = node.children;
  let width = 0;
  for (const r of node.children) width = Math.max(width, r.children.length);
  const filled = width * rows.length <= MAX_TABLE_CELLS;
  const columns = Array.from({ length: width }, (_, i) => `c${i + 1}`);
  const definition = Object.fromEntries(
    columns.map((id, i) => [
      id,
      {
        id,
        type: 'text',
        title: phrasingText(head?.children[i]?.children ?? []),
        textAlignment: node.align?.[i] ?? 'left',
      },
    ]),
  );
  const records: Record<string, unknown> = {};
  const fragments: Fragment[] = [];
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    columns.forEach((column, c) => {
      if (!filled && c >= row.children.length) return;
      const fragment = `r${r + 1}${column}`;
      values[column] = fragment;
      fragments.push({ object: 'fragment', fragment, type: 'table-cell', nodes: [block('paragraph', inlineNodes(row.children[c]?.children ?? [], defs))] });
    });
    records[`r${r + 1}`] = { orderIndex: `a${String(r).padStart(6, '0')}`, values };
  });
  return {
    ...voidBlock('table', { view: { type: 'grid', columns, hideHeader: false }, records, definition }),
    fragments,
  };
}

/** What the official document lets a quote hold (DocumentBlockQuote: the essentials and quotes). */
const IN_QUOTE = new Set(['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider', 'blockquote']);

/** A quote of `children`: the blocks a quote may not hold (code, images, tables) end it, and follow it. */
function quoteBlocks(children: BlockNode[]): BlockNode[] {
  const out: BlockNode[] = [];
  let run: BlockNode[] = [];
  for (const child of children) {
    if (IN_QUOTE.has(child.type)) {
      run.push(child);
      continue;
    }
    if (run.length > 0) out.push(block('blockquote', run));
    run = [];
    out.push(child);
  }
  if (run.length > 0 || out.length === 0) out.push(block('blockquote', run));
  return out;
}

/** An `images` block where the official document allows none (a list item): a paragraph of links to them. */
function imagesAsLinks(b: BlockNode): BlockNode {
  if (b.type !== 'images') return b;
  const nodes: BlockNode['nodes'] = [];
  for (const img of b.nodes as BlockNode[]) {
    const { url } = img.data.ref as { url: string };
    if (nodes.length > 0) nodes.push(textNode([leaf(' ')]));
    nodes.push({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [textNode([leaf((img.data.alt as string | undefined) || url)])] });
  }
  return block('paragraph', nodes);
}

function isBlank(node: M.PhrasingContent): boolean {
  return node.type === 'text' && node.value.trim() === '';
}

function blocksOf(nodes: readonly M.RootContent[], defs: Definitions): BlockNode[] {
  const out: BlockNode[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'paragraph': {
        const content = node.children.filter((c) => !isBlank(c));
        if (content.length > 0 && content.every((c) => c.type === 'image' || c.type === 'imageReference')) {
          out.push({
            ...block(
              'images',
              content.map((img) => imageBlock(img as M.Image | M.ImageReference, defs)),
            ),
            isVoid: false,
          });
        } else out.push(block('paragraph', inlineNodes(node.children, defs)));
        break;
      }
      case 'heading':
        out.push(block(`heading-${Math.min(node.depth, 3)}`, inlineNodes(node.children, defs)));
        break;
      case 'thematicBreak':
        out.push(voidBlock('divider'));
        break;
      case 'blockquote':
        out.push(...quoteBlocks(blocksOf(node.children, defs)));
        break;
      case 'list': {
        const tasks = node.children.some((item) => typeof item.checked === 'boolean');
        const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
        const items = node.children.map((item) =>
          block('list-item', blocksOf(item.children, defs).map(imagesAsLinks), tasks ? { checked: item.checked === true } : {}),
        );
        out.push(block(type, items, node.ordered && !tasks && (node.start ?? 1) !== 1 ? { start: node.start } : {}));
        break;
      }
      case 'code':
        out.push(
          block(
            'code',
            node.value.split('\n').map((line) => block('code-line', [textNode([leaf(line)])])),
            node.lang ? { syntax: node.lang } : {},
          ),
        );
        break;
      case 'html': {
        const figures = node.value.startsWith('<figure>') ? figuresOf(node.value, {}) : undefined;
        if (figures) out.push(figures);
        else if (node.value.trim()) out.push(block('paragraph', [textNode([leaf(node.value.replace(/\n/g, ' '))])]));
        break;
      }
      case 'table':
        out.push(tableBlock(node, defs));
        break;
      case 'footnoteDefinition':
        out.push(...blocksOf(node.children, defs));
        break;
      default:
        break; // definitions (read into the links using them), front matter
    }
  }
  return out;
}

/** Give every block a short key, numbering them in document order (base 36). */
function assignKeys(blocks: BlockNode[], counter = { n: 0 }): void {
  for (const b of blocks) {
    b.key = (++counter.n).toString(36);
    assignKeys(b.nodes.filter(isBlock), counter);
    for (const f of b.fragments ?? []) assignKeys(f.nodes, counter);
  }
}

function isBlock(node: BlockNode | TextNode | InlineNode): node is BlockNode {
  return node.object === 'block';
}

function documentBlocks(markdown: string, opts: ReadOptions): BlockNode[] {
  if (!opts.source && mayHoldTags(markdown)) return segmentBlocks(scanTags(markdown), opts);
  return markdownBlocks(markdown, opts);
}

function markdownBlocks(markdown: string, opts: ReadOptions): BlockNode[] {
  const tree = parseStored(markdown, opts);
  return blocksOf(tree.children, definitionsOf(tree));
}

// ---------------------------------------------------------------------------------------
// GitBook's blocks (gitbook-syntax.ts cuts the text; here they become the official document's blocks)

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];
/** What each container may hold by the official document (DocumentBlockHint, …TabsItem, …StepperStep, …Expandable). */
const MAY_HOLD: Record<string, ReadonlySet<string>> = {
  hint: new Set([...ESSENTIALS, 'embed', 'table']),
  'tabs-item': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math']),
  'stepper-step': new Set([...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math', 'expandable']),
  expandable: new Set([...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'blockquote']),
};

const emptyParagraph = () => block('paragraph', [textNode([])]);

/** Blocks a container may hold, and those it may not (which follow it). */
function sortOut(type: string, blocks: BlockNode[]): [BlockNode[], BlockNode[]] {
  const allowed = MAY_HOLD[type];
  const kept: BlockNode[] = [];
  const out: BlockNode[] = [];
  for (const b of blocks) (allowed.has(b.type) ? kept : out).push(b);
  return [kept, out];
}

function segmentBlocks(segments: readonly Segment[], opts: ReadOptions): BlockNode[] {
  const out: BlockNode[] = [];
  for (const s of segments) out.push(...(s.kind === 'md' ? markdownBlocks(s.text, opts) : tagBlocks(s.tag, opts)));
  return out;
}

/** Inline Markdown (a summary, a caption) as a paragraph's nodes. */
function inlineOfMarkdown(markdown: string, opts: ReadOptions): BlockNode['nodes'] {
  const tree = parseStored(markdown, opts);
  const first = tree.children[0];
  if (tree.children.length === 1 && first.type === 'paragraph') return inlineNodes(first.children, definitionsOf(tree));
  return [textNode(markdown ? [leaf(markdown)] : [])];
}

/** A file tag's `src`: `file:ID` is that file, else the path as written (views resolve it: resolveRefs in content/links.ts). */
const fileRef = (src: string) => ({ kind: 'file', file: src.startsWith('file:') ? src.slice(5) : src });

/** The body of a tag whose body the document does not hold: dropped when it is only the conventional link, else it follows. */
function bodyAfter(tag: TagNode, opts: ReadOptions): BlockNode[] {
  const text = tag.children
    .map((c) => (c.kind === 'md' ? c.text : '\0'))
    .join('\n')
    .trim();
  if (text === '' || /^\[[^\]\n]*\]\([^)\n]*\)$/.test(text)) return [];
  return segmentBlocks(tag.children, opts);
}

function tagBlocks(tag: TagNode, opts: ReadOptions): BlockNode[] {
  const a = tag.attrs;
  switch (tag.name) {
    case 'hint': {
      // Like a quote: what a hint may not hold ends it, and follows it; the hint goes on after.
      const out: BlockNode[] = [];
      let run: BlockNode[] = [];
      const data = { style: a.style };
      for (const b of segmentBlocks(tag.children, opts)) {
        if (MAY_HOLD.hint.has(b.type)) run.push(b);
        else {
          if (run.length > 0) out.push(block('hint', run, data));
          run = [];
          out.push(b);
        }
      }
      if (run.length > 0 || out.length === 0) out.push(block('hint', run.length > 0 ? run : [emptyParagraph()], data));
      return out;
    }
    case 'tabs':
    case 'stepper': {
      const itemType = tag.name === 'tabs' ? 'tabs-item' : 'stepper-step';
      const items: BlockNode[] = [];
      const after: BlockNode[] = [];
      for (const child of tag.children) {
        if (child.kind === 'tag' && (child.tag.name === 'tab' || child.tag.name === 'step')) {
          const [kept, out] = sortOut(itemType, segmentBlocks(child.tag.children, opts));
          items.push(block(itemType, kept.length > 0 ? kept : [emptyParagraph()], itemType === 'tabs-item' ? { title: child.tag.attrs.title ?? '' } : {}));
          after.push(...out);
        } else after.push(...segmentBlocks([child], opts));
      }
      return items.length > 0 ? [block(tag.name, items), ...after] : after;
    }
    case 'details': {
      const [kept, out] = sortOut('expandable', segmentBlocks(tag.children, opts));
      const expandable: BlockNode = {
        ...voidBlock('expandable', a.open === 'true' ? { defaultExpanded: true } : {}),
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-title',
            type: 'expandable-title',
            nodes: [block('paragraph', inlineOfMarkdown(tag.summary ?? '', opts))],
          },
          { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: kept.length > 0 ? kept : [emptyParagraph()] },
        ],
      };
      return [expandable, ...out];
    }
    case 'code': {
      const data: Record<string, unknown> = {};
      if (a.title) data.title = a.title;
      if (a.lineNumbers === 'true') data.lineNumbers = true;
      if (a.overflow === 'wrap' || a.overflow === 'scroll') data.overflow = a.overflow;
      if (a.fullWidth === 'true') data.fullWidth = true;
      return segmentBlocks(tag.children, opts).map((b) => (b.type === 'code' ? { ...b, data: { ...b.data, ...data } } : b));
    }
    case 'embed':
      return [voidBlock('embed', { url: a.url })];
    case 'file':
      return [voidBlock('file', { ref: fileRef(a.src) })];
    case 'content-ref':
      return [voidBlock('content-ref', { ref: { kind: 'url', url: a.url } }), ...bodyAfter(tag, opts)];
    case 'openapi':
      return [voidBlock('swagger', { ref: { kind: 'url', url: a.src }, path: a.path ?? '', method: a.method ?? '' }), ...bodyAfter(tag, opts)];
    case 'math':
      return [voidBlock('math', { formula: tag.formula ?? '' })];
    default:
      return segmentBlocks(tag.children, opts);
  }
}

/** Images written as HTML figures (`<figure><img src alt><figcaption><p>caption</p></figcaption></figure>`, one or more), or undefined. */
function figuresOf(html: string, opts: ReadOptions): BlockNode | undefined {
  const images: BlockNode[] = [];
  let rest = html.trim();
  while (rest !== '') {
    if (!rest.startsWith('<figure><img ')) return undefined;
    const imgEnd = rest.indexOf('>', 13);
    if (imgEnd < 0) return undefined;
    const attrs = parseImgAttributes(rest.slice(13, imgEnd));
    if (!attrs?.src) return undefined;
    rest = rest.slice(imgEnd + 1);
    let caption: string | undefined;
    if (rest.startsWith('<figcaption>')) {
      const end = rest.indexOf('</figcaption>');
      if (end < 0) return undefined;
      caption = rest.slice(12, end).trim();
      if (caption.startsWith('<p>') && caption.endsWith('</p>')) caption = caption.slice(3, -4);
      rest = rest.slice(end + 13);
    }
    if (!rest.startsWith('</figure>')) return undefined;
    rest = rest.slice(9).trimStart();
    const image = imageBlock({ type: 'image', url: decodeEntities(attrs.src), alt: decodeEntities(attrs.alt ?? '') }, new Map());
    if (caption) image.fragments = [{ object: 'fragment', fragment: 'caption', type: 'caption', nodes: [block('paragraph', inlineOfMarkdown(caption, opts))] }];
    images.push(image);
  }
  return images.length > 0 ? { ...block('images', images), isVoid: false } : undefined;
}

function parseImgAttributes(text: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  // parseAttributes decodes entities; the URL and alt text are decoded once, by figuresOf.
  const raw = trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
  return parseRawAttributes(raw);
}

function parseRawAttributes(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of text.split(/(?<=")\s+/)) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0 || !part.endsWith('"') || part[eq + 1] !== '"' || part.length < eq + 3) return undefined;
    out[part.slice(0, eq).trim()] = part.slice(eq + 2, -1);
  }
  return out;
}

export function markdownToDocument(markdown: string, opts: ReadOptions = {}): DocumentNode {
  const nodes = documentBlocks(markdown, opts);
  assignKeys(nodes);
  return { object: 'document', data: { schemaVersion: 1 }, nodes };
}

// ---------------------------------------------------------------------------------------
// Document -> mdast -> Markdown (documents come from clients too: read them leniently)

type AnyNode = { object?: string; type?: string; data?: Record<string, unknown>; nodes?: AnyNode[]; leaves?: Leaf[]; fragments?: Fragment[] };

/** A leaf, or a whole link with the marks all its leaves share (code excluded: it stays inside the link). */
type Unit = { k: 'leaf'; text: string; marks: MarkType[] } | { k: 'link'; url: string; units: Unit[]; marks: MarkType[] };

function leafUnits(leaves: readonly Leaf[]): Unit[] {
  const units: Unit[] = [];
  for (const l of leaves) {
    if (!l.text) continue;
    const marks = MARK_ORDER.filter((m) => l.marks?.some((mark) => mark.type === m));
    const last = units[units.length - 1];
    if (last?.k === 'leaf' && last.marks.join() === marks.join()) last.text += l.text;
    else units.push({ k: 'leaf', text: l.text, marks });
  }
  return units;
}

function inlineUnits(nodes: readonly AnyNode[]): Unit[] {
  const units: Unit[] = [];
  let leaves: Leaf[] = [];
  const flush = () => {
    units.push(...leafUnits(leaves));
    leaves = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') leaves.push(...(node.leaves ?? []));
    else if (node.object === 'inline' && node.type === 'link') {
      flush();
      const inner = leafUnits((node.nodes ?? []).flatMap((t) => t.leaves ?? []));
      const shared = MARK_ORDER.filter((m) => m !== 'code' && inner.length > 0 && inner.every((u) => u.marks.includes(m)));
      const url = hrefOf(node.data?.ref);
      units.push({ k: 'link', url, units: inner, marks: shared });
    } else if (node.nodes) {
      flush();
      units.push(...inlineUnits(node.nodes));
    }
  }
  flush();
  return units;
}

const MARK_NODE = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' } as const;

/** Units as phrasing content: marks wrap the longest stretches of units sharing them. */
function phrasing(units: Unit[], open: readonly MarkType[]): M.PhrasingContent[] {
  const out: M.PhrasingContent[] = [];
  let i = 0;
  while (i < units.length) {
    const unit = units[i];
    let best: { mark: 'bold' | 'italic' | 'strikethrough'; end: number } | null = null;
    for (const mark of ['bold', 'italic', 'strikethrough'] as const) {
      if (!unit.marks.includes(mark) || open.includes(mark)) continue;
      let end = i + 1;
      while (end < units.length && units[end].marks.includes(mark)) end++;
      if (!best || end > best.end) best = { mark, end };
    }
    if (best) {
      out.push({ type: MARK_NODE[best.mark], children: phrasing(units.slice(i, best.end), [...open, best.mark]) } as M.PhrasingContent);
      i = best.end;
      continue;
    }
    if (unit.k === 'link') out.push({ type: 'link', url: unit.url, children: phrasing(unit.units, open) as M.Link['children'] });
    else if (unit.marks.includes('code')) out.push({ type: 'inlineCode', value: unit.text.replace(/\n/g, ' ') });
    else {
      unit.text.split('\n').forEach((line, j) => {
        if (j > 0) out.push({ type: 'break' });
        if (line) out.push({ type: 'text', value: line });
      });
    }
    i++;
  }
  return out;
}

const inlineOf = (nodes: readonly AnyNode[] = []) => phrasing(inlineUnits(nodes), []);

function textOfNodes(nodes: readonly AnyNode[] = []): string {
  return nodes.map((n) => (n.object === 'text' ? (n.leaves ?? []).map((l) => l.text).join('') : textOfNodes(n.nodes))).join('');
}

function mdastBlocks(nodes: readonly AnyNode[]): M.RootContent[] {
  const out: M.RootContent[] = [];
  for (const b of nodes) {
    if (b.object !== 'block') continue;
    const data = b.data ?? {};
    const children = (b.nodes ?? []).filter((n) => n.object === 'block');
    const heading = /^heading-([1-6])$/.exec(b.type ?? '');
    if (heading) {
      out.push({ type: 'heading', depth: Number(heading[1]) as M.Heading['depth'], children: inlineOf(b.nodes) });
      continue;
    }
    switch (b.type) {
      case 'paragraph':
        out.push({ type: 'paragraph', children: inlineOf(b.nodes) });
        break;
      case 'code': {
        const code: M.Code = {
          type: 'code',
          lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null,
          value: children.map((line) => textOfNodes(line.nodes)).join('\n'),
        };
        // A title, line numbers, wrapping or full width: Git Sync's `{% code %}` around the fence.
        const attrs = [
          typeof data.title === 'string' && data.title ? `title="${attribute(data.title)}"` : '',
          data.overflow === 'wrap' ? 'overflow="wrap"' : '',
          data.lineNumbers === true ? 'lineNumbers="true"' : '',
          data.fullWidth === true ? 'fullWidth="true"' : '',
        ].filter(Boolean);
        if (attrs.length > 0) out.push(html(`{% code ${attrs.join(' ')} %}`), code, html('{% endcode %}'));
        else out.push(code);
        break;
      }
      case 'blockquote':
        out.push({ type: 'blockquote', children: mdastBlocks(children) as M.BlockContent[] });
        break;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        out.push({
          type: 'list',
          ordered: b.type === 'list-ordered',
          spread: false,
          ...(b.type === 'list-ordered' ? { start: typeof data.start === 'number' ? data.start : 1 } : {}),
          children: children.map((item) => ({
            type: 'listItem',
            spread: false,
            ...(b.type === 'list-tasks' ? { checked: item.data?.checked === true } : {}),
            children: mdastBlocks((item.nodes ?? []).filter((n) => n.object === 'block')) as M.ListItem['children'],
          })),
        });
        break;
      case 'divider':
        out.push({ type: 'thematicBreak' });
        break;
      case 'images':
        if (children.some((img) => captionOf(img).length > 0)) {
          // With a caption: HTML figures, one a line (Git Sync's syntax).
          out.push(html(children.map(figure).join('\n')));
          break;
        }
        out.push({
          type: 'paragraph',
          children: children.map((img) => ({ type: 'image', url: hrefOf(img.data?.ref), alt: typeof img.data?.alt === 'string' ? img.data.alt : '' })),
        });
        break;
      case 'table':
        out.push(mdastTable(b));
        break;
      default:
        if (b.type && b.type in GITBOOK_WRITERS) {
          out.push(...GITBOOK_WRITERS[b.type](b, data, children));
          break;
        }
        if (children.length > 0) out.push(...mdastBlocks(children));
        else if (b.nodes?.length) out.push({ type: 'paragraph', children: inlineOf(b.nodes) });
    }
  }
  return out;
}

function mdastTable(b: AnyNode): M.Table {
  const data = b.data as {
    view?: { columns?: string[] };
    records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
    definition?: Record<string, { title?: string; textAlignment?: string }>;
  };
  const columns = data.view?.columns ?? Object.keys(data.definition ?? {});
  const fragments = new Map((b.fragments ?? []).map((f) => [f.fragment, f]));
  const cell = (value: unknown): M.TableCell => {
    const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
    const content = fragment
      ? fragment.nodes.flatMap((n) => inlineOf(n.nodes))
      : typeof value === 'string' || typeof value === 'number'
        ? [{ type: 'text' as const, value: String(value) }]
        : [];
    return { type: 'tableCell', children: content };
  };
  const records = Object.values(data.records ?? {}).sort((x, y) => ((x.orderIndex ?? '') < (y.orderIndex ?? '') ? -1 : 1));
  return {
    type: 'table',
    align: columns.map((c) =>
      ['center', 'right'].includes(data.definition?.[c]?.textAlignment ?? '') ? (data.definition![c].textAlignment as M.AlignType) : null,
    ),
    children: [
      { type: 'tableRow', children: columns.map((c) => ({ type: 'tableCell', children: [{ type: 'text', value: data.definition?.[c]?.title ?? '' }] })) },
      ...records.map((r): M.TableRow => ({ type: 'tableRow', children: columns.map((c) => cell(r.values?.[c])) })),
    ],
  };
}

/** How deep the blocks of a document nest (walked without recursion). */
function documentDepth(nodes: readonly AnyNode[]): number {
  let deepest = 0;
  const stack: [AnyNode, number][] = nodes.map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.nodes ?? []) stack.push([child, depth + 1]);
    for (const f of node.fragments ?? []) for (const child of f.nodes) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * What writing a document as Markdown costs, in the units of markdownCost, counted without writing
 * it: 4 for each node and leaf, and one for each 32 characters of text (measured: writing takes
 * about 60 µs a node and 0.4 µs a character where reading takes about 20 µs a unit).
 */
export function documentCost(doc: DocumentNode): number {
  let nodes = 0;
  let text = 0;
  const stack: AnyNode[] = [...(doc.nodes as AnyNode[])];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes++;
    for (const l of node.leaves ?? []) {
      nodes++;
      text += typeof l.text === 'string' ? l.text.length : 0;
    }
    for (const child of node.nodes ?? []) stack.push(child);
    for (const f of node.fragments ?? []) for (const child of f.nodes) stack.push(child);
  }
  return 4 * nodes + Math.ceil(text / 32);
}

/** How a document's reference to content is written as a link (the default: `hrefOf`). */
export type RefWriter = (ref: Record<string, unknown>) => string | undefined;

/** A reference as written by default: a URL as it is, a file as `file:ID` (a path as it is), a page as `/ID`, an anchor after `#`. */
function defaultHref(ref: Record<string, unknown>): string {
  const { url, file, page, anchor } = ref as { url?: string; file?: string; page?: string; anchor?: string };
  if (typeof url === 'string') return url;
  if (typeof file === 'string') return file.includes('/') ? file : `file:${file}`;
  if (typeof page === 'string') return `/${page}${typeof anchor === 'string' && anchor ? `#${anchor}` : ''}`;
  return '';
}

/** The writer in use (documentToMarkdown's `refs`, during one call). */
let refWriter: RefWriter | undefined;

function hrefOf(ref: unknown): string {
  if (typeof ref !== 'object' || ref === null) return '';
  const r = ref as Record<string, unknown>;
  return refWriter?.(r) ?? defaultHref(r);
}

const html = (value: string): M.Html => ({ type: 'html', value });
const phrasingMarkdown = (nodes: readonly AnyNode[] = []) =>
  writeMarkdown({ type: 'root', children: [{ type: 'paragraph', children: inlineOf(nodes) }] }).trim();

function captionOf(img: AnyNode): AnyNode[] {
  const caption = (img.fragments ?? []).find((f) => f.fragment === 'caption');
  return (caption?.nodes ?? []).flatMap((p) => (p.nodes ?? []) as AnyNode[]).filter((n) => textOfNodes([n]) !== '' || n.object !== 'text');
}

function figure(img: AnyNode): string {
  const caption = captionOf(img).length > 0 ? phrasingMarkdown(captionOf(img)) : '';
  const alt = typeof img.data?.alt === 'string' ? img.data.alt : '';
  return `<figure><img src="${attribute(hrefOf(img.data?.ref))}" alt="${attribute(alt)}">${caption ? `<figcaption><p>${caption.replace(/\n/g, ' ')}</p></figcaption>` : ''}</figure>`;
}

/** GitBook's blocks as Git Sync writes them (docs/content-export.md): tags around their content. */
const GITBOOK_WRITERS: Record<string, (b: AnyNode, data: Record<string, unknown>, children: AnyNode[]) => M.RootContent[]> = {
  hint: (_, data, children) => [
    html(`{% hint style="${attribute(typeof data.style === 'string' ? data.style : 'info')}" %}`),
    ...mdastBlocks(children),
    html('{% endhint %}'),
  ],
  tabs: (_, __, children) => [
    html('{% tabs %}'),
    ...children.flatMap((tab) => [
      html(`{% tab title="${attribute(typeof tab.data?.title === 'string' ? tab.data.title : '')}" %}`),
      ...mdastBlocks((tab.nodes ?? []).filter((n) => n.object === 'block')),
      html('{% endtab %}'),
    ]),
    html('{% endtabs %}'),
  ],
  stepper: (_, __, children) => [
    html('{% stepper %}'),
    ...children.flatMap((step) => [html('{% step %}'), ...mdastBlocks((step.nodes ?? []).filter((n) => n.object === 'block')), html('{% endstep %}')]),
    html('{% endstepper %}'),
  ],
  expandable: (b, data) => {
    const fragment = (name: string) => (b.fragments ?? []).find((f) => f.fragment === name)?.nodes ?? [];
    const title = phrasingMarkdown(fragment('expandable-title').flatMap((p) => (p.nodes ?? []) as AnyNode[])).replace(/\n/g, ' ');
    return [
      html(`${data.defaultExpanded === true ? '<details open>' : '<details>'}\n<summary>${title}</summary>`),
      ...mdastBlocks(fragment('expandable-body')),
      html('</details>'),
    ];
  },
  embed: (_, data) => [html(`{% embed url="${attribute(typeof data.url === 'string' ? data.url : '')}" %}`)],
  file: (_, data) => [html(`{% file src="${attribute(hrefOf(data.ref))}" %}\n{% endfile %}`)],
  'content-ref': (_, data) => {
    const href = hrefOf(data.ref);
    return [
      html(
        `{% content-ref url="${attribute(href)}" %}\n[${href.replace(/[\\[\]]/g, '\\$&')}](${href.replace(/\s/g, encodeURIComponent).replace(/[()<>]/g, '\\$&')})\n{% endcontent-ref %}`,
      ),
    ];
  },
  swagger: (_, data) => {
    const text = (v: unknown) => attribute(typeof v === 'string' ? v : '');
    return [html(`{% openapi src="${attribute(hrefOf(data.ref))}" path="${text(data.path)}" method="${text(data.method)}" %}\n{% endopenapi %}`)];
  },
  math: (_, data) => [html(`$$\n${typeof data.formula === 'string' ? data.formula : ''}\n$$`)],
};

/** Markdown of a document (any JSONDocument: blocks outside Markdown keep their text); `refs` writes its references to content. */
export function documentToMarkdown(doc: DocumentNode, refs?: RefWriter): string {
  // A quote or list level is two nodes deep (a list and its item), text sits two below a block, and GitBook's blocks nest as deep again.
  if (documentDepth(doc.nodes) > 4 * MAX_NESTING + 3) throw new MarkdownTooDeep();
  refWriter = refs;
  try {
    return writeMarkdown({ type: 'root', children: mdastBlocks(doc.nodes) });
  } finally {
    refWriter = undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Sections, plain text, links

/** Plain text of blocks: one entry per block (list items, code lines and table rows on their own lines). */
function blocksPlainText(blocks: BlockNode[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    const children = b.nodes.filter(isBlock);
    let text: string;
    if (b.type === 'images') text = children.map((img) => (typeof img.data.alt === 'string' ? img.data.alt : '')).join(' ');
    else if (b.type === 'code') text = children.map((line) => textOfNodes(line.nodes)).join('\n');
    else if (b.type === 'table') text = (b.fragments ?? []).map((f) => blocksPlainText(f.nodes).join(' ')).join('\n');
    else if (b.type.startsWith('list-')) text = children.map((item) => blocksPlainText(item.nodes.filter(isBlock)).join('\n')).join('\n');
    else if (b.fragments && b.fragments.length > 0) text = b.fragments.map((f) => blocksPlainText(f.nodes).join('\n\n')).join('\n\n');
    else if (children.length > 0) text = blocksPlainText(children).join('\n\n');
    else text = textOfNodes(b.nodes);
    if (text.trim() !== '') out.push(text);
  }
  return out;
}

/** The page cut at its headings: ids are slugs of the titles (made unique), bodies plain text. */
export function splitSections(markdown: string, opts: ReadOptions = {}): Section[] {
  const sections: Section[] = [];
  const used = new Set<string>();
  // Per base, the next number to try: those tried before stay used (linear for many equal titles).
  const nextOf = new Map<string, number>();
  const uniqueId = (base: string) => {
    let n = nextOf.get(base) ?? 1;
    let id = n === 1 ? base : `${base}-${n}`;
    while (used.has(id)) id = `${base}-${++n}`;
    nextOf.set(base, n + 1);
    used.add(id);
    return id;
  };
  let current: { id: string; title: string; blocks: BlockNode[] } | null = null;
  const close = () => {
    if (current) sections.push({ id: current.id, title: current.title, body: blocksPlainText(current.blocks).join('\n\n') });
  };
  for (const b of documentBlocks(markdown, opts)) {
    if (b.type.startsWith('heading-')) {
      close();
      const title = textOfNodes(b.nodes).trim();
      current = { id: uniqueId(slugify(title)), title, blocks: [] };
    } else {
      current ??= { id: uniqueId('intro'), title: '', blocks: [] };
      current.blocks.push(b);
    }
  }
  close();
  return sections;
}

/** Spans of the destinations written in the source (of inline links, images and definitions), by start. */
function destinationSpans(markdown: string): { start: number; end: number }[] {
  const events = postprocess(
    parse(micromarkOptions)
      .document()
      .write(preprocess()(markdown, undefined, true)),
  );
  const spans: { start: number; end: number }[] = [];
  for (const [kind, token] of events) {
    if (kind === 'enter' && (token.type === 'resourceDestination' || token.type === 'definitionDestination')) {
      spans.push({ start: token.start.offset, end: token.end.offset });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** What every link needs: a `[` (links, images, references), a `<` (autolinks), or what a GFM autolink literal starts with. */
const LINK_MARKERS = /[[<]|@|www\.|https?:/i;

/**
 * Every link, image and autolink of the Markdown, in source order (reference links with the
 * destination of their definition); never what is inside code. `written: false` leaves out where
 * each destination is written (`written`, which reads the text a second time).
 */
export function extractLinks(markdown: string, opts: ReadOptions & { written?: boolean } = {}): ExtractedLink[] {
  if (!LINK_MARKERS.test(markdown)) return [];
  const tree = parseStored(markdown, opts);
  const where = opts.written !== false;
  let spans: { start: number; end: number }[] | undefined;
  /** The first destination span in [from, to): spans do not overlap, so the first starting at `from` or after, if it ends by `to`. */
  const spanIn = (from: number, to: number) => {
    spans ??= destinationSpans(markdown);
    let [lo, hi] = [0, spans.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid].start < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < spans.length && spans[lo].end <= to ? spans[lo] : undefined;
  };
  const definitions = new Map<string, M.Definition>();
  const links: ExtractedLink[] = [];
  const stack: M.Nodes[] = [tree];
  const found: (M.Link | M.Image | M.LinkReference | M.ImageReference)[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    if (node.type === 'link' || node.type === 'image' || node.type === 'linkReference' || node.type === 'imageReference') found.push(node);
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  for (const node of found) {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? start;
    const image = node.type === 'image' || node.type === 'imageReference';
    const text = (image ? (node.alt ?? '') : phrasingText((node as M.Link).children)).replace(/\s+/g, ' ').trim();
    let href: string;
    let written: ExtractedLink['written'];
    if (node.type === 'linkReference' || node.type === 'imageReference') {
      const def = definitions.get(node.identifier);
      if (!def) continue;
      href = def.url;
      const span = where ? spanIn(def.position?.start.offset ?? 0, def.position?.end.offset ?? 0) : undefined;
      if (span) written = { ...span, form: 'destination' };
    } else {
      href = node.url;
      if (where && (markdown[start] === '[' || markdown[start] === '!')) {
        // An inline link's destination follows its text (which may hold an image with its own).
        const children = node.type === 'link' ? node.children : [];
        const after = children.length > 0 ? (children[children.length - 1].position?.end.offset ?? start) : start;
        const span = spanIn(after, end);
        if (span) written = { ...span, form: 'destination' };
      } else if (where) {
        written = { start, end, form: 'autolink' }; // `<url>`, or a literal URL (GFM)
      }
    }
    links.push({ href, text, offset: start, ...(image ? { image: true as const } : {}), ...(written ? { written } : {}) });
  }
  return links.sort((a, b) => a.offset - b.offset);
}
