/**
 * Bounds on what a client can make the sandbox do (docs/security.md): a website import is bounded as
 * a whole (deadline, requests sent, bytes) and stops when its client goes away; queries cannot name
 * prototype keys; requests that stall are cut. The bounds are lowered here through LIMITS.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/server/limits.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { slowdown } from '../helpers/timing.js';

const SAVED = structuredClone(LIMITS);
afterEach(() => Object.assign(LIMITS.import, SAVED.import));

/** A small website on loopback: `/` links to `links`; `/slow*` answer after `slowMs`; `/big.png` is `bigBytes` long; others 404. */
let site: http.Server;
let siteUrl = '';
const hits: string[] = [];
const options = { links: [] as string[], slowMs: 0, bigBytes: 0 };
beforeAll(async () => {
  site = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = req.url ?? '/';
    if (url === '/') {
      const links = options.links.map((l) => `<a href="${l}">${l}</a>`).join(' ');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Home</title></head><body><h1>Home</h1><p>${links}</p></body></html>`);
    } else if (url.startsWith('/slow')) {
      const t = setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>${url}</h1>`), options.slowMs);
      res.on('close', () => clearTimeout(t));
    } else if (url === '/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(options.bigBytes, 1));
    } else if (url.startsWith('/page')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${url}</title></head><body><h1>${url}</h1></body></html>`);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((done) => {
      site.closeAllConnections();
      site.close(() => done());
    }),
);

let server: RunningServer;
beforeEach(async () => {
  server = await startServer({ port: 0 });
  hits.length = 0;
  Object.assign(options, { links: [], slowMs: 0, bigBytes: 0 });
});
afterEach(() => server.close());

async function call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: any }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const importSite = (signal?: AbortSignal) => call('POST', '/v1/spaces/sp-welcome/content/import', { url: `${siteUrl}/`, source: 'website' }, signal);
const titles = async () => (await call('GET', '/v1/spaces/sp-welcome/content/pages')).body.pages.map((p: { title: string }) => p.title);

describe('a website import is bounded as a whole', () => {
  it('stops at its deadline, answering 400 and changing nothing', async () => {
    // Long enough for the start page to be read (its worker thread starts first, below the request
    // thread's priority): 1.5 s on an idle machine, times how much slower this one runs now.
    const slower = slowdown();
    const deadlineMs = Math.round(1_500 * slower);
    LIMITS.import.deadlineMs = deadlineMs;
    options.links = ['/slow-1', '/slow-2'];
    options.slowMs = 8_000 * slower;
    const before = server.store.exportState();
    const started = Date.now();
    const r = await importSite();
    expect(Date.now() - started).toBeLessThan(4_000 * slower);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(`url: the import failed, nothing was changed: the import did not finish within ${deadlineMs} ms`);
    expect(server.store.exportState()).toBe(before);
    expect(hits).toEqual(['/', '/slow-1']);
  });

  it('sends no more requests than its limit, failed ones included; what is left is not imported', async () => {
    LIMITS.import.maxFetches = 4;
    options.links = ['/missing-1', '/missing-2', '/page-a', '/page-b', '/page-c'];
    const r = await importSite();
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // The start page, two 404s, one page: four requests.
    expect(hits).toEqual(['/', '/missing-1', '/missing-2', '/page-a']);
    const imported = await titles();
    expect(imported).toContain('/page-a');
    expect(imported).not.toContain('/page-b');
    expect(r.body).toMatchObject({ importedResources: 2, totalResources: 6 });
  });

  it('fetches and stores no more bytes than its limit', async () => {
    LIMITS.import.maxBytes = 2_000;
    options.links = ['/big.png', '/page-a'];
    options.bigBytes = 5_000;
    const r = await importSite();
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const files = (await call('GET', '/v1/spaces/sp-welcome/content/files')).body.items;
    expect(files.filter((f: { name: string }) => f.name === 'big.png')).toEqual([]);
    expect(await titles()).toContain('/page-a');
  });

  it('stops when its client goes away: no more requests to the site, nothing changed', async () => {
    options.links = Array.from({ length: 20 }, (_, i) => `/slow-${i}`);
    options.slowMs = 150;
    const before = (await call('GET', '/v1/spaces/sp-welcome/content/pages')).body;
    const gone = new AbortController();
    const pending = importSite(gone.signal).catch((err: Error) => err);
    await new Promise((done) => setTimeout(done, 400));
    gone.abort();
    expect(await pending).toBeInstanceOf(Error);
    await new Promise((done) => setTimeout(done, 200));
    const seen = hits.length;
    await new Promise((done) => setTimeout(done, 600));
    expect(hits.length, 'requests after the client went away').toBe(seen);
    expect(seen).toBeLessThan(8);
    expect((await call('GET', '/v1/spaces/sp-welcome/content/pages')).body).toEqual(before);
  });
});

describe('queries', () => {
  it('refuse prototype keys by name, and treat Object.prototype member names as plain (unknown) names', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      for (const query of [`${key}=x`, `limit=2&${key}=x`, `${key}=a&${key}=b`, `${key}[limit]=1`.replace('[limit]', '')]) {
        const r = await call('GET', `/v1/orgs/org-acme/spaces?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.error.message, query).toBe(`${key}: not a query parameter of any operation (a reserved name)`);
      }
    }
    const spaces = await call('GET', '/v1/orgs/org-acme/spaces?toString=1&hasOwnProperty=x&limit=1');
    expect(spaces.status).toBe(200);
    expect(spaces.body.items).toHaveLength(1);
    const search = await call('GET', '/v1/spaces/sp-welcome/search?query=welcome&valueOf=3');
    expect(search.status).toBe(200);
  });
});

describe('requests that stall are cut', () => {
  let quick: RunningServer;
  beforeAll(async () => {
    Object.assign(LIMITS.server, { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 });
    quick = await startServer({ port: 0 });
    Object.assign(LIMITS.server, SAVED.server);
  });
  afterAll(() => quick.close());

  /** Send `text` and wait for what the server answers until it closes the connection. */
  function stall(text: string): Promise<{ answer: string; ms: number }> {
    const { port } = new URL(quick.url);
    return new Promise((done, fail) => {
      const started = Date.now();
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('error', fail);
      socket.on('close', () => done({ answer, ms: Date.now() - started }));
      setTimeout(() => {
        socket.destroy();
        fail(new Error(`still open after 5 s: ${answer}`));
      }, 5_000).unref();
    });
  }

  it('headers that never end: 408 after the headers timeout', async () => {
    const r = await stall(`GET /v1/user HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${quick.token}\r\n`);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.answer).toContain('the request took too long to arrive');
    expect(r.ms).toBeLessThan(2_000);
  });

  it('a body that never ends: 408 after the request timeout', async () => {
    const r = await stall(
      `PATCH /v1/spaces/sp-welcome HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${quick.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"title":`,
    );
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.ms).toBeLessThan(2_500);
    expect(quick.store.data.spaces.get('sp-welcome')!.title).toBe('Welcome');
  });
});

describe('OpenAPI documents are bounded in depth', () => {
  /** Create or replace `slug` from `text`, wait for its processing, and return the specification. */
  async function processed(method: 'POST' | 'PUT', slug: string, text: string): Promise<any> {
    const path = method === 'POST' ? '/v1/orgs/org-acme/openapi' : `/v1/orgs/org-acme/openapi/${slug}`;
    const r = await call(method, path, method === 'POST' ? { slug, source: { text } } : { source: { text } });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    let spec = r.body;
    for (let i = 0; i < 1000 && spec.processingState !== 'complete'; i++) {
      await new Promise((done) => setTimeout(done, 10));
      spec = (await call('GET', `/v1/orgs/org-acme/openapi/${slug}`)).body;
    }
    expect(spec.processingState).toBe('complete');
    return spec;
  }
  const deepJson = (levels: number) => `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},"x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
  const TOO_DEEP = { code: 'TOO_DEEP', message: 'the document nests objects and lists deeper than 64 levels' };

  it('deeper than the limit is a processing error on the specification; its reads and the state never fail', async () => {
    const good = await processed('POST', 'deep', deepJson(10));
    expect(good.lastProcessErrorCode).toBeUndefined();
    const cases = [
      deepJson(5_000),
      // YAML: flow collections, deep enough to exhaust the composer's stack, and block nesting.
      `openapi: 3.0.3\ninfo: {title: Deep, version: '1'}\npaths: {}\nx: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`,
      `openapi: 3.0.3\ninfo: {title: Deep, version: '1'}\npaths: {}\n${Array.from({ length: 80 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`,
      // An alias inside its own anchor: a value that contains itself.
      `openapi: 3.0.3\ninfo: {title: Deep, version: '1'}\npaths: &p\n  /a: {x: *p}\n`,
    ];
    for (const text of cases) {
      const spec = await processed('PUT', 'deep', text);
      expect(spec.lastProcessErrorCode, text.slice(0, 120)).toBe('PARSE_ERROR');
      expect(spec.lastProcessedErrors).toEqual([TOO_DEEP]);
      // The version processed before stays the latest, and reads fine.
      expect(spec.lastVersion).toBe(good.lastVersion);
      const content = await call('GET', '/v1/orgs/org-acme/openapi/deep/versions/latest/content');
      expect(content.status).toBe(200);
      const state = await fetch(`${server.url}/_sandbox/state`, { headers: { authorization: `Bearer ${server.token}` } });
      expect(state.status).toBe(200);
    }
    // At the limit, a document is processed.
    const limit = await processed('PUT', 'deep', deepJson(62));
    expect(limit.lastProcessErrorCode).toBeUndefined();
    expect((await call('GET', '/v1/orgs/org-acme/openapi/deep/versions/latest/content')).status).toBe(200);
  });
});
