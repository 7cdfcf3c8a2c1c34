/**
 * One request must not stall the others (docs/security.md): work as long as a hostile input runs
 * in a worker thread (a website import's pages) or in slices that let other requests in (the first
 * search of a large space). Each test runs such a request against a sandbox on a socket and, while
 * it runs, another client's GETs, which must each answer within a second.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { commitToSpace, contentOf, edit, newPage, revisionOf } from '../../src/server/content/index.js';
import { LIMITS } from '../../src/server/limits.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';

const SAVED = structuredClone(LIMITS);
afterEach(() => Object.assign(LIMITS.import, SAVED.import));

let server: RunningServer;
beforeEach(async () => {
  server = await startServer({ port: 0 });
});
afterEach(() => server.close());

async function call(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(server.url + path, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${server.token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Until `work` settles, another client's GET of a space every 50 ms; the time each took, in ms. */
async function meanwhile<T>(work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const latencies: number[] = [];
  const other = (async () => {
    while (!done) {
      const t0 = performance.now();
      const r = await call('/v1/spaces/sp-welcome');
      latencies.push(performance.now() - t0);
      expect(r.status).toBe(200);
      await new Promise((resume) => setTimeout(resume, 50));
    }
  })();
  try {
    return { result: await work, latencies };
  } finally {
    done = true;
    await other;
  }
}

describe('a website import of a hostile page', () => {
  /** A page whose links nest 5,000 deep: HTML 85 KB long. */
  const NESTED = `<html><head><title>Nested</title></head><body>${'<a href="/x">'.repeat(5_000)}text${'</a>'.repeat(5_000)}</body></html>`;
  let site: http.Server;
  let siteUrl = '';
  beforeAll(async () => {
    site = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? NESTED : '<h1>x</h1>');
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((done) => { site.closeAllConnections(); site.close(() => done()); }));

  it('ends within its deadline, while another client\'s GETs keep answering within a second', async () => {
    LIMITS.import.deadlineMs = 20_000;
    const started = performance.now();
    const { result, latencies } = await meanwhile(call('/v1/spaces/sp-welcome/content/import', { method: 'POST', body: { url: siteUrl, source: 'website' } }));
    const took = performance.now() - started;
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(took).toBeLessThan(LIMITS.import.deadlineMs);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    // The page was imported: its text, in one link.
    const pages = (await call('/v1/spaces/sp-welcome/content/pages')).body.pages;
    const nested = pages.find((p: { title: string }) => p.title === 'Nested');
    expect(nested).toBeDefined();
    const page = await call(`/v1/spaces/sp-welcome/content/page/${nested.id}?format=markdown`);
    expect(page.body.markdown).toContain('text');
  });
});

describe('the first search of a large space', () => {
  const WORDS = ['deploy', 'install', 'cluster', 'token', 'backup', 'restore', 'monitor', 'scale', 'region', 'quota', 'webhook', 'secret'];

  it('is indexed in slices: another client\'s GETs keep answering within a second', async () => {
    // 10,000 short pages, written as the content model writes them.
    const store = server.store;
    const space = store.data.spaces.get('sp-welcome')!;
    const next = edit(contentOf(revisionOf(store, space.revision)));
    let seed = 7;
    const word = () => WORDS[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % WORDS.length];
    for (let i = 0; i < 10_000; i++) {
      const body = Array.from({ length: 8 }, word).join(' ');
      next.pages.push(newPage(store, { title: `Page ${i}`, slug: `page-${i}`, markdown: `# Page ${i}\n\n${body} marker${i}\n\n## More\n\n${body}\n` }));
    }
    commitToSpace(store, space, next, '10,000 pages');

    const { result, latencies } = await meanwhile(call('/v1/spaces/sp-welcome/search?query=marker9999'));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.items.map((i: { title: string }) => i.title)).toEqual(['Page 9999']);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(1_000);
  });
});
