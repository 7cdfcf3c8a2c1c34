/**
 * Markdown helpers for the sandbox server: slugs, conversion between Markdown and the
 * service's rich-text Document model, link extraction, sections and plain text.
 *
 * Supported Markdown subset (a CommonMark-flavoured reading of it):
 * - blocks: ATX headings (`#`..`######`; levels 4-6 become `heading-3`), paragraphs,
 *   bullet and ordered lists (nested by indentation, lazy continuation lines), fenced code
 *   (``` or ~~~ with a language), blockquotes, thematic breaks (`---`, `***`, `___`) and
 *   paragraphs made of a single image. Setext headings, indented code, HTML, tables and
 *   reference links are not recognised and read as paragraph text; a `---` right under a
 *   paragraph line is a divider, not a setext underline.
 * - inlines: backslash escapes, code spans, `*`/`_` emphasis (CommonMark delimiter rules),
 *   inline links and images `[text](url "title")` (the title is dropped), and URI autolinks
 *   `<scheme:...>`. Line breaks inside a paragraph become spaces (hard breaks are not
 *   kept: a backslash ending a line stays literal). An image that is not alone in its
 *   paragraph becomes a link to the image (its text is the alt text), and an image inside
 *   a link text is reduced to its alt text.
 * - quotes and lists nest at most MAX_NESTING deep; deeper markers read as text.
 *
 * For documents produced by `markdownToDocument`, `documentToMarkdown` is an inverse:
 * converting its output again gives a deep-equal document. Known exception: emphasis
 * whose text ends (or starts) with punctuation right next to a letter, inside other
 * emphasis, e.g. leaves `[bold+italic "<"][italic "ue"]` (from `***<**_u_*e*`), which no
 * delimiter choice can write back; such input is contrived and reads back differently.
 */

// ---------------------------------------------------------------------------------------
// Document model
// ---------------------------------------------------------------------------------------

export type MarkType = 'bold' | 'italic' | 'code';

/** A mark on a leaf (the official document's DocumentTextMark). */
export interface Mark {
  object: 'mark';
  type: MarkType;
}

export interface Leaf {
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

export interface BlockNode {
  object: 'block';
  type: string;
  key: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  nodes: (BlockNode | TextNode | InlineNode)[];
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
  /** Offset in the Markdown source of the `[`, `![` or `<` starting the link. */
  offset: number;
  image?: true;
}

export interface Section {
  id: string;
  title: string;
  body: string;
}

/** Canonical order of marks on a leaf. */
const MARK_ORDER: readonly MarkType[] = ['bold', 'italic', 'code'];

// ---------------------------------------------------------------------------------------
// Slugs
// ---------------------------------------------------------------------------------------

/** Letters NFKD does not decompose into ASCII. */
const ASCII_FOLD: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i',
};

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u00df\u00e6\u0153\u00f8\u0111\u00f0\u0142\u00fe\u0131]/g, (ch) => ASCII_FOLD[ch]) // ßæœøđðłþı
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug || 'page';
}

// ---------------------------------------------------------------------------------------
// Character classes and small shared scanners
// ---------------------------------------------------------------------------------------

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const UNICODE_PUNCT = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/u;
const ALNUM = /[\p{L}\p{N}]/u;
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const AUTOLINK_URL = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*$/;

const isWhitespace = (ch: string | undefined): boolean => ch === undefined || WHITESPACE.test(ch);
const isPunct = (ch: string | undefined): boolean => ch !== undefined && UNICODE_PUNCT.test(ch);
const isAlnum = (ch: string | undefined): boolean => ch !== undefined && ALNUM.test(ch);

function runLength(s: string, p: number, ch: string): number {
  let q = p;
  while (s[q] === ch) q++;
  return q - p;
}

/** The code span opening at `p` (a backtick), or null when no closing run of equal length follows. */
function matchCodeSpan(s: string, p: number): { content: string; end: number } | null {
  const n = runLength(s, p, '`');
  let q = p + n;
  while (q < s.length) {
    const close = s.indexOf('`', q);
    if (close < 0) return null;
    const m = runLength(s, close, '`');
    if (m === n) {
      let content = s.slice(p + n, close).replace(/\n/g, ' ');
      // One space is stripped from each side when both are present (so code may start with a backtick).
      if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '') {
        content = content.slice(1, -1);
      }
      return { content, end: close + m };
    }
    q = close + m;
  }
  return null;
}

/** The URI autolink `<scheme:...>` starting at `p`, or null. */
function matchAutolink(s: string, p: number): { url: string; end: number } | null {
  AUTOLINK.lastIndex = p;
  const m = AUTOLINK.exec(s);
  return m ? { url: m[1], end: AUTOLINK.lastIndex } : null;
}

function unescapeBackslashes(s: string): string {
  return s.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/**
 * The `(destination "title")` part of an inline link starting at `p`, or null.
 * Destinations are `<...>` or a run of non-space characters with balanced parentheses.
 */
function parseLinkTail(s: string, p: number): { url: string; end: number } | null {
  if (s[p] !== '(') return null;
  let q = p + 1;
  const skipSpace = () => {
    while (q < s.length && (s[q] === ' ' || s[q] === '\t' || s[q] === '\n')) q++;
  };
  skipSpace();
  let rawUrl: string;
  if (s[q] === '<') {
    const start = q + 1;
    q = start;
    while (q < s.length && s[q] !== '>') {
      if (s[q] === '\n' || s[q] === '<') return null;
      q += s[q] === '\\' ? 2 : 1;
    }
    if (q >= s.length) return null;
    rawUrl = s.slice(start, q);
    q++;
  } else {
    const start = q;
    let depth = 0;
    while (q < s.length) {
      const ch = s[q];
      if (ch === '\\' && q + 1 < s.length && ASCII_PUNCT.test(s[q + 1])) {
        q += 2;
        continue;
      }
      if (WHITESPACE.test(ch) || ch < ' ') break;
      if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      }
      q++;
    }
    if (depth !== 0) return null;
    rawUrl = s.slice(start, q);
  }
  const beforeTitle = q;
  skipSpace();
  const open = s[q];
  if (q > beforeTitle && (open === '"' || open === "'" || open === '(')) {
    const close = open === '(' ? ')' : open;
    q++;
    while (q < s.length && s[q] !== close) q += s[q] === '\\' ? 2 : 1;
    if (q >= s.length) return null;
    q++;
    skipSpace();
  }
  if (s[q] !== ')') return null;
  return { url: unescapeBackslashes(rawUrl), end: q + 1 };
}

// ---------------------------------------------------------------------------------------
// Inline parsing
// ---------------------------------------------------------------------------------------

interface DelimToken {
  t: 'delim';
  ch: '*' | '_';
  /** Delimiters still unmatched. */
  count: number;
  /** Length of the original run (for the "rule of 3"). */
  orig: number;
  canOpen: boolean;
  canClose: boolean;
}

type InlineToken =
  | { t: 'text'; s: string }
  | { t: 'code'; s: string }
  | DelimToken
  | { t: 'bracket'; image: boolean }
  | { t: 'emph'; strong: boolean; children: InlineToken[] }
  | { t: 'link'; url: string; children: InlineToken[] }
  | { t: 'image'; src: string; alt: string };

/** Delimiter run of `*` or `_` at [start, end): which sides it may open or close (CommonMark flanking rules). */
function delimToken(s: string, start: number, end: number): DelimToken {
  const ch = s[start] as '*' | '_';
  const before = s[start - 1];
  const after = s[end];
  const left = !isWhitespace(after) && (!isPunct(after) || isWhitespace(before) || isPunct(before));
  const right = !isWhitespace(before) && (!isPunct(before) || isWhitespace(after) || isPunct(after));
  const n = end - start;
  if (ch === '*') return { t: 'delim', ch, count: n, orig: n, canOpen: left, canClose: right };
  return {
    t: 'delim',
    ch,
    count: n,
    orig: n,
    canOpen: left && (!right || isPunct(before)),
    canClose: right && (!left || isPunct(after)),
  };
}

function parseInline(src: string): InlineToken[] {
  const tokens: InlineToken[] = [];
  let buf = '';
  const flush = () => {
    if (buf) tokens.push({ t: 'text', s: buf });
    buf = '';
  };
  // Indices in `tokens` of the `[` and `![` not closed yet; those of `[` below `linkFloor`
  // came before a link that has since been closed, and cannot open a link (links do not nest).
  const brackets: number[] = [];
  let linkFloor = 0;
  let autolink: { url: string; end: number } | null;
  let p = 0;
  while (p < src.length) {
    const c = src[p];
    if (c === '\\') {
      const next = src[p + 1];
      if (next !== undefined && ASCII_PUNCT.test(next)) {
        buf += next;
        p += 2;
      } else {
        buf += c;
        p++;
      }
    } else if (c === '`') {
      const span = matchCodeSpan(src, p);
      if (span) {
        flush();
        tokens.push({ t: 'code', s: span.content });
        p = span.end;
      } else {
        const n = runLength(src, p, '`');
        buf += src.slice(p, p + n);
        p += n;
      }
    } else if (c === '*' || c === '_') {
      const n = runLength(src, p, c);
      flush();
      tokens.push(delimToken(src, p, p + n));
      p += n;
    } else if (c === '[' || (c === '!' && src[p + 1] === '[')) {
      flush();
      brackets.push(tokens.length);
      tokens.push({ t: 'bracket', image: c === '!' });
      p += c === '!' ? 2 : 1;
    } else if (c === ']') {
      flush();
      // Make a link or image of the tokens since the last bracket, if a link tail follows.
      const o = brackets.pop();
      const opener = o === undefined ? undefined : tokens[o];
      const active = opener?.t === 'bracket' && (opener.image || brackets.length >= linkFloor);
      linkFloor = Math.min(linkFloor, brackets.length);
      const tail = active ? parseLinkTail(src, p + 1) : null;
      if (o === undefined || opener?.t !== 'bracket' || !tail) {
        if (o !== undefined && opener?.t === 'bracket') tokens[o] = { t: 'text', s: opener.image ? '![' : '[' };
        tokens.push({ t: 'text', s: ']' });
        p++;
        continue;
      }
      const children = tokens.splice(o).slice(1);
      processEmphasis(children);
      if (opener.image) {
        tokens.push({ t: 'image', src: tail.url, alt: tokensPlainText(children) });
      } else {
        tokens.push({ t: 'link', url: tail.url, children });
        linkFloor = brackets.length;
      }
      p = tail.end;
    } else if (c === '<' && (autolink = matchAutolink(src, p))) {
      flush();
      tokens.push({ t: 'link', url: autolink.url, children: [{ t: 'text', s: autolink.url }] });
      p = autolink.end;
    } else {
      buf += c;
      p++;
    }
  }
  flush();
  processEmphasis(tokens);
  return tokens;
}

/** CommonMark "process emphasis": pair delimiter runs into emphasis nodes, in place. */
function processEmphasis(tokens: InlineToken[]): void {
  // Per kind of closer, the index at and below which no opener can match it (CommonMark's
  // openers_bottom, which keeps unmatched closers from rescanning the same openers).
  const bottoms = new Map<string, number>();
  let c = 0;
  while (c < tokens.length) {
    const closer = tokens[c];
    if (closer.t !== 'delim' || !closer.canClose || closer.count === 0) {
      c++;
      continue;
    }
    const kind = `${closer.ch}${closer.canOpen}${closer.orig % 3}`;
    const bottom = bottoms.get(kind) ?? -1;
    let o = c - 1;
    for (; o > bottom; o--) {
      const op = tokens[o];
      if (op.t !== 'delim' || op.ch !== closer.ch || !op.canOpen) continue;
      // Rule of 3: a run that can both open and close only pairs when the lengths do not sum to a multiple of 3.
      const bothWays = op.canClose || closer.canOpen;
      if (bothWays && (op.orig + closer.orig) % 3 === 0 && !(op.orig % 3 === 0 && closer.orig % 3 === 0)) continue;
      break;
    }
    if (o <= bottom) {
      bottoms.set(kind, c - 1);
      c++;
      continue;
    }
    const opener = tokens[o] as DelimToken;
    const n = opener.count >= 2 && closer.count >= 2 ? 2 : 1;
    opener.count -= n;
    closer.count -= n;
    const emph: InlineToken = { t: 'emph', strong: n === 2, children: [] };
    emph.children = tokens.splice(o + 1, c - o - 1, emph);
    // Tokens from `o` on move; lowering a bottom only means searching more.
    for (const [k, b] of bottoms) if (b >= o) bottoms.set(k, o - 1);
    c = o + 2;
    if (opener.count === 0) {
      tokens.splice(o, 1);
      c--;
    }
    if (closer.count === 0) tokens.splice(c, 1);
  }
}

function tokensPlainText(tokens: InlineToken[]): string {
  let out = '';
  for (const tok of tokens) {
    switch (tok.t) {
      case 'text':
      case 'code':
        out += tok.s;
        break;
      case 'delim':
        out += tok.ch.repeat(tok.count);
        break;
      case 'bracket':
        out += tok.image ? '![' : '[';
        break;
      case 'emph':
      case 'link':
        out += tokensPlainText(tok.children);
        break;
      case 'image':
        out += tok.alt;
        break;
    }
  }
  return out.replace(/\n/g, ' ');
}

// ---------------------------------------------------------------------------------------
// Inline tokens -> document nodes
// ---------------------------------------------------------------------------------------

function leaf(text: string, marks: readonly MarkType[] = []): Leaf {
  return { object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) };
}

function textNode(leaves: Leaf[]): TextNode {
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] };
}

function linkNode(url: string, leaves: Leaf[]): InlineNode {
  return { object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [textNode(leaves)] };
}

function withMark(marks: readonly MarkType[], mark: MarkType): MarkType[] {
  return MARK_ORDER.filter((m) => m === mark || marks.includes(m));
}

function sameMarks(a: Leaf, marks: readonly MarkType[]): boolean {
  return a.marks.length === marks.length && a.marks.every((m, i) => m.type === marks[i]);
}

/** Append text to a leaf list, merging with the last leaf when the marks are equal. */
function pushLeaf(leaves: Leaf[], text: string, marks: readonly MarkType[]): void {
  if (!text) return;
  const last = leaves[leaves.length - 1];
  if (last && sameMarks(last, marks)) last.text += text;
  else leaves.push(leaf(text, marks));
}

/**
 * Walk inline tokens in order, reporting text with its marks. Links and images go to
 * `onLink` when given; without it (inside a link text) only their text is reported.
 */
function walkInline(
  tokens: InlineToken[],
  marks: readonly MarkType[],
  onText: (text: string, marks: readonly MarkType[]) => void,
  onLink?: (url: string, leaves: Leaf[]) => void,
): void {
  for (const tok of tokens) {
    switch (tok.t) {
      case 'text':
        onText(tok.s.replace(/\n/g, ' '), marks);
        break;
      case 'code':
        onText(tok.s, withMark(marks, 'code'));
        break;
      case 'delim':
        onText(tok.ch.repeat(tok.count), marks);
        break;
      case 'bracket':
        onText(tok.image ? '![' : '[', marks);
        break;
      case 'emph':
        walkInline(tok.children, withMark(marks, tok.strong ? 'bold' : 'italic'), onText, onLink);
        break;
      case 'link':
        if (onLink) onLink(tok.url, linkLeaves(tok.children, marks));
        else walkInline(tok.children, marks, onText);
        break;
      case 'image':
        if (onLink) onLink(tok.src, linkLeaves([{ t: 'text', s: tok.alt || tok.src }], marks));
        else onText(tok.alt, marks);
        break;
    }
  }
}

function linkLeaves(tokens: InlineToken[], marks: readonly MarkType[]): Leaf[] {
  const leaves: Leaf[] = [];
  walkInline(tokens, marks, (text, m) => pushLeaf(leaves, text, m));
  return leaves;
}

/** Inline tokens as text nodes (one per stretch between links) and link nodes. */
function inlineNodes(tokens: InlineToken[]): (TextNode | InlineNode)[] {
  const out: (TextNode | InlineNode)[] = [];
  let leaves: Leaf[] = [];
  walkInline(
    tokens,
    [],
    (text, marks) => pushLeaf(leaves, text, marks),
    (url, linkText) => {
      if (leaves.length > 0) out.push(textNode(leaves));
      leaves = [];
      out.push(linkNode(url, linkText));
    },
  );
  if (leaves.length > 0 || out.length === 0) out.push(textNode(leaves));
  return out;
}

// ---------------------------------------------------------------------------------------
// Block parsing
// ---------------------------------------------------------------------------------------

function block(type: string, nodes: BlockNode['nodes'], data: Record<string, unknown> = {}): BlockNode {
  return { object: 'block', type, key: '', data, nodes };
}

function voidBlock(type: string, data: Record<string, unknown> = {}): BlockNode {
  return { object: 'block', type, key: '', isVoid: true, data, nodes: [] };
}

const isBlank = (line: string): boolean => /^[ \t]*$/.test(line);

/** Width in columns of the leading whitespace (tab stops every 4 columns). */
function indentWidth(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** Remove up to `n` columns of leading whitespace; a tab crossing column `n` leaves its remainder as spaces. */
function stripIndent(line: string, n: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < n) {
    if (line[i] === ' ') col++;
    else if (line[i] === '\t') {
      const width = 4 - (col % 4);
      if (col + width > n) return ' '.repeat(col + width - n) + line.slice(i + 1);
      col += width;
    } else break;
    i++;
  }
  return line.slice(i);
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BLOCKQUOTE = /^ {0,3}> ?/;

interface Fence {
  indent: number;
  ch: string;
  length: number;
  info: string;
}

function matchFenceOpen(line: string): Fence | null {
  const m = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
  if (!m || (m[2][0] === '`' && m[3].includes('`'))) return null;
  return { indent: m[1].length, ch: m[2][0], length: m[2].length, info: m[3].trim() };
}

function isFenceClose(line: string, fence: Fence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1][0] === fence.ch && m[1].length >= fence.length;
}

interface ListMarker {
  ordered: boolean;
  /** Bullet character, or the `.`/`)` after the number: items with another one start a new list. */
  delimiter: string;
  number: number;
  /** Column where the item content starts. */
  contentCol: number;
  /** First line of the content. */
  rest: string;
}

function matchListItem(line: string): ListMarker | null {
  if (THEMATIC_BREAK.test(line)) return null;
  const m = /^( {0,3})([-+*]|(\d{1,9})([.)]))(?=[ \t]|$)/.exec(line);
  if (!m) return null;
  const markerEnd = m[0].length;
  const after = line.slice(markerEnd);
  // 1-4 spaces after the marker belong to it; more (or none, for an empty item) count as one.
  const width = indentWidth(after);
  const pad = isBlank(after) || width > 4 ? 1 : width;
  return {
    ordered: m[3] !== undefined,
    delimiter: m[4] ?? m[2],
    number: m[3] !== undefined ? Number(m[3]) : 0,
    contentCol: markerEnd + pad,
    rest: isBlank(after) ? '' : stripIndent(after, pad),
  };
}

/** Whether the line starts a block that interrupts a paragraph. */
function startsBlock(line: string): boolean {
  if (matchFenceOpen(line) || HEADING.test(line) || THEMATIC_BREAK.test(line) || BLOCKQUOTE.test(line)) return true;
  const item = matchListItem(line);
  // As in CommonMark, only a non-empty item, and for ordered lists one numbered 1, interrupts a paragraph.
  return item !== null && item.rest !== '' && (!item.ordered || item.number === 1);
}

/** Heading text without its optional closing sequence of `#` (which must follow a space). */
function headingContent(text: string): string {
  const trimmed = text.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  return end === 0 || trimmed[end - 1] === ' ' || trimmed[end - 1] === '\t' ? trimmed.slice(0, end).trimEnd() : trimmed;
}

/**
 * The lines of a container (quote, list item) as they are collected, telling whether the
 * last one is paragraph text, which an unprefixed line may then continue lazily.
 */
class ContainerLines {
  readonly lines: string[] = [];
  private fence: Fence | null = null;
  private text = false;

  push(line: string): void {
    this.lines.push(line);
    if (this.fence) {
      if (isFenceClose(line, this.fence)) this.fence = null;
      this.text = false;
    } else {
      this.fence = matchFenceOpen(line);
      this.text = !this.fence && !isBlank(line) && !HEADING.test(line) && !THEMATIC_BREAK.test(line);
    }
  }

  get endsInParagraph(): boolean {
    return this.text;
  }

  get lastIsBlank(): boolean {
    return isBlank(this.lines[this.lines.length - 1]);
  }
}

/** Quotes and lists nested deeper than this read as paragraph text (bounds the recursion). */
const MAX_NESTING = 32;

function parseBlocks(lines: string[], depth = 0): BlockNode[] {
  const blocks: BlockNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }

    const fence = matchFenceOpen(line);
    if (fence) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !isFenceClose(lines[i], fence)) code.push(stripIndent(lines[i++], fence.indent));
      i++; // the closing fence (an unclosed block runs to the end)
      const syntax = fence.info.split(/\s+/)[0];
      const codeLines = code.map((text) => block('code-line', [textNode([leaf(text)])]));
      blocks.push(block('code', codeLines, syntax ? { syntax } : {}));
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length, 3);
      blocks.push(block(`heading-${level}`, inlineNodes(parseInline(headingContent(heading[2] ?? '')))));
      i++;
      continue;
    }

    if (THEMATIC_BREAK.test(line)) {
      blocks.push(voidBlock('divider'));
      i++;
      continue;
    }

    if (depth < MAX_NESTING && BLOCKQUOTE.test(line)) {
      const inner = new ContainerLines();
      while (i < lines.length) {
        const l = lines[i];
        const prefix = BLOCKQUOTE.exec(l);
        if (prefix) inner.push(l.slice(prefix[0].length));
        else if (!isBlank(l) && !startsBlock(l) && inner.endsInParagraph) inner.push(l);
        else break;
        i++;
      }
      blocks.push(block('blockquote', parseBlocks(inner.lines, depth + 1)));
      continue;
    }

    const first = depth < MAX_NESTING ? matchListItem(line) : null;
    if (first) {
      const items: BlockNode[] = [];
      let marker: ListMarker | null = first;
      while (marker) {
        const content = new ContainerLines();
        content.push(marker.rest);
        i++;
        while (i < lines.length) {
          const l = lines[i];
          if (isBlank(l) || indentWidth(l) >= marker.contentCol) {
            content.push(stripIndent(l, marker.contentCol));
          } else if (!content.lastIsBlank && !startsBlock(l) && !sameList(first, l) && content.endsInParagraph) {
            content.push(l); // lazy continuation of the item's paragraph
          } else {
            break;
          }
          i++;
        }
        items.push(block('list-item', parseBlocks(content.lines, depth + 1)));
        marker = i < lines.length && sameList(first, lines[i]) ? matchListItem(lines[i]) : null;
      }
      blocks.push(block(first.ordered ? 'list-ordered' : 'list-unordered', items));
      continue;
    }

    // Paragraph: up to a blank line or a line starting another block.
    const para = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i])) para.push(lines[i++].trim());
    const tokens = parseInline(para.join('\n'));
    const only = tokens[0];
    if (tokens.length === 1 && only.t === 'image') {
      blocks.push(voidBlock('images', { src: only.src, alt: only.alt }));
    } else {
      blocks.push(block('paragraph', inlineNodes(tokens)));
    }
  }
  return blocks;
}

function sameList(first: ListMarker, line: string): boolean {
  const m = matchListItem(line);
  return m !== null && m.ordered === first.ordered && m.delimiter === first.delimiter;
}

function splitLines(markdown: string): string[] {
  return markdown.replace(/\r\n?/g, '\n').split('\n');
}

/** Give every block a short key, numbering them in document order (base 36). */
function assignKeys(blocks: BlockNode[], counter = { n: 0 }): void {
  for (const b of blocks) {
    b.key = (++counter.n).toString(36);
    assignKeys(b.nodes.filter(isBlock), counter);
  }
}

function isBlock(node: BlockNode | TextNode | InlineNode): node is BlockNode {
  return node.object === 'block';
}

function parseDocumentBlocks(markdown: string): BlockNode[] {
  return parseBlocks(splitLines(markdown));
}

export function markdownToDocument(markdown: string): DocumentNode {
  const nodes = parseDocumentBlocks(markdown);
  assignKeys(nodes);
  return { object: 'document', data: { schemaVersion: 1 }, nodes };
}

// ---------------------------------------------------------------------------------------
// Document -> Markdown
// ---------------------------------------------------------------------------------------

/**
 * Inline content as a tree: emphasis runs wrap the longest stretches of units sharing a
 * mark, so `**a *b* c**` comes back as written instead of one delimiter pair per leaf.
 */
type InlineTree =
  | { k: 'run'; mark: 'bold' | 'italic'; children: InlineTree[] }
  | { k: 'text'; text: string }
  | { k: 'code'; text: string }
  | { k: 'link'; url: string; children: InlineTree[] }
  | { k: 'autolink'; url: string };

/** A leaf, or a whole link with the marks all its leaves share (code excluded: it stays inside the link). */
type Unit =
  | { k: 'leaf'; text: string; marks: MarkType[] }
  | { k: 'link'; url: string; leaves: Unit[]; marks: MarkType[] };

function leafMarks(l: Leaf): MarkType[] {
  return MARK_ORDER.filter((m) => l.marks.some((mark) => mark.type === m));
}

function leafUnits(leaves: Leaf[]): Unit[] {
  const units: Unit[] = [];
  for (const l of leaves) {
    if (!l.text) continue;
    const marks = leafMarks(l);
    const last = units[units.length - 1];
    if (last?.k === 'leaf' && last.marks.join() === marks.join()) last.text += l.text;
    else units.push({ k: 'leaf', text: l.text, marks });
  }
  return units;
}

function inlineUnits(nodes: BlockNode['nodes']): Unit[] {
  const units: Unit[] = [];
  let leaves: Leaf[] = [];
  const flush = () => {
    units.push(...leafUnits(leaves));
    leaves = [];
  };
  for (const node of nodes) {
    if (node.object === 'text') leaves.push(...node.leaves);
    else if (node.object === 'inline') {
      flush();
      const inner = leafUnits(node.nodes.flatMap((t) => t.leaves));
      const shared = MARK_ORDER.filter((m) => m !== 'code' && inner.length > 0 && inner.every((u) => u.marks.includes(m)));
      units.push({ k: 'link', url: node.data.ref.url, leaves: inner, marks: shared });
    }
  }
  flush();
  return units;
}

function buildTree(units: Unit[], open: readonly MarkType[]): InlineTree[] {
  const out: InlineTree[] = [];
  let i = 0;
  while (i < units.length) {
    const unit = units[i];
    // Among the marks still to open here, take the one that extends furthest (bold on ties).
    let best: { mark: 'bold' | 'italic'; end: number } | null = null;
    for (const mark of ['bold', 'italic'] as const) {
      if (!unit.marks.includes(mark) || open.includes(mark)) continue;
      let end = i + 1;
      while (end < units.length && units[end].marks.includes(mark)) end++;
      if (!best || end > best.end) best = { mark, end };
    }
    if (best) {
      out.push({ k: 'run', mark: best.mark, children: buildTree(units.slice(i, best.end), [...open, best.mark]) });
      i = best.end;
      continue;
    }
    if (unit.k === 'leaf') {
      out.push({ k: unit.marks.includes('code') ? 'code' : 'text', text: unit.text });
    } else {
      const only = unit.leaves.length === 1 ? unit.leaves[0] : undefined;
      const plain = only?.k === 'leaf' && only.marks.every((m) => open.includes(m));
      if (plain && only.text === unit.url && AUTOLINK_URL.test(unit.url)) out.push({ k: 'autolink', url: unit.url });
      else out.push({ k: 'link', url: unit.url, children: buildTree(unit.leaves, open) });
    }
    i++;
  }
  return out;
}

/** Escape text so that it reads back literally. */
function escapeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ('\\`*[]'.includes(ch)) out += '\\' + ch;
    // `_` between two letters or digits can neither open nor close emphasis.
    else if (ch === '_' && !(isAlnum(text[i - 1]) && isAlnum(text[i + 1]))) out += '\\_';
    // `<` only matters when it could start an autolink.
    else if (ch === '<' && /[A-Za-z]/.test(text[i + 1] ?? '')) out += '\\<';
    else out += ch;
  }
  return out;
}

function codeSpan(text: string): string {
  const runs = new Set((text.match(/`+/g) ?? []).map((r) => r.length));
  let n = 1;
  while (runs.has(n)) n++;
  const fence = '`'.repeat(n);
  const pad =
    text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '')
      ? ' '
      : '';
  return fence + pad + text + pad + fence;
}

function linkDestination(url: string): string {
  return /[\s()<>\\]/.test(url) ? `<${url.replace(/[\\<>]/g, '\\$&')}>` : url;
}

/**
 * Write inline trees. `alnumBefore`/`alnumAfter` tell whether a letter or digit precedes
 * the first / follows the last node once enclosing emphasis delimiters are skipped.
 *
 * Emphasis delimiters must come out so that they pair back as intended (CommonMark
 * flanking rules):
 * - `_` cannot open or close next to a letter or digit, so a run touching one (directly or
 *   through the enclosing delimiters it merges with) uses `*` / `**`;
 * - otherwise italic is `_` and bold `**`, except that a run directly after another run
 *   uses the other character than it, and one directly before a run forced to `*` avoids
 *   `*` when it can: a closing and an opening delimiter of one character merge into a
 *   single run, which can only both close and open between two letters (or two
 *   punctuation characters).
 */
function writeInline(nodes: InlineTree[], out: { s: string }, alnumBefore: boolean, alnumAfter: boolean): void {
  const alnumAfterNode = (i: number): boolean => {
    const next = nodes[i + 1];
    return next ? next.k === 'text' && isAlnum(next.text[0]) : alnumAfter;
  };
  let previousDelim = '';
  nodes.forEach((node, i) => {
    const next = nodes[i + 1];
    const delimBefore = previousDelim;
    previousDelim = '';
    switch (node.k) {
      case 'text': {
        let text = escapeText(node.text);
        // `!` right before a link would turn it into an image.
        if (next?.k === 'link' && text.endsWith('!')) text = text.slice(0, -1) + '\\!';
        out.s += text;
        break;
      }
      case 'code':
        out.s += codeSpan(node.text);
        break;
      case 'autolink':
        out.s += `<${node.url}>`;
        break;
      case 'link':
        out.s += '[';
        writeInline(node.children, out, false, false);
        out.s += `](${linkDestination(node.url)})`;
        break;
      case 'run': {
        const before = i === 0 ? alnumBefore : isAlnum(out.s[out.s.length - 1]);
        const after = alnumAfterNode(i);
        const [star, underscore] = node.mark === 'bold' ? ['**', '__'] : ['*', '_'];
        let delim = node.mark === 'bold' ? star : underscore;
        if (before || after) delim = star;
        else if (delimBefore[0] === delim[0]) delim = delim === star ? underscore : star;
        else if (delim === star && delimBefore[0] !== '_' && next?.k === 'run' && alnumAfterNode(i + 1)) {
          delim = underscore;
        }
        out.s += delim;
        writeInline(node.children, out, before, after);
        out.s += delim;
        previousDelim = delim;
        break;
      }
    }
  });
}

function inlineMarkdown(nodes: BlockNode['nodes']): string {
  const out = { s: '' };
  writeInline(buildTree(inlineUnits(nodes), []), out, false, false);
  return out.s;
}

/** Escape what would otherwise start a heading, quote, list or fence at the start of a paragraph. */
function escapeBlockStart(s: string): string {
  if (/^(?:[#>+]|-(?=[\s-]|$)|~~~)/.test(s)) return '\\' + s;
  return s.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

function textOfNodes(nodes: BlockNode['nodes']): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') out += node.leaves.map((l) => l.text).join('');
    else out += textOfNodes(node.nodes);
  }
  return out;
}

function codeFence(lines: string[], syntax: string): string {
  const ch = syntax.includes('`') ? '~' : '`';
  let longest = 0;
  for (const line of lines) for (const run of line.match(ch === '`' ? /`+/g : /~+/g) ?? []) longest = Math.max(longest, run.length);
  return ch.repeat(Math.max(3, longest + 1));
}

function blocksToMarkdownLines(blocks: BlockNode[]): string[] {
  const out: string[] = [];
  let previousList: { type: string; delimiter: string } | undefined;
  for (const b of blocks) {
    let lines: string[];
    if (b.type === 'list-unordered' || b.type === 'list-ordered') {
      // Two lists of the same kind in a row only stay apart with different markers.
      const list = listToMarkdownLines(b, previousList?.type === b.type ? previousList.delimiter : undefined);
      lines = list.lines;
      previousList = { type: b.type, delimiter: list.delimiter };
    } else {
      lines = blockToMarkdownLines(b);
      previousList = undefined;
    }
    if (lines.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(...lines);
  }
  return out;
}

/** A list, with a bullet (or `.`/`)` after the numbers) other than `avoid`. */
function listToMarkdownLines(list: BlockNode, avoid: string | undefined): { lines: string[]; delimiter: string } {
  const ordered = list.type === 'list-ordered';
  const items = list.nodes.filter(isBlock).map((item) => blocksToMarkdownLines(item.nodes.filter(isBlock)));
  const candidates = (ordered ? ['.', ')'] : ['-', '+', '*']).filter((d) => d !== avoid);
  // A bullet must not turn the first line of an item into a thematic break (`- - -` for nested empty items).
  const delimiter =
    candidates.find((d) => ordered || items.every((lines) => !THEMATIC_BREAK.test(`${d} ${lines[0] ?? ''}`))) ??
    candidates[0];
  const lines = items.flatMap((itemLines, i) => {
    const marker = ordered ? `${i + 1}${delimiter}` : delimiter;
    if (itemLines.length === 0) return [marker];
    const indent = ' '.repeat(marker.length + 1);
    return itemLines.map((line, j) => (j === 0 ? `${marker} ${line}` : line === '' ? '' : indent + line));
  });
  return { lines, delimiter };
}

function blockToMarkdownLines(b: BlockNode): string[] {
  const children = b.nodes.filter(isBlock);
  const heading = /^heading-(\d)$/.exec(b.type);
  if (heading) {
    const content = inlineMarkdown(b.nodes).replace(/#$/, '\\#'); // a trailing `#` would read as a closing sequence
    return [('#'.repeat(Number(heading[1])) + ' ' + content).trimEnd()];
  }
  switch (b.type) {
    case 'paragraph':
      return [escapeBlockStart(inlineMarkdown(b.nodes))];
    case 'code': {
      const syntax = typeof b.data.syntax === 'string' ? b.data.syntax : '';
      const lines = children.map((line) => textOfNodes(line.nodes));
      const fence = codeFence(lines, syntax);
      return [fence + syntax, ...lines, fence];
    }
    case 'blockquote': {
      const inner = blocksToMarkdownLines(children);
      return inner.length > 0 ? inner.map((line) => (line === '' ? '>' : '> ' + line)) : ['>'];
    }
    case 'images': {
      const alt = typeof b.data.alt === 'string' ? b.data.alt : '';
      const src = typeof b.data.src === 'string' ? b.data.src : '';
      return [`![${escapeText(alt)}](${linkDestination(src)})`];
    }
    case 'divider':
      return ['***'];
    default:
      // Blocks outside the subset: keep their content, as blocks or as a paragraph.
      return children.length > 0 ? blocksToMarkdownLines(children) : [escapeBlockStart(inlineMarkdown(b.nodes))];
  }
}

export function documentToMarkdown(doc: DocumentNode): string {
  const lines = blocksToMarkdownLines(doc.nodes);
  return lines.length > 0 ? lines.join('\n') + '\n' : '';
}

// ---------------------------------------------------------------------------------------
// Plain text, sections and links
// ---------------------------------------------------------------------------------------

/** Plain text of blocks: one entry per block (list items and code lines on their own lines). */
function blocksPlainText(blocks: BlockNode[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    const children = b.nodes.filter(isBlock);
    let text: string;
    if (b.type === 'images') text = typeof b.data.alt === 'string' ? b.data.alt : '';
    else if (b.type === 'code') text = children.map((line) => textOfNodes(line.nodes)).join('\n');
    else if (b.type === 'list-unordered' || b.type === 'list-ordered') {
      text = children.map((item) => blocksPlainText(item.nodes.filter(isBlock)).join('\n')).join('\n');
    } else if (children.length > 0) text = blocksPlainText(children).join('\n\n');
    else text = textOfNodes(b.nodes);
    if (text.trim() !== '') out.push(text);
  }
  return out;
}

export function markdownToPlainText(markdown: string): string {
  return blocksPlainText(parseDocumentBlocks(markdown)).join('\n\n');
}

export function splitSections(markdown: string): Section[] {
  const sections: Section[] = [];
  const used = new Set<string>();
  const uniqueId = (base: string) => {
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
  let current: { id: string; title: string; blocks: BlockNode[] } | null = null;
  const close = () => {
    if (current) sections.push({ id: current.id, title: current.title, body: blocksPlainText(current.blocks).join('\n\n') });
  };
  for (const b of parseDocumentBlocks(markdown)) {
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

/** Ranges [start, end) of fenced code blocks, found line by line (also inside list items and quotes). */
function fencedCodeRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  let open: { ch: string; length: number; start: number } | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const end = offset + line.length + 1;
    // Container prefixes (quote markers, list markers, indentation) do not matter here.
    const rest = line.replace(/^(?:[ \t]*(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*/, '');
    const run = /^(`{3,}|~{3,})(.*)$/.exec(rest);
    if (open) {
      if (run && run[1][0] === open.ch && run[1].length >= open.length && run[2].trim() === '') {
        ranges.push([open.start, end]);
        open = null;
      }
    } else if (run && !(run[1][0] === '`' && run[2].includes('`'))) {
      open = { ch: run[1][0], length: run[1].length, start: offset };
    }
    offset = end;
  }
  if (open) ranges.push([open.start, markdown.length]);
  return ranges;
}

export function extractLinks(markdown: string): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  let from = 0;
  for (const [start, end] of [...fencedCodeRanges(markdown), [markdown.length, markdown.length] as [number, number]]) {
    scanLinks(markdown, from, start, bracketPairs(markdown, from, start), links);
    from = end;
  }
  return links;
}

/** Skip the backslash escape or code span at `p` (before `to`), if any: the position after it, else `p`. */
function skipLiteral(s: string, p: number, to: number): number {
  if (s[p] === '\\') return p + 2;
  if (s[p] !== '`') return p;
  const span = matchCodeSpan(s, p);
  return span && span.end <= to ? span.end : p + runLength(s, p, '`');
}

/** Positions of matching `[` and `]` in [from, to), escapes and code spans skipped. */
function bracketPairs(s: string, from: number, to: number): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  let p = from;
  while (p < to) {
    const next = skipLiteral(s, p, to);
    if (next > p) {
      p = next;
      continue;
    }
    if (s[p] === '[') open.push(p);
    else if (s[p] === ']' && open.length > 0) pairs.set(open.pop() as number, p);
    p++;
  }
  return pairs;
}

function scanLinks(s: string, from: number, to: number, pairs: Map<number, number>, links: ExtractedLink[]): void {
  let autolink: { url: string; end: number } | null;
  let p = from;
  while (p < to) {
    const c = s[p];
    const next = skipLiteral(s, p, to);
    if (next > p) {
      p = next;
    } else if (c === '<' && (autolink = matchAutolink(s, p)) && autolink.end <= to) {
      links.push({ href: autolink.url, text: autolink.url, offset: p });
      p = autolink.end;
    } else if (c === '[' || (c === '!' && s[p + 1] === '[')) {
      const open = c === '!' ? p + 1 : p;
      const close = pairs.get(open);
      const tail = close !== undefined && close < to ? parseLinkTail(s, close + 1) : null;
      if (close === undefined || !tail || tail.end > to) {
        p = open + 1;
        continue;
      }
      const text = tokensPlainText(parseInline(s.slice(open + 1, close))).trim();
      links.push(c === '!' ? { href: tail.url, text, offset: p, image: true } : { href: tail.url, text, offset: p });
      scanLinks(s, open + 1, close, pairs, links); // an image inside a link text
      p = tail.end;
    } else {
      p++;
    }
  }
}
