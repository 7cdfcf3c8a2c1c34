/**
 * The OpenAPI processing that runs after the answer: its states, and its safety when the
 * specification is put again, deleted, or the sandbox reset while a slow fetch is in flight.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { families } from '../../src/server/routes.js';
import { Store } from '../../src/server/store.js';

const TOKEN = 'admin-token-for-unit-tests';
const TIMEOUT_MS = 300;
const SPEC = JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} });

let specServer: http.Server;
let base = '';
const hanging: http.ServerResponse[] = [];
let store: Store;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  specServer = http.createServer((req, res) => {
    if (req.url === '/slow') hanging.push(res);
    else res.end(SPEC);
  });
  await new Promise<void>((done) => specServer.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(specServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  specServer.closeAllConnections();
  await new Promise<void>((done) => specServer.close(() => done()));
});

const seed = defaultSeed(TOKEN);
beforeEach(() => {
  store = new Store(undefined, families);
  store.fetchPolicy = { ...store.fetchPolicy, timeoutMs: TIMEOUT_MS };
  loadSeed(store, seed);
  app = createApp(store, { reset: () => (store.clear(), loadSeed(store, seed)) });
});

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  errors = vi.spyOn(console, 'error');
});
afterEach(() => {
  // nothing went wrong in the background
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
});

async function call(method: string, url: string, body?: unknown) {
  const r = await app.handle({
    method,
    url: `/v1/orgs/org-acme${url}`,
    headers: { authorization: `Bearer ${TOKEN}`, host: 'sandbox.test' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: r.body ? JSON.parse(String(r.body)) : undefined };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const v = await probe();
    if (ok(v)) return v;
    await sleep(10);
  }
  throw new Error('condition not reached');
}

describe('OpenAPI processing after the answer', () => {
  it('goes pending → progress → complete', async () => {
    const answer = await call('PUT', '/openapi/states', { source: { url: `${base}/slow` } });
    expect(answer.body.processingState).toBe('pending');
    const inFlight = await until(
      () => call('GET', '/openapi/states'),
      (r) => r.body.processingState !== 'pending',
    );
    expect(inFlight.body.processingState).toBe('progress');
    const done = await until(
      () => call('GET', '/openapi/states'),
      (r) => r.body.processingState === 'complete',
    );
    expect(done.body.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
  });

  it('a run overtaken by a newer put lands nothing', async () => {
    await call('PUT', '/openapi/race', { source: { url: `${base}/slow` } });
    await until(
      () => call('GET', '/openapi/race'),
      (r) => r.body.processingState === 'progress',
    );
    const second = await call('PUT', '/openapi/race', { source: { text: SPEC } });
    expect(second.status).toBe(200);
    const done = await until(
      () => call('GET', '/openapi/race'),
      (r) => r.body.processingState === 'complete',
    );
    expect(done.body.lastProcessErrorCode).toBeUndefined();
    // the slow fetch of the first put times out afterwards: its outcome must not overwrite the second
    await sleep(TIMEOUT_MS + 150);
    const later = await call('GET', '/openapi/race');
    expect(later.body).toEqual(done.body);
    expect((await call('GET', '/openapi/race/versions')).body.count).toBe(1);
  });

  it('a run whose specification was deleted, or re-created under the same slug, lands nothing', async () => {
    await call('PUT', '/openapi/gone', { source: { url: `${base}/slow` } });
    await until(
      () => call('GET', '/openapi/gone'),
      (r) => r.body.processingState === 'progress',
    );
    expect((await call('DELETE', '/openapi/gone')).status).toBe(204);
    const again = await call('PUT', '/openapi/gone', { source: { url: `${base}/slow` } });
    expect(again.status).toBe(201);
    await sleep(TIMEOUT_MS + 150);
    const spec = await until(
      () => call('GET', '/openapi/gone'),
      (r) => r.body.processingState === 'complete',
    );
    expect(spec.body.id).toBe(again.body.id);
    expect((await call('GET', '/openapi')).body.count).toBe(1);
  });

  it('a run interrupted by a sandbox reset lands nothing', async () => {
    await call('PUT', '/openapi/reset', { source: { url: `${base}/slow` } });
    await until(
      () => call('GET', '/openapi/reset'),
      (r) => r.body.processingState === 'progress',
    );
    store.clear();
    loadSeed(store, seed);
    await sleep(TIMEOUT_MS + 150);
    expect((await call('GET', '/openapi')).body.count).toBe(0);
    expect(store.data.slices.get('openapi')).toEqual({ specs: new Map(), versions: new Map() });
  });

  it('puts answered before their run started are processed once, from the newest source', async () => {
    const fetched = hanging.length;
    // both puts are answered before the first run gets its turn
    await call('PUT', '/openapi/quick', { source: { url: `${base}/slow` } });
    await call('PUT', '/openapi/quick', { source: { text: SPEC } });
    const done = await until(
      () => call('GET', '/openapi/quick'),
      (r) => r.body.processingState === 'complete',
    );
    expect(done.body.lastProcessErrorCode).toBeUndefined();
    await sleep(50);
    expect(hanging.length).toBe(fetched); // the first source was never fetched
    expect((await call('GET', '/openapi/quick/versions')).body.count).toBe(1); // and processed once
  });
});
