import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { SearchIndex, type SearchDocument } from '../../src/server/lib/search-index.js';

function doc(id: string, title: string, body: string, path = id, sectionTitle = ''): SearchDocument {
  return { id, title, path, sections: [{ id: 'intro', title: sectionTitle, body }] };
}

const ids = (index: SearchIndex, query: string, limit?: number) => index.search(query, { limit }).map((h) => h.id);

describe('SearchIndex', () => {
  it('ranks a title match above body-only matches, even with many occurrences', () => {
    const index = new SearchIndex();
    index.upsert(doc('body', 'Getting started', 'install install install install the package, then install plugins'));
    index.upsert(doc('title', 'Install', 'Run the command below.'));
    index.upsert(doc('other', 'Unrelated', 'nothing to see'));
    expect(ids(index, 'install')).toEqual(['title', 'body']);
  });

  it('ranks more occurrences higher, and an exact title above a longer one', () => {
    const index = new SearchIndex();
    index.upsert(doc('one', 'A', 'deploy the app. some more words here to pad the text'));
    index.upsert(doc('three', 'B', 'deploy, deploy and deploy. some more words to pad it'));
    expect(ids(index, 'deploy')).toEqual(['three', 'one']);

    index.upsert(doc('long', 'How to deploy a large application', ''));
    index.upsert(doc('short', 'Deploy', ''));
    expect(ids(index, 'deploy').slice(0, 2)).toEqual(['short', 'long']);
  });

  it('requires every query term (AND) across title and sections', () => {
    const index = new SearchIndex();
    index.upsert({
      id: 'both',
      title: 'Linux guide',
      path: 'guides/linux',
      sections: [
        { id: 'a', title: 'Setup', body: 'first steps' },
        { id: 'b', title: '', body: 'then install the agent' },
      ],
    });
    index.upsert(doc('install-only', 'Windows', 'install the agent'));
    index.upsert(doc('linux-only', 'Linux', 'kernel notes'));
    expect(ids(index, 'install linux')).toEqual(['both']);
    expect(ids(index, 'linux install')).toEqual(['both']);
    expect(ids(index, 'install linux missingterm')).toEqual([]);
  });

  it('matches the last query term as a prefix only', () => {
    const index = new SearchIndex();
    index.upsert(doc('a', 'Installation', 'how to install'));
    index.upsert(doc('b', 'Installer', 'the installer program'));
    index.upsert(doc('c', 'Other', 'instance of something'));
    expect(ids(index, 'instal').sort()).toEqual(['a', 'b']);
    expect(ids(index, 'inst').sort()).toEqual(['a', 'b', 'c']);
    // Earlier terms must match whole words.
    expect(ids(index, 'instal program')).toEqual([]);
    expect(ids(index, 'installer prog')).toEqual(['b']);
    // The exact word outranks a completion of it.
    index.upsert(doc('d', 'Zed', 'guide'));
    index.upsert(doc('e', 'Zed', 'guidelines'));
    expect(ids(index, 'guide')).toEqual(['d', 'e']);
  });

  it('is case- and diacritic-insensitive', () => {
    const index = new SearchIndex();
    index.upsert(doc('fr', 'Café Überblick', 'Crème brûlée NAÏVE'));
    index.upsert(doc('plain', 'cafe', 'creme'));
    expect(ids(index, 'CAFE').sort()).toEqual(['fr', 'plain']);
    expect(ids(index, 'café').sort()).toEqual(['fr', 'plain']);
    expect(ids(index, 'uberblick')).toEqual(['fr']);
    expect(ids(index, 'naive brulee')).toEqual(['fr']);
    expect(ids(index, 'crème')).toHaveLength(2);
  });

  it('tokenizes on Unicode letters and digits', () => {
    const index = new SearchIndex();
    index.upsert(doc('x', 'v2.0 release-notes', 'Привет мир; 東京 2024'));
    expect(ids(index, 'release notes')).toEqual(['x']);
    expect(ids(index, 'v2 0')).toEqual(['x']);
    expect(ids(index, 'привет')).toEqual(['x']);
    expect(ids(index, '2024')).toEqual(['x']);
    expect(ids(index, '  ...  ')).toEqual([]);
    expect(ids(index, '')).toEqual([]);
  });

  it('removes documents, and reuses their terms correctly when added again', () => {
    const index = new SearchIndex();
    index.upsert(doc('z', 'Zebra', 'stripes'));
    index.upsert(doc('y', 'Yak', 'fur'));
    expect(index.size).toBe(2);
    expect(ids(index, 'zeb')).toEqual(['z']);
    index.remove('z');
    index.remove('unknown');
    expect(index.size).toBe(1);
    expect(index.has('z')).toBe(false);
    expect(index.has('y')).toBe(true);
    expect(ids(index, 'zeb')).toEqual([]);
    expect(ids(index, 'stripes')).toEqual([]);
    index.upsert(doc('z2', 'Zebra again', 'stripes'));
    expect(ids(index, 'zeb')).toEqual(['z2']);
    expect(ids(index, 'zebra')).toEqual(['z2']);
  });

  it('removes in time proportional to the document, not to how many others share its terms', () => {
    // 60,000 documents sharing the word "common", removed last first: a removal that searched the
    // posting of "common" for its document would read about 1.8 billion entries.
    const index = new SearchIndex();
    const n = 60_000;
    for (let i = 0; i < n; i++) index.upsert(doc(`d${i}`, `Doc ${i}`, `common w${i % 7}`));
    const started = performance.now();
    for (let i = n - 1; i >= 1_000; i--) index.remove(`d${i}`);
    const ms = performance.now() - started;
    expect(index.size).toBe(1_000);
    expect(ms).toBeLessThan(1_500);
    // What is left is still found, exactly, and removing it in any order leaves nothing.
    expect(new Set(ids(index, 'common', 2_000))).toEqual(new Set(Array.from({ length: 1_000 }, (_, i) => `d${i}`)));
    expect(new Set(ids(index, 'w3', 2_000))).toEqual(new Set(Array.from({ length: 1_000 }, (_, i) => `d${i}`).filter((_, i) => i % 7 === 3)));
    for (let i = 0; i < 1_000; i += 2) index.remove(`d${i}`);
    index.upsert(doc('d0', 'Doc again', 'common'));
    expect(ids(index, 'common', 2_000).length).toBe(501);
    for (let i = 1; i < 1_000; i += 2) index.remove(`d${i}`);
    expect(ids(index, 'common')).toEqual(['d0']);
    index.remove('d0');
    expect(index.size).toBe(0);
    expect(ids(index, 'common')).toEqual([]);
  });

  it('replaces a document on upsert', () => {
    const index = new SearchIndex();
    index.upsert(doc('p', 'Old title', 'legacy words'));
    index.upsert(doc('p', 'New title', 'fresh content', 'new/path'));
    expect(index.size).toBe(1);
    expect(ids(index, 'legacy')).toEqual([]);
    expect(ids(index, 'old')).toEqual([]);
    const [hit] = index.search('fresh');
    expect(hit).toMatchObject({ id: 'p', title: 'New title', path: 'new/path' });
    expect(hit.score).toBeGreaterThan(0);
  });

  it('breaks score ties by path, and honours the limit', () => {
    const index = new SearchIndex();
    for (const path of ['c', 'a', 'd', 'b']) index.upsert(doc(`id-${path}`, 'Same', 'same body', path));
    expect(index.search('same').map((h) => h.path)).toEqual(['a', 'b', 'c', 'd']);
    expect(index.search('same', { limit: 2 }).map((h) => h.path)).toEqual(['a', 'b']);
  });

  it('returns matching sections best first, with short snippets around the first match', () => {
    const index = new SearchIndex();
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6);
    index.upsert({
      id: 'page',
      title: 'Configuration',
      path: 'config',
      sections: [
        { id: 'none', title: 'Background', body: 'nothing relevant here' },
        { id: 'one', title: 'Tokens', body: `${filler}Create an API token in the settings. ${filler}` },
        { id: 'two', title: 'API tokens', body: `${filler}Rotate the API token regularly.\n\nAnd keep the token secret. ${filler}` },
        { id: 'title-only', title: 'Token', body: 'short body' },
      ],
    });
    const [hit] = index.search('api token');
    expect(hit.sections.map((s) => s.id)).toEqual(['two', 'one', 'title-only']);
    for (const section of hit.sections) expect(section.body.length).toBeLessThanOrEqual(200);
    expect(hit.sections[0]).toEqual({
      id: 'two',
      title: 'API tokens',
      score: expect.any(Number),
      body: expect.stringContaining('Rotate the API token regularly. And keep'),
    });
    // Scores follow the order: distinct terms (2, 2, 1), then a title match (all three), then occurrences (3, 2, 0).
    expect(hit.sections.map((s) => s.score)).toEqual([2 + 0.5 + (0.25 * 3) / 4, 2 + 0.5 + (0.25 * 2) / 3, 1 + 0.5]);
    expect(hit.sections[0].body).toMatch(/^….*…$/);
    expect(hit.sections[1].body).toContain('Create an API token');
    expect(hit.sections[2].body).toBe('short body');
  });

  it('finds snippets by diacritic-insensitive match on the original text', () => {
    const index = new SearchIndex();
    const body = `${'word '.repeat(60)}the Crème brûlée recipe ${'word '.repeat(60)}`;
    index.upsert(doc('r', 'Recipes', body));
    const [hit] = index.search('creme');
    expect(hit.sections[0].body).toContain('Crème brûlée recipe');
  });
});

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SearchIndex at scale', () => {
  // Generous timeout: other test files may be running on the same (two) cores.
  it('indexes 10,000 documents of ~300 words and answers queries correctly', { timeout: 120_000 }, () => {
    const random = rng(42);
    const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'pe', 'da', 'gu', 'ze', 'bri', 'sto', 'an', 'el'];
    const vocabulary = new Set<string>();
    while (vocabulary.size < 20_000) {
      let word = '';
      const n = 2 + Math.floor(random() * 3);
      for (let i = 0; i < n; i++) word += syllables[Math.floor(random() * syllables.length)];
      vocabulary.add(word);
    }
    const words = [...vocabulary];
    // Zipf-like word frequencies: weight 1/rank.
    const cumulative: number[] = [];
    let sum = 0;
    for (let i = 0; i < words.length; i++) cumulative.push((sum += 1 / (i + 1)));
    const pick = () => {
      const x = random() * sum;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return words[lo];
    };
    const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');

    const generateStart = performance.now();
    const docs: SearchDocument[] = [];
    for (let i = 0; i < 10_000; i++) {
      docs.push({
        id: `doc-${i}`,
        title: phrase(2 + (i % 4)),
        path: `space/section-${i % 50}/page-${i}`,
        sections: Array.from({ length: 3 }, (_, s) => ({ id: `s${s}`, title: phrase(2), body: phrase(95) })),
      });
    }
    // Planted documents with words found nowhere else.
    docs[1234].title = 'Quixotic onboarding';
    docs[5678].sections[1].body += ' quixotic';

    const generateMs = performance.now() - generateStart;
    const index = new SearchIndex();
    const buildStart = performance.now();
    for (const d of docs) index.upsert(d);
    const buildMs = performance.now() - buildStart;
    expect(index.size).toBe(10_000);
    expect(buildMs).toBeLessThan(20_000);

    expect(ids(index, 'quixotic')).toEqual(['doc-1234', 'doc-5678']);
    expect(ids(index, 'quix')).toEqual(['doc-1234', 'doc-5678']);
    expect(ids(index, 'quixotic onboard')).toEqual(['doc-1234']);

    // Queries of 1-3 words taken from random documents: common words (large result sets) and
    // each document's rarest words (small ones); the last word is often cut to a prefix.
    const rank = new Map(words.map((w, i) => [w, i]));
    const docWords = (d: SearchDocument) => [d.title, ...d.sections.flatMap((s) => [s.title, s.body])].join(' ').split(' ');
    const queries: string[] = [];
    for (let i = 0; i < 60; i++) {
      const source = docWords(docs[Math.floor(random() * docs.length)]);
      const count = 1 + (i % 3);
      const terms =
        i % 4 < 2
          ? Array.from({ length: count }, () => source[Math.floor(random() * source.length)])
          : [...new Set(source)].sort((a, b) => (rank.get(b) ?? 0) - (rank.get(a) ?? 0)).slice(0, count);
      const last = terms[terms.length - 1];
      if (i % 2 === 0) terms[terms.length - 1] = last.slice(0, Math.max(2, Math.ceil(last.length / 2)));
      queries.push(terms.join(' '));
    }
    const times: number[] = [];
    for (const q of queries) {
      const start = performance.now();
      const hits = index.search(q);
      times.push(performance.now() - start);
      expect(hits.length).toBeGreaterThan(0);
    }
    times.sort((a, b) => a - b);
    const median = times[times.length >> 1];
    console.log(
      `search index: generated 10,000 docs in ${generateMs.toFixed(0)} ms, indexed them in ${buildMs.toFixed(0)} ms; ` +
        `query median ${median.toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms over ${times.length} queries`,
    );

    // Results agree with a brute-force scan (AND, prefix on the last term): the whole set for
    // small result sets, otherwise the first 100 hits all match and none is missing.
    // Each document's words as a set (a membership test per term, not a scan of ~300 words).
    const termSets = docs.map((d) => new Set(docWords(d)));
    const termLists = termSets.map((set) => [...set]);
    let fullChecks = 0;
    for (const q of queries) {
      const terms = q.split(' ');
      const last = terms.pop() as string;
      const expected = new Set(docs.filter((_, i) => terms.every((t) => termSets[i].has(t)) && termLists[i].some((w) => w.startsWith(last))).map((d) => d.id));
      const full = expected.size <= 500;
      const hits = index.search(q, { limit: full ? expected.size + 1 : 100 });
      expect(hits.length).toBe(full ? expected.size : 100);
      expect(hits.every((h) => expected.has(h.id))).toBe(true);
      expect(hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score)).toBe(true);
      if (full) fullChecks++;
    }
    expect(fullChecks).toBeGreaterThan(10);
    console.log(`search index: whole test ${(performance.now() - generateStart).toFixed(0)} ms`);
  });
});
