/**
 * Soak: 50 concurrent clients send mixed reads and writes to a sandbox on loopback for SOAK_SECONDS
 * (8 by default, the CI form; e.g. SOAK_SECONDS=60 for the long one). Then: no 5xx and no other
 * error answer, every write acknowledged with a 2xx is readable, and the heap, measured after a
 * sandbox reset and a full GC, is within 10% of where it was before the run (nothing leaks outside
 * the state, which the reset drops).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../src/server/faults.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 8);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: RunningServer;
let agent: Agent;
beforeAll(async () => {
  server = await startServer({ port: 0 });
  agent = new Agent({ connections: CLIENTS, keepAliveTimeout: 10_000 });
});
afterAll(async () => {
  await agent?.close();
  await server?.close();
});

const tokenOf = (userId: string) => server.users.find((u) => u.id === userId)!.token;

async function call(method: string, path: string, body?: unknown, user = 'u-admin') {
  const r = await request(`${server.url}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { authorization: `Bearer ${tokenOf(user)}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : undefined };
}

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  failures: string[];
  /** What a 2xx said was created: the path to read it back. */
  created: string[];
}

/** One client: a seeded sequence of reads and writes until the deadline. */
async function client(n: number, until: number, tally: Tally): Promise<void> {
  const random = prng(1000 + n);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const mine: { collections: string[]; comments: string[]; crs: number[] } = { collections: [], comments: [], crs: [] };
  const send = async (method: string, path: string, body?: unknown, user?: string) => {
    const r = await call(method, path, body, user);
    tally.requests++;
    tally.byStatus.set(r.status, (tally.byStatus.get(r.status) ?? 0) + 1);
    if (r.status >= 400) tally.failures.push(`${method} ${path} → ${r.status} ${JSON.stringify(r.json)}`);
    return r;
  };
  while (Date.now() < until) {
    const action = random();
    if (action < 0.45) {
      // Reads.
      const path = pick([
        '/v1/user',
        '/v1/orgs/org-acme',
        '/v1/orgs/org-acme/collections',
        '/v1/orgs/org-acme/spaces?limit=100',
        '/v1/spaces/sp-welcome',
        '/v1/spaces/sp-welcome/change-requests?status=draft&limit=20',
        '/v1/spaces/sp-welcome/comments?limit=20',
        '/v1/orgs/org-acme/members',
        '/v1/spaces/sp-welcome/content/pages',
        '/v1/spaces/sp-welcome/search?query=welcome',
        '/v1/orgs/org-acme/sites',
      ]);
      await send('GET', path, undefined, pick(['u-admin', 'u-read', 'u-edit']));
    } else if (action < 0.6) {
      const r = await send('POST', '/v1/orgs/org-acme/collections', { title: `Soak ${n}-${tally.requests}` }, 'u-create');
      if (r.status === 201) {
        mine.collections.push(r.json.id);
        tally.created.push(`/v1/collections/${r.json.id}`);
      }
    } else if (action < 0.7 && mine.collections.length) {
      await send('PATCH', `/v1/collections/${pick(mine.collections)}`, { description: `touched ${tally.requests}` });
    } else if (action < 0.8) {
      const r = await send('POST', '/v1/spaces/sp-welcome/change-requests', { subject: `Soak ${n}` }, 'u-edit');
      if (r.status === 201) {
        mine.crs.push(r.json.number);
        tally.created.push(`/v1/spaces/sp-welcome/change-requests/${r.json.id}`);
      }
    } else if (action < 0.9) {
      const r = await send('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: `Soak comment ${n}` } }, 'u-comment');
      if (r.status === 201) {
        mine.comments.push(r.json.id);
        tally.created.push(`/v1/spaces/sp-welcome/comments/${r.json.id}`);
      }
    } else if (mine.comments.length) {
      await send('PUT', `/v1/spaces/sp-welcome/comments/${pick(mine.comments)}`, { resolved: random() < 0.5 }, 'u-review');
    } else {
      await send('POST', '/v1/orgs/org-acme/ping', undefined, pick(['u-read', 'u-guest']));
    }
  }
}

async function run(seconds: number): Promise<Tally> {
  const tally: Tally = { requests: 0, byStatus: new Map(), failures: [], created: [] };
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n, until, tally)));
  return tally;
}

async function heapAfterReset(): Promise<number> {
  expect((await call('POST', '/_sandbox/reset')).status).toBe(200);
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((done) => setImmediate(done));
  }
  return process.memoryUsage().heapUsed;
}

describe('soak', () => {
  it(
    `${CLIENTS} clients for ${SECONDS} s: no errors, no lost writes, flat memory`,
    async () => {
      // Warm up (JIT, pools, connections), then the baseline.
      await run(Math.min(2, SECONDS / 4));
      const before = await heapAfterReset();

      const t0 = Date.now();
      const tally = await run(SECONDS);
      const elapsed = (Date.now() - t0) / 1000;
      expect(tally.failures.slice(0, 5)).toEqual([]);
      expect([...tally.byStatus.keys()].every((s) => s < 300)).toBe(true);

      // Every acknowledged create is there.
      let lost = 0;
      for (let i = 0; i < tally.created.length; i += CLIENTS) {
        const batch = await Promise.all(tally.created.slice(i, i + CLIENTS).map((path) => call('GET', path)));
        lost += batch.filter((r) => r.status !== 200).length;
      }
      expect(lost).toBe(0);
      const creates = tally.created.length;
      expect(creates).toBeGreaterThan(100);
      // The test's own list of created paths (tens of thousands in a long run) is not the sandbox's memory.
      tally.created = [];

      const after = await heapAfterReset();
      console.info(
        `soak: ${CLIENTS} clients, ${elapsed.toFixed(1)} s, ${tally.requests} requests (${Math.round(tally.requests / elapsed)}/s), ` +
          `${tally.failures.length} errors, ${creates} creates all read back; ` +
          `heap after reset ${(before / 2 ** 20).toFixed(1)} MiB before, ${(after / 2 ** 20).toFixed(1)} MiB after`,
      );
      expect(after).toBeLessThanOrEqual(before * 1.1);
    },
    (SECONDS + 60) * 1000,
  );
});
