/**
 * Minimal PDF 1.4 writer for change-request exports; no dependencies.
 *
 * Layout: A4 pages; a cover page with the export title and the list of page titles, then
 * each document page starting on a new PDF page with its title. Markdown is laid out from
 * its rich-text document: headings in Helvetica-Bold (larger), everything else in
 * Helvetica, as plain text (marks dropped, links as their text), word-wrapped using the
 * standard font metrics, with lists (bullets, numbers), indented quotes and code, and rules
 * for dividers. Page numbers go in the footer.
 *
 * Text is encoded in WinAnsiEncoding, whose printable range agrees with Latin-1; any other
 * character becomes `?`. Content streams are uncompressed and written in ASCII (bytes above
 * 0x7f as octal escapes), so the whole file is ASCII apart from the binary-marker comment.
 */
import { markdownToDocument, type BlockNode } from './markdown.js';

interface PdfPageInput {
  title: string;
  markdown: string;
}

export interface PdfDocumentInput {
  title: string;
  pages: PdfPageInput[];
}

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FOOTER_BASELINE = 30;
/** Indentation per nesting level of lists and quotes, and of code blocks. */
const INDENT = 18;
const LINE_HEIGHT = 1.35;

type FontName = 'F1' | 'F2';

interface TextStyle {
  font: FontName;
  size: number;
  /** Extra space above the paragraph (not at the top of a page). */
  spaceBefore: number;
}

const STYLES = {
  coverTitle: { font: 'F2', size: 24, spaceBefore: 0 },
  pageTitle: { font: 'F2', size: 20, spaceBefore: 0 },
  'heading-1': { font: 'F2', size: 16, spaceBefore: 14 },
  'heading-2': { font: 'F2', size: 14, spaceBefore: 12 },
  'heading-3': { font: 'F2', size: 12, spaceBefore: 10 },
  body: { font: 'F1', size: 11, spaceBefore: 6 },
  listItem: { font: 'F1', size: 11, spaceBefore: 2 },
  code: { font: 'F1', size: 10, spaceBefore: 6 },
  footer: { font: 'F1', size: 9, spaceBefore: 0 },
} satisfies Record<string, TextStyle>;

// Glyph widths (1/1000 em) of the standard fonts for the characters 32-126 (AFM metrics).
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584,
  556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278,
  469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260,
  334, 584,
];
const HELVETICA_BOLD_WIDTHS = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584,
  611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333,
  584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280,
  389, 584,
];
/** Width assumed for the Latin-1 letters and signs above 0x7f: an average lower-case letter. */
const DEFAULT_WIDTH: Record<FontName, number> = { F1: 556, F2: 611 };
/** WinAnsiEncoding code of the bullet, used for list markers (not reachable from text). */
const BULLET = '\x95';
const BULLET_WIDTH = 350;

/**
 * Text as a WinAnsi byte string (one char per byte): tabs become four spaces, line breaks
 * one, other characters outside printable Latin-1 `?`.
 */
function encodeText(text: string): string {
  let out = '';
  for (const ch of text.replace(/\t/g, '    ').replace(/[\n\r\f\v]/g, ' ')) {
    const code = ch.codePointAt(0) as number;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? ch : '?';
  }
  return out;
}

function textWidth(bytes: string, font: FontName, size: number): number {
  const table = font === 'F2' ? HELVETICA_BOLD_WIDTHS : HELVETICA_WIDTHS;
  let units = 0;
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    units += code >= 32 && code <= 126 ? table[code - 32] : bytes[i] === BULLET ? BULLET_WIDTH : DEFAULT_WIDTH[font];
  }
  return (units * size) / 1000;
}

/** Split a byte string into pieces no wider than `width`, breaking anywhere. */
function breakChars(bytes: string, font: FontName, size: number, width: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const ch of bytes) {
    if (current && textWidth(current + ch, font, size) > width) {
      pieces.push(current);
      current = '';
    }
    current += ch;
  }
  pieces.push(current);
  return pieces;
}

/** Greedy word wrap; words wider than a line are broken. */
function wrapWords(bytes: string, font: FontName, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of bytes.split(' ').filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (textWidth(candidate, font, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    const pieces = breakChars(word, font, size, width);
    lines.push(...pieces.slice(0, -1));
    current = pieces[pieces.length - 1];
  }
  if (current) lines.push(current);
  return lines;
}

/** A PDF literal string of a byte string: `\`, `(`, `)` escaped, bytes above 0x7e in octal. */
function pdfString(bytes: string): string {
  let out = '(';
  for (let i = 0; i < bytes.length; i++) {
    const code = bytes.charCodeAt(i);
    if (bytes[i] === '\\' || bytes[i] === '(' || bytes[i] === ')') out += '\\' + bytes[i];
    else if (code > 0x7e) out += '\\' + code.toString(8).padStart(3, '0');
    else out += bytes[i];
  }
  return out + ')';
}

const num = (n: number): string => String(Math.round(n * 100) / 100);

function plainText(nodes: BlockNode['nodes']): string {
  return nodes.map((node) => (node.object === 'text' ? node.leaves.map((l) => l.text).join('') : plainText(node.nodes))).join('');
}

/** Flows text down pages, collecting one content stream per page. */
class Layout {
  readonly pages: string[][] = [];
  private y = 0;
  /** A list marker waiting to be drawn left of the next line. */
  private marker: { bytes: string; x: number } | null = null;

  newPage(): void {
    this.pages.push([]);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  private get atTop(): boolean {
    return this.y === PAGE_HEIGHT - MARGIN;
  }

  /** Start a new page unless `height` more points fit above the bottom margin. */
  private ensure(height: number): void {
    if (this.y - height < MARGIN) this.newPage();
  }

  private draw(bytes: string, x: number, y: number, font: FontName, size: number): void {
    this.pages[this.pages.length - 1].push(`BT /${font} ${num(size)} Tf ${num(x)} ${num(y)} Td ${pdfString(bytes)} Tj ET`);
  }

  /** Lay out lines (already wrapped) at `indent`, the first one taking any pending list marker. */
  private lines(lines: string[], style: TextStyle, indent: number, keepWithNext = 0): void {
    const lineHeight = style.size * LINE_HEIGHT;
    if (!this.atTop) this.y -= style.spaceBefore;
    // Keep a heading with the first lines after it.
    this.ensure(lineHeight * (1 + keepWithNext));
    for (const line of lines) {
      this.ensure(lineHeight);
      this.y -= lineHeight;
      if (this.marker) {
        this.draw(this.marker.bytes, this.marker.x, this.y, style.font, style.size);
        this.marker = null;
      }
      if (line) this.draw(line, MARGIN + indent, this.y, style.font, style.size);
    }
  }

  paragraph(text: string, style: TextStyle, indent = 0, keepWithNext = 0): void {
    const lines = wrapWords(encodeText(text), style.font, style.size, CONTENT_WIDTH - indent);
    // An empty paragraph still shows a pending list marker.
    this.lines(lines.length > 0 || !this.marker ? lines : [''], style, indent, keepWithNext);
  }

  blocks(blocks: BlockNode[], indent: number): void {
    for (const block of blocks) this.block(block, indent);
  }

  private block(block: BlockNode, indent: number): void {
    const children = block.nodes.filter((n): n is BlockNode => n.object === 'block');
    switch (block.type) {
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        this.paragraph(plainText(block.nodes), STYLES[block.type], indent, 2);
        break;
      case 'list-unordered':
      case 'list-ordered':
        children.forEach((item, i) => {
          const bytes = block.type === 'list-ordered' ? `${i + 1}.` : BULLET;
          this.marker = { bytes, x: MARGIN + indent + 2 };
          const content = item.nodes.filter((n): n is BlockNode => n.object === 'block');
          if (content.length > 0) this.blocks(content, indent + INDENT);
          else this.paragraph('', STYLES.listItem, indent + INDENT);
        });
        break;
      case 'code': {
        const style = STYLES.code;
        const width = CONTENT_WIDTH - indent - INDENT;
        const lines = children.flatMap((line) => breakChars(encodeText(plainText(line.nodes)), style.font, style.size, width));
        this.lines(lines, style, indent + INDENT);
        break;
      }
      case 'paragraph':
        this.paragraph(plainText(block.nodes), this.marker ? STYLES.listItem : STYLES.body, indent);
        break;
      case 'blockquote':
        this.blocks(children, indent + INDENT);
        break;
      case 'images':
        for (const image of children)
          this.paragraph(`[Image: ${typeof image.data.alt === 'string' && image.data.alt ? image.data.alt : 'untitled'}]`, STYLES.body, indent);
        break;
      case 'divider':
        this.rule(indent);
        break;
      default:
        // Blocks outside the Markdown subset: their blocks, or their text as a paragraph.
        if (children.length > 0) this.blocks(children, indent);
        else this.paragraph(plainText(block.nodes), STYLES.body, indent);
    }
  }

  private rule(indent: number): void {
    this.ensure(16);
    this.y -= 8;
    const y = num(this.y);
    this.pages[this.pages.length - 1].push(`0.5 w ${num(MARGIN + indent)} ${y} m ${num(PAGE_WIDTH - MARGIN)} ${y} l S`);
    this.y -= 8;
  }

  /** Add "n / total" at the bottom of every page. */
  footers(): void {
    const { font, size } = STYLES.footer;
    this.pages.forEach((ops, i) => {
      const bytes = `${i + 1} / ${this.pages.length}`;
      const x = (PAGE_WIDTH - textWidth(bytes, font, size)) / 2;
      ops.push(`0.4 g BT /${font} ${num(size)} Tf ${num(x)} ${num(FOOTER_BASELINE)} Td ${pdfString(bytes)} Tj ET 0 g`);
    });
  }
}

export function renderPdf(doc: PdfDocumentInput): Buffer {
  const layout = new Layout();
  layout.newPage();
  layout.paragraph(doc.title, STYLES.coverTitle);
  doc.pages.forEach((page, i) => layout.paragraph(`${i + 1}. ${page.title}`, STYLES.listItem));
  for (const page of doc.pages) {
    layout.newPage();
    layout.paragraph(page.title, STYLES.pageTitle, 0, 1);
    layout.blocks(markdownToDocument(page.markdown).nodes, 0);
  }
  layout.footers();
  return writePdf(layout.pages, doc.title);
}

/**
 * Serialize the file: catalog (1), page tree (2), fonts (3, 4), info (5), then a page object
 * and its content stream per page; then the cross-reference table with byte offsets.
 */
function writePdf(pages: string[][], title: string): Buffer {
  const firstPage = 6;
  const kids = pages.map((_, i) => `${firstPage + 2 * i} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(encodeText(title))} /Producer (docsctl) >>`,
  ];
  pages.forEach((ops, i) => {
    const content = ops.join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${firstPage + 2 * i + 1} 0 R >>`,
      // The content is ASCII, so its length in characters is its length in bytes.
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });

  // A comment with bytes above 0x7f marks the file as binary for transfer tools.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = objects.map((body, i) => {
    const offset = out.length;
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  // Each cross-reference entry is exactly 20 bytes, ending in space + newline.
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
