import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderPdf, type PdfDocumentInput } from '../../src/server/lib/pdf.js';

interface ParsedPdf {
  raw: string;
  /** Object bodies by object number (between `N 0 obj` and `endobj`). */
  objects: Map<number, string>;
  trailer: string;
  /** Per page, in /Kids order: the shown strings with their font, size and position. */
  pages: { font: string; size: number; x: number; y: number; text: string }[][];
}

function unescapePdfString(s: string): string {
  return s.replace(/\\([0-7]{3}|[\\()])/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(parseInt(e, 8)) : e));
}

/** A small reader for what renderPdf writes, checking the file structure on the way. */
function parsePdf(buf: Buffer): ParsedPdf {
  const raw = buf.toString('latin1');
  const tail = /startxref\n(\d+)\n%%EOF\n?$/.exec(raw);
  expect(tail, 'startxref and %%EOF at the end').not.toBeNull();
  const xrefOffset = Number(tail?.[1]);
  expect(raw.startsWith('xref\n', xrefOffset), 'startxref points at the xref table').toBe(true);
  const head = /^xref\n0 (\d+)\n/.exec(raw.slice(xrefOffset)) as RegExpExecArray;
  const count = Number(head[1]);
  const entriesStart = xrefOffset + head[0].length;
  const objects = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    const entry = raw.slice(entriesStart + 20 * i, entriesStart + 20 * (i + 1));
    expect(entry).toMatch(/^\d{10} \d{5} [nf] \n$/);
    if (i === 0) {
      expect(entry).toBe('0000000000 65535 f \n');
      continue;
    }
    const offset = Number(entry.slice(0, 10));
    expect(raw.startsWith(`${i} 0 obj\n`, offset), `xref offset of object ${i}`).toBe(true);
    const end = raw.indexOf('\nendobj', offset);
    objects.set(i, raw.slice(offset + `${i} 0 obj\n`.length, end));
  }
  const trailer = raw.slice(raw.indexOf('trailer', entriesStart + 20 * count));
  expect(trailer).toContain(`/Size ${count}`);

  const ref = (body: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(body)?.[1]);
  const catalog = objects.get(ref(trailer, 'Root')) as string;
  expect(catalog).toContain('/Type /Catalog');
  const tree = objects.get(ref(catalog, 'Pages')) as string;
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(tree)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  expect(tree).toContain(`/Count ${kids.length}`);
  const pageObjects = [...objects.values()].filter((body) => /\/Type \/Page\b(?!s)/.test(body));
  expect(pageObjects).toHaveLength(kids.length);

  const pages = kids.map((kid) => {
    const page = objects.get(kid) as string;
    expect(page).toContain('/MediaBox [0 0 595.28 841.89]');
    const content = objects.get(ref(page, 'Contents')) as string;
    const stream = /^<< \/Length (\d+) >>\nstream\n([\s\S]*)\nendstream$/.exec(content) as RegExpExecArray;
    expect(stream, 'uncompressed stream').not.toBeNull();
    expect(Buffer.byteLength(stream[2], 'latin1')).toBe(Number(stream[1]));
    return [...stream[2].matchAll(/BT \/(F\d) ([\d.]+) Tf ([\d.]+) ([\d.]+) Td \(((?:\\.|[^\\)])*)\) Tj ET/g)].map((m) => ({
      font: m[1],
      size: Number(m[2]),
      x: Number(m[3]),
      y: Number(m[4]),
      text: unescapePdfString(m[5]),
    }));
  });
  return { raw, objects, trailer, pages };
}

const pageText = (page: ParsedPdf['pages'][number]) => page.map((t) => t.text);

const sample: PdfDocumentInput = {
  title: 'Change request #7: Docs (draft) \\ review',
  pages: [
    {
      title: 'Getting started',
      markdown: [
        '# Install',
        '',
        'Run the **installer** and read the [guide](https://x.io).',
        '',
        '- first step',
        '- second step',
        '  1. nested',
        '',
        '```sh',
        'docsctl login --token "$TOKEN"',
        '```',
        '',
        '> A quote',
        '',
        '---',
        '',
        '![Architecture](arch.png)',
      ].join('\n'),
    },
    { title: 'Second page', markdown: 'Short.' },
  ],
};

describe('renderPdf', () => {
  it('writes a well-formed PDF 1.4 file', () => {
    const buf = renderPdf(sample);
    expect(buf.subarray(0, 9).toString('latin1')).toBe('%PDF-1.4\n');
    expect(buf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const pdf = parsePdf(buf);
    expect(pdf.trailer).toMatch(/\/Root \d+ 0 R/);
    const info = pdf.objects.get(Number(/\/Info (\d+) 0 R/.exec(pdf.trailer)?.[1])) as string;
    expect(info).toContain('/Title (Change request #7: Docs \\(draft\\) \\\\ review)');
    const fonts = [...pdf.objects.values()].filter((o) => o.includes('/Type /Font'));
    expect(fonts.join('\n')).toMatch(/\/BaseFont \/Helvetica \/Encoding \/WinAnsiEncoding/);
    expect(fonts.join('\n')).toMatch(/\/BaseFont \/Helvetica-Bold /);
  });

  it('has a cover page, then starts every document page on a new PDF page with its title', () => {
    const pdf = parsePdf(renderPdf(sample));
    expect(pdf.pages).toHaveLength(3);
    const [cover, first, second] = pdf.pages;
    expect(cover[0]).toMatchObject({ text: 'Change request #7: Docs (draft) \\ review', font: 'F2', size: 24 });
    expect(pageText(cover)).toEqual(expect.arrayContaining(['1. Getting started', '2. Second page']));
    expect(first[0]).toMatchObject({ text: 'Getting started', font: 'F2', size: 20 });
    expect(second[0]).toMatchObject({ text: 'Second page', font: 'F2' });
    expect(pageText(second)).toContain('Short.');
    // Footers with page numbers.
    pdf.pages.forEach((page, i) => expect(pageText(page)).toContain(`${i + 1} / 3`));
  });

  it('lays out Markdown as plain text, headings bold and larger', () => {
    const [, first] = parsePdf(renderPdf(sample)).pages;
    const find = (text: string) => first.find((t) => t.text === text);
    expect(find('Install')).toMatchObject({ font: 'F2', size: 16 });
    expect(find('Run the installer and read the guide.')).toMatchObject({ font: 'F1', size: 11 });
    expect(find('docsctl login --token "$TOKEN"')).toBeDefined();
    expect(find('A quote')).toBeDefined();
    expect(find('[Image: Architecture]')).toBeDefined();
    // List markers (WinAnsi bullet, numbers) left of indented item text.
    expect(first.filter((t) => t.text === '\x95')).toHaveLength(2);
    expect(find('1.')).toBeDefined();
    expect((find('nested') as { x: number }).x).toBeGreaterThan((find('first step') as { x: number }).x);
    // Top to bottom.
    const ys = first.filter((t) => t.size >= 10).map((t) => t.y);
    expect(ys.every((y, i) => i === 0 || y <= ys[i - 1])).toBe(true);
    // The divider is a stroked line.
    expect(parsePdf(renderPdf(sample)).raw).toMatch(/0\.5 w [\d.]+ [\d.]+ m [\d.]+ [\d.]+ l S/);
  });

  it('escapes delimiters, keeps Latin-1 and replaces other characters with ?', () => {
    const buf = renderPdf({ title: 'T', pages: [{ title: 'Ünïcödé (1) \\ x', markdown: 'Crème brûlée 日本 ok — “quotes” €' }] });
    const raw = buf.toString('latin1');
    expect(raw).toContain('(\\334n\\357c\\366d\\351 \\(1\\) \\\\ x)');
    const [, page] = parsePdf(buf).pages;
    expect(page[0].text).toBe('\xdcn\xefc\xf6d\xe9 (1) \\ x');
    expect(pageText(page)).toContain('Cr\xe8me br\xfbl\xe9e ?? ok ? ?quotes? ?');
    // Everything but the binary-marker comment is ASCII.
    expect(/[^\x00-\x7f]/.test(raw.slice(16))).toBe(false);
  });

  it('wraps long text to the page width and continues on new pages', () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. '.repeat(8).trim();
    const markdown = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${paragraph}`).join('\n\n');
    const pdf = parsePdf(
      renderPdf({
        title: 'Long',
        pages: [
          { title: 'Long page', markdown },
          { title: 'After', markdown: 'x' },
        ],
      }),
    );
    expect(pdf.pages.length).toBeGreaterThan(4);
    // The last document page starts on its own page.
    expect(pdf.pages[pdf.pages.length - 1][0].text).toBe('After');
    const body = pdf.pages
      .slice(1, -1)
      .flat()
      .filter((t) => t.font === 'F1' && t.size === 11);
    // ~8 lines per paragraph, wrapped at word boundaries, nothing lost.
    expect(body.length).toBeGreaterThan(40 * 6);
    expect(Math.max(...body.map((t) => t.text.length))).toBeLessThan(110);
    expect(
      body
        .slice(0, 9)
        .map((t) => t.text)
        .join(' '),
    ).toContain(paragraph.slice(0, 300));
    for (const t of pdf.pages.flat()) {
      expect(t.x).toBeGreaterThanOrEqual(56);
      expect(t.y).toBeGreaterThanOrEqual(30);
      expect(t.y).toBeLessThanOrEqual(841.89 - 56);
    }
  });

  it('measures lines with the Helvetica glyph widths', () => {
    // The text width is 483.28pt, 43,935 units at 11pt: at most 57 characters of `WWWW MMMM `
    // (766.4 units each on average), 188 of `iiii llll ` (233.2); an average width would give ~79.
    const lineLengths = (markdown: string) =>
      parsePdf(renderPdf({ title: 'T', pages: [{ title: 'P', markdown }] }))
        .pages[1].filter((t) => t.size === 11 && t.text.length > 20)
        .map((t) => t.text.length);
    const wide = lineLengths('WWWW MMMM '.repeat(40));
    const narrow = lineLengths('iiii llll '.repeat(120));
    expect(Math.max(...wide)).toBeLessThanOrEqual(57);
    expect(Math.max(...wide)).toBeGreaterThan(50);
    expect(Math.max(...narrow)).toBeLessThanOrEqual(188);
    expect(Math.max(...narrow)).toBeGreaterThan(175);
  });

  it('breaks words and code lines wider than the page', () => {
    const pdf = parsePdf(renderPdf({ title: 'T', pages: [{ title: 'P', markdown: `${'x'.repeat(300)}\n\n\`\`\`\n${'y'.repeat(300)}\n\`\`\`` }] }));
    const texts = pageText(pdf.pages[1]);
    expect(texts.filter((t) => /^x+$/.test(t)).join('')).toBe('x'.repeat(300));
    expect(texts.filter((t) => /^y+$/.test(t)).join('')).toBe('y'.repeat(300));
    expect(texts.filter((t) => /^x+$/.test(t)).length).toBeGreaterThan(1);
  });

  it('renders an export without pages as a single cover page', () => {
    const pdf = parsePdf(renderPdf({ title: 'Empty', pages: [] }));
    expect(pdf.pages).toHaveLength(1);
    expect(pageText(pdf.pages[0])).toEqual(['Empty', '1 / 1']);
  });

  const hasPdftotext = (() => {
    try {
      execFileSync('which', ['pdftotext'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasPdftotext)('extracts with pdftotext', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-pdf-'));
    try {
      const file = join(dir, 'export.pdf');
      writeFileSync(file, renderPdf(sample));
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      for (const expected of [
        'Change request #7: Docs (draft) \\ review',
        'Getting started',
        'Install',
        'Run the installer and read the guide.',
        'Second page',
        'Short.',
      ]) {
        expect(text).toContain(expected);
      }
      // One form feed per page.
      expect(text.split('\f').length - 1).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
