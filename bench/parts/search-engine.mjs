/**
 * Our search engine (src/server/lib/search-index.ts) against MiniSearch 7 configured as close to it
 * as MiniSearch allows (title and text fields, AND, last term as prefix weighted 0.8, no fuzzy, the
 * same tokenizer: Unicode letters and digits, lower-cased, diacritics removed), in process, on the
 * documents of the search part (10,000 pages of ~180 words, two sections) and its queries. Rounds
 * alternate the two engines; each figure is the median of the rounds (build) or of every query.
 * The TypeScript source is bundled with esbuild (a dev dependency) at start.
 */
import { build } from 'esbuild';
import MiniSearch from 'minisearch';
import { join } from 'node:path';
import { ROOT } from '../lib/proc.mjs';
import { median, quantile, result } from '../lib/stats.mjs';
import { pageMarkdown } from '../lib/words.mjs';
import { queries } from './search.mjs';

const PAGES = 10_000;
const WORD = /[\p{L}\p{N}]+/gu;
const fold = (text) => {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
};
const tokenize = (text) => fold(text).match(WORD) ?? [];

async function loadOurs() {
  const out = await build({
    entryPoints: [join(ROOT, 'src/server/lib/search-index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

export default async function searchEngine({ quick }) {
  const { SearchIndex } = await loadOurs();
  const docs = Array.from({ length: PAGES }, (_, n) => {
    const title = `Page ${n}: ${pageMarkdown(n, 3)}`;
    return {
      id: `pg${n}`,
      title,
      path: `page-${n}`,
      sections: [
        { id: 'intro', title, body: pageMarkdown(n, 120) },
        { id: 'details', title: 'Details', body: pageMarkdown(n + 7919, 60) },
      ],
    };
  });
  const engines = {
    ours: () => {
      const index = new SearchIndex();
      for (const d of docs) index.upsert(d);
      return (q) => index.search(q, { limit: PAGES, sections: false }).length;
    },
    minisearch: () => {
      const index = new MiniSearch({
        fields: ['title', 'text'],
        tokenize,
        processTerm: (t) => t,
        extractField: (d, f) => (f === 'text' ? d.sections.map((s) => `${s.title} ${s.body}`).join(' ') : d[f]),
        searchOptions: { combineWith: 'AND', prefix: (_t, i, terms) => i === terms.length - 1, weights: { prefix: 0.8, fuzzy: 0 } },
      });
      index.addAll(docs);
      return (q) => index.search(q).length;
    },
  };
  const qs = queries(quick ? 100 : 400);
  const builds = { ours: [], minisearch: [] };
  const times = { ours: [], minisearch: [] };
  const rounds = quick ? 2 : 4;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? ['minisearch', 'ours'] : ['ours', 'minisearch'];
    const search = {};
    for (const name of order) {
      globalThis.gc?.();
      const t0 = performance.now();
      search[name] = engines[name]();
      builds[name].push(performance.now() - t0);
    }
    for (const q of qs) {
      const counts = order.map((name) => {
        const t0 = performance.now();
        const n = search[name](q);
        times[name].push(performance.now() - t0);
        return n;
      });
      if (counts[0] !== counts[1]) throw new Error(`the engines disagree on ${q}: ${counts}`);
    }
  }
  const command = `npm run bench -- search-engine (in process, ${PAGES.toLocaleString('en-US')} pages, ${qs.length} queries × ${rounds} rounds, alternating)`;
  return [
    result({
      part: 'search-engine',
      name: 'index build, 10,000 pages: MiniSearch vs ours',
      value: median(builds.minisearch),
      baseline: median(builds.ours),
      unit: 'ms',
      command,
    }),
    result({
      part: 'search-engine',
      name: 'query median: MiniSearch vs ours',
      value: median(times.minisearch),
      baseline: median(times.ours),
      unit: 'ms',
      command,
    }),
    result({
      part: 'search-engine',
      name: 'query 90th percentile: MiniSearch vs ours',
      value: quantile(times.minisearch, 0.9),
      baseline: quantile(times.ours, 0.9),
      unit: 'ms',
      command,
    }),
  ];
}
