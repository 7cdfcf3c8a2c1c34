/**
 * Storage (`serve --data`, a SQLite database), at 100,000 spaces (the quick run: 20,000), each figure
 * a ratio in one run:
 * - a PATCH of a space with --data ≤ 3 × the same PATCH in memory (median of sequential PATCHes,
 *   the two servers alternated);
 * - p99 of GETs (one reader, one request at a time) while 20 writers PATCH ≤ 2 × without the
 *   writers, on the --data server; each writer sends a PATCH every WRITER_PAUSE_MS (a team's
 *   staging copy, not a load test); the same with writers that never pause is reported beside it;
 * - start-up (spawn to the ready line) on the database ≤ 1.5 × on the same state as JSON
 *   (`serve --memory --seed STATE.json`, the state exported by GET /_sandbox/state);
 * - 10 SIGKILLs of `serve --data` under 20 writers: 0 acknowledged writes lost, and no file beside
 *   the database but its -wal (and -shm).
 * Every server is the built CLI (`docsctl serve`), on 127.0.0.1.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BIN, benchEnv, startServer, tempDir } from '../lib/proc.mjs';
import { median, quantile, result } from '../lib/stats.mjs';

const TOKEN = 'bench-storage-token-0123';
const WRITERS = 20;
const WRITER_PAUSE_MS = 20;
const n = (x) => x.toLocaleString('en-US');

function serve(args) {
  return startServer(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--token', TOKEN, ...args], { env: benchEnv() });
}

function client(url) {
  const pool = new Pool(url, { connections: WRITERS + 2, pipelining: 1 });
  const call = async (method, path, body) => {
    const res = await pool.request({
      path: `/v1${path}`,
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
  };
  return { call, close: () => pool.destroy() };
}

async function timed(fn) {
  const t0 = performance.now();
  const r = await fn();
  return { ms: performance.now() - t0, r };
}

/** The state of `spaces` spaces as GET /_sandbox/state exports it, in dir/state.json; and the database made from it. */
async function makeState(dir, spaces) {
  const seed = {
    organizations: [{ id: 'org-acme', title: 'Acme Docs' }],
    users: [{ id: 'u-admin', displayName: 'Admin', email: 'admin@example.com', token: TOKEN }],
    members: [{ organization: 'org-acme', user: 'u-admin', role: 'admin' }],
    spaces: [],
  };
  for (let i = 0; i < spaces; i++) seed.spaces.push({ id: `sp-${i}`, organization: 'org-acme', title: `Space ${i}` });
  writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
  const memory = await serve(['--memory', '--seed', join(dir, 'seed.json')]);
  const res = await fetch(`${memory.info.url}/_sandbox/state`, { headers: { authorization: `Bearer ${TOKEN}` } });
  writeFileSync(join(dir, 'state.json'), await res.text());
  await memory.stop();
  // The database, made from the same state (SIGTERM folds its log in).
  const data = await serve(['--data', join(dir, 'state.db'), '--seed', join(dir, 'state.json')]);
  await data.stop();
}

async function startup(dir, rounds) {
  const ms = { json: [], db: [] };
  for (let i = 0; i < rounds; i++) {
    for (const [name, args] of [
      ['json', ['--memory', '--seed', join(dir, 'state.json')]],
      ['db', ['--data', join(dir, 'state.db')]],
    ]) {
      const { ms: t, r } = await timed(() => serve(args));
      ms[name].push(t);
      await r.stop();
    }
  }
  return ms;
}

async function patches(memory, data, count, spaces) {
  const ms = { memory: [], data: [] };
  for (let i = 0; i < count; i++) {
    const id = `sp-${(i * 7919) % spaces}`;
    for (const [name, c] of [
      ['memory', memory],
      ['data', data],
    ]) {
      const { ms: t, r } = await timed(() => c.call('PATCH', `/spaces/${id}`, { title: `Renamed ${name} ${i}` }));
      if (r.status !== 200) throw new Error(`PATCH ${id} (${name}): ${r.status} ${JSON.stringify(r.json)}`);
      ms[name].push(t);
    }
  }
  return ms;
}

/** GET latencies of one reader for `durationMs`, with `writers` PATCH loops (pausing `pauseMs` between writes) meanwhile. */
async function readsDuring(c, { writers, pauseMs, durationMs, spaces }) {
  let stop = false;
  let writes = 0;
  const writer = async (w) => {
    for (let i = 0; !stop; i++) {
      const r = await c.call('PATCH', `/spaces/sp-${(w * 1009 + i) % spaces}`, { title: `W${w} ${i}` });
      if (r.status !== 200) throw new Error(`PATCH: ${r.status}`);
      writes++;
      if (pauseMs) await new Promise((res) => setTimeout(res, pauseMs));
    }
  };
  const running = Array.from({ length: writers }, (_, w) => writer(w));
  const ms = [];
  const t0 = performance.now();
  for (let i = 0; performance.now() - t0 < durationMs; i++) {
    const { ms: t, r } = await timed(() => c.call('GET', `/spaces/sp-${(i * 31) % spaces}`));
    if (r.status !== 200) throw new Error(`GET: ${r.status}`);
    ms.push(t);
  }
  stop = true;
  await Promise.all(running);
  return { p99: quantile(ms, 0.99), p50: median(ms), reads: ms.length, writesPerSecond: writes / (durationMs / 1000) };
}

/** 10 SIGKILLs under 20 writers: acknowledged writes lost (each writer renames its own space, and creates collections). */
async function kills(dir, rounds) {
  const file = join(dir, 'state.db');
  const acknowledged = new Map(); // space id → titles that may be the last: [last acknowledged, sent after it]
  const created = [];
  let lost = 0;
  const lostWhat = [];
  const refused = {};
  const stray = [];
  let total = 0;
  for (let round = 0; round <= rounds; round++) {
    const s = await serve(['--data', file]);
    const c = client(s.info.url);
    for (const [id, [acked, pending]] of acknowledged) {
      const title = (await c.call('GET', `/spaces/${id}`)).json.title;
      // Nothing acknowledged yet for this space: any title is right.
      if (acked !== undefined && title !== acked && title !== pending) {
        lost++;
        lostWhat.push(`${id}: ${title} (acknowledged ${acked}, then sent ${pending})`);
      }
    }
    if (created.length) {
      const titles = new Set();
      let page;
      do {
        const r = await c.call('GET', `/orgs/org-acme/collections?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        for (const x of r.json.items) titles.add(x.title);
        page = r.json.next?.page;
      } while (page);
      const missing = created.filter((t) => !titles.has(t));
      lost += missing.length;
      lostWhat.push(...missing.map((t) => `collection ${t}`));
    }
    if (round === rounds) {
      c.close();
      await s.stop();
      break;
    }
    let stop = false;
    const writer = async (w) => {
      for (let i = 0; !stop; i++) {
        try {
          if (w % 2 === 0) {
            const title = `k${round}-${w}-${i}`;
            const r = await c.call('POST', '/orgs/org-acme/collections', { title });
            if (r.status === 201) {
              created.push(title);
              total++;
            } else refused[r.status] = (refused[r.status] ?? 0) + 1;
          } else {
            const id = `sp-${w}`;
            const title = `k${round}-${w}-${i}`;
            const before = acknowledged.get(id)?.[0];
            acknowledged.set(id, [before, title]);
            const r = await c.call('PATCH', `/spaces/${id}`, { title });
            if (r.status === 200) {
              acknowledged.set(id, [title, title]);
              total++;
            } else refused[r.status] = (refused[r.status] ?? 0) + 1;
          }
        } catch {
          return;
        }
      }
    };
    const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 300 + (round % 3) * 100));
    s.child.kill('SIGKILL');
    await new Promise((r) => s.child.once('exit', r));
    stop = true;
    await Promise.all(running);
    c.close();
    stray.push(...readdirSync(dir).filter((f) => f.startsWith('state.db') && !['state.db', 'state.db-wal', 'state.db-shm'].includes(f)));
  }
  if (lostWhat.length) process.stderr.write(`  lost: ${lostWhat.slice(0, 20).join('; ')}\n`);
  return { lost, total, refused, stray: [...new Set(stray)], dbBytes: statSync(file).size };
}

export default async function storage({ quick }) {
  const spaces = quick ? 20_000 : 100_000;
  const dir = tempDir('storage');
  const part = 'storage';
  const results = [];
  await makeState(dir, spaces);
  if (process.env.BENCH_STORAGE_KILLS_ONLY) {
    const k = await kills(dir, 10);
    return [result({ part, name: 'lost', value: k.lost, target: 0, note: `${k.total} ${JSON.stringify(k.refused)}` })];
  }
  const stateBytes = statSync(join(dir, 'state.json')).size;

  const up = await startup(dir, quick ? 3 : 7);
  results.push(
    result({
      part,
      name: `start-up on a ${n(spaces)}-space database vs the same state in JSON (--memory --seed)`,
      unit: 'ms',
      value: median(up.db),
      baseline: median(up.json),
      target: 1.5,
      command: 'docsctl serve --data STATE.db  vs  docsctl serve --memory --seed STATE.json',
      note: `state ${(stateBytes / 1e6).toFixed(1)} MB as JSON`,
    }),
  );

  const memory = await serve(['--memory', '--seed', join(dir, 'state.json')]);
  const data = await serve(['--data', join(dir, 'state.db')]);
  const cm = client(memory.info.url);
  const cd = client(data.info.url);
  try {
    // Warm both (code compiled, caches made), then measure.
    await patches(cm, cd, 20, spaces);
    const p = await patches(cm, cd, quick ? 100 : 400, spaces);
    results.push(
      result({
        part,
        name: `PATCH a space at ${n(spaces)} spaces, --data vs in memory (median)`,
        unit: 'ms',
        value: median(p.data),
        baseline: median(p.memory),
        target: 3,
        command: 'PATCH /v1/spaces/{id}, one at a time, the two servers alternated',
        note: `p95 ${quantile(p.data, 0.95).toFixed(2)} ms vs ${quantile(p.memory, 0.95).toFixed(2)} ms`,
      }),
    );

    const durationMs = quick ? 2000 : 5000;
    const alone = await readsDuring(cd, { writers: 0, pauseMs: 0, durationMs, spaces });
    const paced = await readsDuring(cd, { writers: WRITERS, pauseMs: WRITER_PAUSE_MS, durationMs, spaces });
    results.push(
      result({
        part,
        name: `p99 of GETs during ${WRITERS} writers (--data, ${n(spaces)} spaces) vs without writers`,
        unit: 'ms',
        value: paced.p99,
        baseline: alone.p99,
        target: 2,
        command: `one reader GET /v1/spaces/{id}; ${WRITERS} writers PATCH /v1/spaces/{id}, ${WRITER_PAUSE_MS} ms between writes`,
        note: `${Math.round(paced.writesPerSecond)} writes/s acknowledged; p50 ${paced.p50.toFixed(2)} vs ${alone.p50.toFixed(2)} ms`,
      }),
    );
    const saturatedData = await readsDuring(cd, { writers: WRITERS, pauseMs: 0, durationMs, spaces });
    const saturatedMemory = await readsDuring(cm, { writers: WRITERS, pauseMs: 0, durationMs, spaces });
    results.push(
      result({
        part,
        name: `p99 of GETs during ${WRITERS} writers that never pause, --data vs in memory`,
        unit: 'ms',
        value: saturatedData.p99,
        baseline: saturatedMemory.p99,
        command: `as above, writers without a pause (every write queued behind another)`,
        note: `${Math.round(saturatedData.writesPerSecond)} vs ${Math.round(saturatedMemory.writesPerSecond)} writes/s acknowledged`,
      }),
    );
  } finally {
    cm.close();
    cd.close();
    await memory.stop();
    await data.stop();
  }

  const k = await kills(dir, 10);
  results.push(
    result({
      part,
      name: `acknowledged writes lost over 10 SIGKILLs of serve --data under ${WRITERS} writers`,
      unit: 'writes',
      value: k.lost,
      target: 0,
      command: 'kill -9 while 20 writers POST collections and PATCH spaces; restart; read every acknowledged write back',
      note: `${n(k.total)} writes acknowledged in all${Object.keys(k.refused).length ? `; refused: ${JSON.stringify(k.refused)}` : ''}`,
    }),
  );
  results.push(
    result({
      part,
      name: 'files left beside the database after the SIGKILLs (other than its -wal and -shm)',
      unit: 'files',
      value: k.stray.length,
      target: 0,
      command: 'ls DIR after each SIGKILL',
      note: k.stray.join(', ') || 'none',
    }),
  );
  return results;
}
