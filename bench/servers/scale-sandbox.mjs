/**
 * A sandbox (the built library, `dist/server.js`, as `docsctl serve` runs it) holding many spaces and
 * pages, for the scale and search figures. Run with --expose-gc:
 *
 *   node --expose-gc bench/servers/scale-sandbox.mjs '{"spaces":100000,"pagesPerSpace":10,"token":"..."}'
 *
 * Spaces come from the seed (`serve --seed` format): `sp-0`… in org-acme, at its root. Pages are
 * written into each space's revision as the content family stores them (`PageRec` trees in
 * `RevisionRec.content`), since the API has no bulk page creation; `searchPages` more pages go to
 * space `sp-search`. Markdown is made of words drawn from a fixed vocabulary (bench/lib/words.mjs),
 * every string distinct, as real content would be. Prints `{url, token, rss, heapUsed, …}` once
 * listening on 127.0.0.1.
 */
import { defaultSeed, startServer } from '../../dist/server.js';
import { pageMarkdown } from '../lib/words.mjs';

const opts = { spaces: 0, pagesPerSpace: 0, searchPages: 0, markdownWords: 60, ...JSON.parse(process.argv[2] ?? '{}') };
const t0 = performance.now();
const seed = defaultSeed(opts.token);
for (let i = 0; i < opts.spaces; i++) seed.spaces.push({ id: `sp-${i}`, organization: 'org-acme', title: `Space ${i}`, emoji: '📘' });
if (opts.searchPages) seed.spaces.push({ id: 'sp-search', organization: 'org-acme', title: 'Search' });
const server = await startServer({ port: 0, host: '127.0.0.1', seed });
const { data } = server.store;

let serial = 0;
function pages(count, words) {
  const out = [];
  for (let j = 0; j < count; j++) {
    const n = serial++;
    const title = ['Page ', n, ': ', pageMarkdown(n, 3)].join('');
    const at = Date.UTC(2026, 0, 1) + n * 1000;
    out.push({
      id: ['pg', n.toString(36).padStart(18, '0')].join(''),
      title,
      slug: ['page-', n].join(''),
      markdown: ['# ', title, '\n\n', pageMarkdown(n, words), '\n\n## Details\n\n', pageMarkdown(n + 7919, words / 2), '\n'].join(''),
      createdAt: new Date(at).toISOString(),
      updatedAt: new Date(at + 1).toISOString(),
      pages: [],
    });
  }
  return out;
}
function fill(spaceId, count, words) {
  const space = data.spaces.get(spaceId);
  data.revisions.get(space.revision).content = { pages: pages(count, words), files: [], variables: {} };
}
if (opts.pagesPerSpace) for (let i = 0; i < opts.spaces; i++) fill(`sp-${i}`, opts.pagesPerSpace, opts.markdownWords);
if (opts.searchPages) fill('sp-search', opts.searchPages, opts.markdownWords * 2);

globalThis.gc?.();
globalThis.gc?.();
const mem = process.memoryUsage();
process.stdout.write(
  JSON.stringify({
    url: server.url,
    token: server.token,
    pages: serial,
    spaces: opts.spaces,
    rss: mem.rss,
    heapUsed: mem.heapUsed,
    loadMs: Math.round(performance.now() - t0),
  }) + '\n',
);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
