/**
 * Sandbox throughput at 50 connections, against a bare node:http server returning the same JSON
 * from a Map, with the same load tool (wrk, or bench/lib/load.mjs without it), in the same run: rounds alternate the
 * order of the servers; medians over rounds.
 * - GET /v1/spaces/{id}: requests/s ≥ 0.8 × bare, p99 ≤ 1.5 × bare;
 * - POST /v1/spaces/{id}/comments (the body validated): requests/s ≥ 0.6 × the bare server's GET;
 *   for reference, the bare server's own POST (read, parse, answer) against its GET.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, ROOT, runJson, startServer, tempDir } from '../lib/proc.mjs';
import { startSandbox } from '../lib/sandbox.mjs';
import { median, result } from '../lib/stats.mjs';
import { load as wrkLoad, WRK, wrkAvailable } from '../lib/wrk.mjs';

const LOAD = join(ROOT, 'bench/lib/load.mjs');
const SPACE = 'sp-welcome';

export const CONNECTIONS = 50;

/**
 * The load tool of this run, the same for every server compared: wrk when installed (a C program,
 * light enough that the server sets the pace), else the undici generator of bench/lib/load.mjs (in
 * Node: on two cores it takes about a core itself, which caps every server near the same rate).
 */
export const LOAD_TOOL = wrkAvailable() ? `wrk (${WRK}), 1 thread` : 'bench/lib/load.mjs (undici; wrk not found: apt-get install wrk)';

/** Run the load (its own process) against one target. */
export function loadRun(target) {
  return wrkAvailable() ? wrkLoad(target) : runJson(process.execPath, [LOAD, JSON.stringify(target)]);
}

/** The bare node:http server holding `objects` ({id: JSON object}); resolves to {url, stop}. */
export async function startBare(objects) {
  const dir = tempDir('bare');
  const file = join(dir, 'spaces.json');
  writeFileSync(file, JSON.stringify(objects));
  const s = await startServer(process.execPath, [join(ROOT, 'bench/servers/bare-http.mjs'), file]);
  return {
    url: s.info.url,
    pid: s.child.pid,
    stop: async () => {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function http({ quick }) {
  const rounds = quick ? 2 : 5;
  const durationMs = quick ? 3000 : 6000;
  const sandbox = await startSandbox();
  let bare;
  try {
    const got = await api(sandbox.url, sandbox.token, 'GET', `/v1/spaces/${SPACE}`);
    if (got.status !== 200) throw new Error(`GET /v1/spaces/${SPACE}: ${got.status} ${got.text}`);
    bare = await startBare({ [SPACE]: got.body });
    const bareText = await (await fetch(`${bare.url}/v1/spaces/${SPACE}`)).text();
    if (bareText !== got.text) throw new Error('the bare server does not answer the same JSON as the sandbox');

    const auth = { authorization: `Bearer ${sandbox.token}` };
    const targets = {
      bare: { url: `${bare.url}/v1/spaces/${SPACE}`, connections: CONNECTIONS, durationMs },
      get: { url: `${sandbox.url}/v1/spaces/${SPACE}`, headers: auth, connections: CONNECTIONS, durationMs },
      barePost: {
        url: `${bare.url}/v1/spaces/${SPACE}/comments`,
        method: 'POST',
        connections: CONNECTIONS,
        durationMs,
        headers: { 'content-type': 'application/json' },
        bodies: Array.from({ length: 16 }, (_, i) => JSON.stringify({ body: { markdown: `Benchmark comment ${i}: is **this** right?` } })),
      },
      post: {
        url: `${sandbox.url}/v1/spaces/${SPACE}/comments`,
        method: 'POST',
        connections: CONNECTIONS,
        durationMs,
        headers: { ...auth, 'content-type': 'application/json' },
        bodies: Array.from({ length: 16 }, (_, i) => JSON.stringify({ body: { markdown: `Benchmark comment ${i}: is **this** right?` } })),
      },
    };
    const runs = { bare: [], get: [], barePost: [], post: [] };
    const names = Object.keys(targets);
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length];
        const r = await loadRun(targets[name]);
        const ok = name === 'post' || name === 'barePost' ? r.statuses[201] : r.statuses[200];
        if (r.errors || ok !== r.requests) throw new Error(`${name}: unexpected answers ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
        runs[name].push(r);
        process.stderr.write(`    round ${round + 1}: ${name} ${Math.round(r.rps)} req/s\n`);
        // Comments pile up in the space (and its view counts them): start each round from the seed.
        if (name === 'post') await api(sandbox.url, sandbox.token, 'POST', '/_sandbox/reset');
      }
    }
    const med = (name, key) => median(runs[name].map((r) => r[key]));
    const command = `npm run bench -- http  (${LOAD_TOOL}, ${CONNECTIONS} connections, ${durationMs / 1000} s × ${rounds} rounds, alternating)`;
    return [
      result({
        part: 'http',
        name: 'GET /v1/spaces/{id}: requests/s',
        value: med('get', 'rps'),
        baseline: med('bare', 'rps'),
        unit: 'req/s',
        target: 0.8,
        dir: '>=',
        command,
      }),
      result({
        part: 'http',
        name: 'GET /v1/spaces/{id}: p99 latency',
        value: med('get', 'p99'),
        baseline: med('bare', 'p99'),
        unit: 'ms',
        target: 1.5,
        command,
      }),
      result({
        part: 'http',
        name: 'POST /v1/spaces/{id}/comments: requests/s (vs bare GET)',
        value: med('post', 'rps'),
        baseline: med('bare', 'rps'),
        unit: 'req/s',
        target: 0.6,
        dir: '>=',
        command,
      }),
      result({
        part: 'http',
        name: 'for reference: bare node:http POST (reads and parses the body) vs bare GET',
        value: med('barePost', 'rps'),
        baseline: med('bare', 'rps'),
        unit: 'req/s',
        command,
      }),
    ];
  } finally {
    await bare?.stop();
    await sandbox.stop();
  }
}
