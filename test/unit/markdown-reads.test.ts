/**
 * Markdown read for requests without holding the sandbox's thread (src/server/markdown-reads.ts):
 * the cost pre-scan that decides where a text is read, the worker's time bound and what a text past
 * it reads as, and the passes of lib/markdown.ts that grew faster than their input (equal section
 * titles, many links, a table's grid).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { extractLinks, markdownCost, markdownToDocument, MAX_TABLE_CELLS, splitSections } from '../../src/server/lib/markdown.js';
import { LIMITS } from '../../src/server/limits.js';
import { checkWritten, readMarkdown, readsHere, withDocuments } from '../../src/server/markdown-reads.js';
import { cpuMs, cpuSlowdown, slowdown } from '../helpers/timing.js';

const SAVED = structuredClone(LIMITS.loop);
afterEach(() => Object.assign(LIMITS.loop, SAVED));

/** Shapes micromark reads in time that grows with the square of a paragraph's length. */
const HOSTILE: Record<string, (length: number) => string> = {
  closers: (n) => `a${']'.repeat(n - 1)}`,
  'nested images': (n) => ('![a'.repeat(Math.ceil(n / 6)) + '](b)'.repeat(n)).slice(0, n),
  'labels and parens': (n) => `[${']('.repeat(n)}`.slice(0, n),
  'unclosed comments': (n) => 'a <!--'.repeat(n).slice(0, n),
  'emphasis runs': (n) => '*a_'.repeat(n).slice(0, n),
  setext: (n) => 'a\n=\n'.repeat(n).slice(0, n),
  brackets: (n) => '[a]'.repeat(n).slice(0, n),
};

describe('markdownCost', () => {
  it('is about the length for ordinary Markdown, and far above it for the quadratic shapes', () => {
    const page = Array.from({ length: 200 }, (_, i) => `## Section ${i}\n\nSome *text* with a [link](/p${i}), \`code\` and **bold**.\n\n- one\n- two\n`).join(
      '\n',
    );
    expect(markdownCost(page)).toBeGreaterThanOrEqual(page.length);
    expect(markdownCost(page)).toBeLessThan(page.length * 1.1);
    for (const [name, make] of Object.entries(HOSTILE)) {
      const text = make(65_536);
      expect(markdownCost(text), name).toBeGreaterThan(100 * LIMITS.loop.markdownOnThread);
    }
  });

  it('lets on the thread only texts read in a few ms, whatever their shape', () => {
    for (const [name, make] of Object.entries(HOSTILE)) {
      // The longest text of this shape still read on the thread.
      let n = 1;
      while (readsHere(make(n + 1)) && n < LIMITS.loop.markdownOnThread) n++;
      const text = make(n);
      expect(readsHere(text), name).toBe(true);
      const ms = Math.min(...[1, 2, 3].map(() => cpuMs(() => markdownToDocument(text))));
      // Measured: ≤ 15 ms on an idle machine, ≤ 35 ms at a load of 10 on two cores; the bound grows
      // with what a fixed task costs now (cpuSlowdown, 1 on an idle machine).
      expect(ms, `${name}: ${text.length} characters`).toBeLessThan(100 * cpuSlowdown());
    }
  });

  it('scans a MiB in a few ms', () => {
    const text = 'a]'.repeat(512 * 1024);
    expect(cpuMs(() => markdownCost(text))).toBeLessThan(200 * cpuSlowdown());
  });
});

describe('linear passes', () => {
  it('gives thousands of sections of one title their ids in linear time', () => {
    expect(splitSections('# a\n\n# a\n\n# a-2\n\n# a').map((s) => s.id)).toEqual(['a', 'a-2', 'a-2-2', 'a-3']);
    // 16,000 sections of one title (which tried 128 million ids: 7 times as long), against as many
    // distinct titles. Headings alone: a body under each only made the Markdown longer to read.
    const same = '# Same\n'.repeat(16_000);
    const distinct = Array.from({ length: 16_000 }, (_, i) => `# S${String(i).padStart(5, '0')}\n`).join('');
    let sections: ReturnType<typeof splitSections> = [];
    const ratio = cpuMs(() => (sections = splitSections(same))) / cpuMs(() => splitSections(distinct));
    expect(sections.map((s) => s.id).slice(-2)).toEqual(['same-15999', 'same-16000']);
    expect(ratio).toBeLessThan(3);
  });

  it('finds where each of thousands of links is written', () => {
    const many = `${Array.from({ length: 5_000 }, (_, i) => `[l${i}](/p${i})`).join(' ')} ${'[r][d] '.repeat(100)}\n\n[d]: /def\n`;
    const links = extractLinks(many);
    expect(links).toHaveLength(5_100);
    expect(links.map((l) => many.slice(l.written!.start, l.written!.end))).toEqual([
      ...Array.from({ length: 5_000 }, (_, i) => `/p${i}`),
      ...Array(100).fill('/def'),
    ]);
    expect(extractLinks(many, { written: false }).map((l) => l.written)).toEqual(Array(5_100).fill(undefined));
  });

  it(`fills a table's short rows with empty cells up to ${MAX_TABLE_CELLS} cells, then leaves them short`, () => {
    const cells = (md: string) => markdownToDocument(md).nodes[0].fragments!.length;
    expect(cells('| a | b | c |\n|---|---|---|\n| 1 |\n| 1 | 2 |')).toBe(6);
    // One row of 1,000 cells over 2,000 rows of one: 2 million cells filled, 3,000 kept.
    const wide = `|${' a |'.repeat(1_000)}\n|${'---|'.repeat(1_000)}\n${'| x |\n'.repeat(2_000)}`;
    expect(cells(wide)).toBe(2_000);
    const two = `|${' a |'.repeat(1_000)}\n|${'---|'.repeat(1_000)}\n|${' y |'.repeat(1_000)}\n${'| x |\n'.repeat(2_000)}`;
    expect(cells(two)).toBe(1_000 + 2_000);
  });
});

describe('readMarkdown', () => {
  it('reads a costly text in the worker thread, with the same answer as on the thread', async () => {
    const page = Array.from({ length: 300 }, (_, i) => `## Section ${i}\n\nA [link](/p${i}) and ![an image](i${i}.png) in *text*.\n`).join('\n');
    expect(readsHere(page)).toBe(false);
    expect(await readMarkdown(page, 'document')).toEqual(markdownToDocument(page));
    expect(await readMarkdown(page, 'sections')).toEqual(splitSections(page));
    expect(await readMarkdown(page, 'links')).toEqual(extractLinks(page, { written: false }));
    expect(await withDocuments((documentOf) => [documentOf(page), documentOf('# Short')])).toEqual([markdownToDocument(page), markdownToDocument('# Short')]);
  });

  it('reads a text the worker cannot read within its bound as one paragraph of its source, and remembers it', async () => {
    // The worker's bound, and the time that tells a read that waited for it from one that did not:
    // 300 and 250 ms on an idle machine, times how much slower than its CPU time this process runs
    // now on a loaded one (a read that does not wait can still wait that long for a core).
    const slower = slowdown();
    const waited = 250 * slower;
    LIMITS.loop.markdownMs = Math.round(300 * slower);
    LIMITS.loop.markdownMsPerKiB = 0;
    // The worker runs below this thread's priority and its bound counts its CPU time: on a machine
    // whose cores are all busy it could wait 10 times the bound for them (workerWaitFactor), four
    // times over here. What this test proves is what a read past the bound gives, not how that is
    // timed (test/unit/worker-priority.test.ts): waiting counts past twice the bound.
    LIMITS.loop.workerWaitFactor = 2;
    const hostile = `${HOSTILE.closers(200_000)} [a](/b)`;
    const t0 = performance.now();
    const doc = await readMarkdown(hostile, 'document');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(waited);
    expect(doc).toEqual(markdownToDocument(hostile, { source: true }));
    expect(doc.nodes).toHaveLength(1);
    expect(await readMarkdown(hostile, 'links')).toEqual([]);
    expect(await readMarkdown(hostile, 'sections')).toEqual([{ id: 'intro', title: '', body: hostile }]);
    // Remembered: the next reads do not wait for the worker.
    const t1 = performance.now();
    await readMarkdown(hostile, 'document');
    expect(performance.now() - t1).toBeLessThan(waited);
    // A write whose nesting cannot be checked in time passes; the text reads as its source at once.
    const nested = `${hostile}${'['.repeat(200)}`;
    await expect(checkWritten(nested)).resolves.toBeUndefined();
    const t2 = performance.now();
    expect((await readMarkdown(nested, 'document')).nodes).toHaveLength(1);
    expect(performance.now() - t2).toBeLessThan(waited);
    // A larger bound tries again.
    LIMITS.loop.markdownMs += 1;
    const t3 = performance.now();
    await readMarkdown(hostile, 'document');
    expect(performance.now() - t3).toBeGreaterThanOrEqual(waited);
    // A text read in time is a document, not its source.
    expect((await readMarkdown('# Title\n\n' + 'Some text. '.repeat(200), 'document')).nodes).toHaveLength(2);
  });
});
