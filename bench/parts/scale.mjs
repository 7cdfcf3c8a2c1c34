/**
 * Scale:
 * - `docsctl spaces list --all --json` over 100,000 spaces against 10,000: time ≤ 12 ×, the CLI's
 *   peak RSS ≤ 1.3 × (it streams);
 * - a page of 1000 costs the same first and last (the last full page, items 99,000…99,999);
 * - the sandbox holding 100,000 spaces and 1,000,000 pages: RSS ≤ 1.5 GiB.
 * Servers: bench/servers/scale-sandbox.mjs (the built sandbox, filled in process). The quick run
 * lists 50,000 against 5,000 spaces and fills a tenth of the memory figure (no target then).
 */
import { join } from 'node:path';
import { compare } from '../lib/hyperfine.mjs';
import { BIN, benchEnv, memoryOf, peakRss, ROOT, startServer } from '../lib/proc.mjs';
import { median, result } from '../lib/stats.mjs';

const SCALE_SERVER = join(ROOT, 'bench/servers/scale-sandbox.mjs');
const TOKEN = 'bench-token-0123456789';
const GIB = 1024 ** 3;

export function startScaleSandbox(options) {
  return startServer(process.execPath, ['--expose-gc', SCALE_SERVER, JSON.stringify({ token: TOKEN, ...options })]);
}

async function timedGet(url) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, body };
}

const n = (x) => x.toLocaleString('en-US');

async function listing({ quick }) {
  // The quick run lists half as many, keeping the 10 × between the two.
  const [fewer, more] = quick ? [5_000, 50_000] : [10_000, 100_000];
  const small = await startScaleSandbox({ spaces: fewer });
  const large = await startScaleSandbox({ spaces: more });
  try {
    const env = benchEnv({ DOCSCTL_TOKEN: TOKEN, DOCSCTL_ORG: 'org-acme' });
    const list = (url) => `/usr/bin/env DOCSCTL_API_URL=${url} ${process.execPath} ${BIN} spaces list --all --json`;
    const t = await compare(
      { fewer: list(small.info.url), more: list(large.info.url) },
      { env, ...(quick ? { rounds: 1, runs: 2, warmup: 1 } : { rounds: 3, runs: 3, warmup: 1 }) },
    );
    const rss = { fewer: [], more: [] };
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      for (const [name, s] of [
        ['fewer', small],
        ['more', large],
      ]) {
        rss[name].push(await peakRss(['spaces', 'list', '--all', '--json'], { ...env, DOCSCTL_API_URL: s.info.url }));
      }
    }

    // Pages of 1000: walk them all, then time the first and the last full one, alternately.
    const base = `${large.info.url}/v1/orgs/org-acme/spaces?limit=1000`;
    const cursors = [];
    const walk0 = performance.now();
    for (let r = await timedGet(base); r.body.next; r = await timedGet(`${base}&page=${encodeURIComponent(r.body.next.page)}`)) cursors.push(r.body.next.page);
    const walkMs = performance.now() - walk0;
    // The last full page: items more - 1000 … more - 1 of the more + 1 spaces (sp-welcome and sp-0…).
    const lastFull = `${base}&page=${encodeURIComponent(cursors[more / 1000 - 2])}`;
    const check = await timedGet(lastFull);
    if (check.body.items.length !== 1000) throw new Error(`the last full page has ${check.body.items.length} items`);
    const first = [];
    const last = [];
    for (let i = 0; i < (quick ? 10 : 30); i++) {
      first.push((await timedGet(base)).ms);
      last.push((await timedGet(lastFull)).ms);
    }

    const listCmd = 'docsctl spaces list --all --json';
    const vs = `${n(more)} vs ${n(fewer)} spaces`;
    return [
      result({
        part: 'scale',
        name: `\`${listCmd}\`: time, ${vs}`,
        value: t.more.median * 1000,
        baseline: t.fewer.median * 1000,
        unit: 'ms',
        target: 12,
        command: `hyperfine -N '${listCmd}' against sandboxes of ${vs}`,
      }),
      result({
        part: 'scale',
        name: `\`${listCmd}\`: CLI peak RSS, ${vs}`,
        value: median(rss.more) / 2 ** 20,
        baseline: median(rss.fewer) / 2 ** 20,
        unit: 'MiB',
        target: 1.3,
        command: `/usr/bin/time -f %M ${listCmd} > /dev/null`,
      }),
      result({
        part: 'scale',
        name: `GET a page of 1000 of ${n(more + 1)} spaces: last full page vs first`,
        value: median(last),
        baseline: median(first),
        unit: 'ms',
        target: 1.2,
        command: 'GET /v1/orgs/org-acme/spaces?limit=1000[&page=…], alternating, one connection',
      }),
      result({
        part: 'scale',
        name: `walk all ${cursors.length + 1} pages of 1000 (${n(more + 1)} spaces)`,
        value: walkMs,
        unit: 'ms',
        command: 'GET …?limit=1000 following next.page',
      }),
    ];
  } finally {
    await small.stop();
    await large.stop();
  }
}

async function memory({ quick }) {
  const spaces = quick ? 10_000 : 100_000;
  const s = await startScaleSandbox({ spaces, pagesPerSpace: 10 });
  try {
    // It works: a space's pages and the list answer.
    const pages = await timedGet(`${s.info.url}/v1/spaces/sp-${spaces - 1}/content/pages`);
    if (pages.body.pages.length !== 10) throw new Error(`sp-${spaces - 1} has ${pages.body.pages.length} pages`);
    await timedGet(`${s.info.url}/v1/orgs/org-acme/spaces?limit=1000`);
    const { rss } = memoryOf(s.child.pid);
    return [
      result({
        part: 'scale',
        name: `sandbox RSS holding ${n(spaces)} spaces and ${n(s.info.pages)} pages`,
        value: rss / GIB,
        unit: 'GiB',
        ...(quick ? {} : { target: 1.5 }),
        command: `bench/servers/scale-sandbox.mjs {"spaces":${spaces},"pagesPerSpace":10} (filled in ${(s.info.loadMs / 1000).toFixed(0)} s), VmRSS after GC`,
        note: quick ? 'a tenth of the target size (quick run)' : undefined,
      }),
    ];
  } finally {
    await s.stop();
  }
}

export default async function scale(opts) {
  return [...(await listing(opts)), ...(await memory(opts))];
}
