/**
 * Search over 10,000 pages: GET /v1/spaces/{id}/search?query=… answers in ≤ 50 ms at the median
 * (one query at a time, as a client sees it). Queries: single words, common and rare, two words,
 * and a word being typed (a prefix). The first query, which builds the space's index, is reported
 * apart.
 */
import { median, quantile, result } from '../lib/stats.mjs';
import { random, skewed, WORDS } from '../lib/words.mjs';
import { startScaleSandbox } from './scale.mjs';

const PAGES = 10_000;

export function queries(count) {
  const rand = random(42);
  return Array.from({ length: count }, (_, i) => {
    const w = WORDS[skewed(rand)];
    switch (i % 4) {
      case 0:
        return w; // a word, usually common
      case 1:
        return WORDS[Math.floor(rand() * WORDS.length)]; // any word, usually rare
      case 2:
        return `${w} ${WORDS[skewed(rand)]}`;
      default:
        return w.slice(0, Math.max(3, w.length - 2)); // typing
    }
  });
}

export default async function search({ quick }) {
  const s = await startScaleSandbox({ searchPages: PAGES });
  try {
    const url = (q) => `${s.info.url}/v1/spaces/sp-search/search?query=${encodeURIComponent(q)}`;
    const get = async (q) => {
      const t0 = performance.now();
      const res = await fetch(url(q), { headers: { authorization: `Bearer ${s.info.token}` } });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t0, count: body.count };
    };
    const firstQuery = await get('kalo');
    const times = [];
    let hits = 0;
    for (const q of queries(quick ? 100 : 400)) {
      const r = await get(q);
      times.push(r.ms);
      hits += r.count > 0 ? 1 : 0;
    }
    if (hits < times.length / 2) throw new Error(`only ${hits} of ${times.length} queries found anything`);
    const command = `GET /v1/spaces/{id}/search?query=… over ${PAGES.toLocaleString('en-US')} pages, ${times.length} queries one at a time`;
    return [
      result({
        part: 'search',
        name: `search over ${PAGES.toLocaleString('en-US')} pages: median per query`,
        value: median(times),
        unit: 'ms',
        target: 50,
        command,
      }),
      result({ part: 'search', name: 'search: 90th percentile per query', value: quantile(times, 0.9), unit: 'ms', command }),
      result({
        part: 'search',
        name: 'search: first query (builds the index)',
        value: firstQuery.ms,
        unit: 'ms',
        command: 'the first GET …/search after start',
      }),
    ];
  } finally {
    await s.stop();
  }
}
