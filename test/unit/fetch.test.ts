import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, hostAllowed, refusedHost, safeFetch } from '../../src/server/lib/fetch.js';

let server: http.Server;
let base: string;
/** Requests whose response is deliberately never sent, released in afterAll. */
const hanging: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/ok') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`hello ${req.headers.accept}`);
    } else if (path === '/redirect') {
      res.writeHead(302, { location: '/ok' });
      res.end();
    } else if (path.startsWith('/loop/')) {
      const n = Number(path.slice('/loop/'.length));
      res.writeHead(301, { location: `/loop/${n + 1}` });
      res.end();
    } else if (path === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    } else if (path === '/to-other-host') {
      res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/ok` });
      res.end();
    } else if (path === '/hang') {
      hanging.push(res);
    } else if (path === '/slow-body') {
      // Headers arrive at once, the body never completes.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      hanging.push(res);
    } else if (path === '/big-declared') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '2048' });
      res.end(Buffer.alloc(2048));
    } else if (path === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 4; i++) res.write(Buffer.alloc(512));
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Wait until the server has no open connection left (the client closed its sockets). */
async function connectionsDrained(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const count = await new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    if (count === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the client left a connection open');
}

/** Run `promise`, expecting a FetchError, and return it. */
async function fetchError(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => {
      throw new Error('expected the fetch to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

describe('safeFetch', () => {
  it('fetches a 2xx response with its body and content type', async () => {
    const res = await safeFetch(`${base}/ok`, { accept: 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/ok`);
    expect(res.contentType).toBe('text/plain; charset=utf-8');
    expect(res.body.toString()).toBe('hello text/plain');
  });

  it('follows redirects and reports the final URL', async () => {
    const res = await safeFetch(`${base}/redirect`);
    expect(res.url).toBe(`${base}/ok`);
    expect(res.body.toString()).toBe('hello */*');
  });

  it('refuses to follow more than maxRedirects redirects', async () => {
    const ok = await fetchError(safeFetch(`${base}/loop/0`, { maxRedirects: 3 }));
    expect(ok.code).toBe('FETCH_ERROR');
    expect(ok.message).toBe(`fetching ${base}/loop/0 (redirected to ${base}/loop/3): too many redirects (more than 3)`);
  });

  it('times out on a server that never answers', async () => {
    const started = Date.now();
    const err = await fetchError(safeFetch(`${base}/hang`, { timeoutMs: 200 }));
    expect(err.code).toBe('FETCH_TIMEOUT');
    expect(err.message).toBe(`fetching ${base}/hang: timed out after 200 ms`);
    expect(Date.now() - started).toBeLessThan(2000);
    await connectionsDrained();
  });

  it('times out when the body never completes', async () => {
    const err = await fetchError(safeFetch(`${base}/slow-body`, { timeoutMs: 200 }));
    expect(err.code).toBe('FETCH_TIMEOUT');
    await connectionsDrained();
  });

  it('rejects a body larger than maxBytes, declared or streamed', async () => {
    for (const path of ['/big-declared', '/big-chunked']) {
      const err = await fetchError(safeFetch(`${base}${path}`, { maxBytes: 1024 }));
      expect(err.code).toBe('FETCH_ERROR');
      expect(err.message).toBe(`fetching ${base}${path}: response larger than 1024 bytes`);
    }
    const res = await safeFetch(`${base}/big-chunked`, { maxBytes: 2048 });
    expect(res.body.length).toBe(2048);
    await connectionsDrained();
  });

  it('only fetches http(s) URLs, also after a redirect', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x']) {
      const err = await fetchError(safeFetch(url));
      expect(err.code).toBe('FETCH_ERROR');
      expect(err.message).toBe(`fetching ${url}: only http(s) URLs can be fetched`);
    }
    const err = await fetchError(safeFetch(`${base}/to-file`));
    expect(err.message).toBe(`fetching ${base}/to-file (redirected to file:///etc/passwd): only http(s) URLs can be fetched`);
    expect((await fetchError(safeFetch('not a url'))).message).toBe('fetching not a url: not a valid URL');
  });

  it('treats a non-2xx final status as an error', async () => {
    const err = await fetchError(safeFetch(`${base}/missing`));
    expect(err.code).toBe('FETCH_ERROR');
    expect(err.message).toBe(`fetching ${base}/missing: answered 404`);
    // The message names the URL as given, even though URL parsing adds a '/' to it.
    expect((await fetchError(safeFetch(base))).message).toBe(`fetching ${base}: answered 404`);
  });

  it('enforces allowHosts on the initial URL and on redirects', async () => {
    const refused = await fetchError(safeFetch(`${base}/ok`, { allowHosts: ['example.com'] }));
    expect(refused.code).toBe('FETCH_ERROR');
    expect(refused.message).toBe(`fetching ${base}/ok: host 127.0.0.1 is not allowed`);

    const allowed = await safeFetch(`${base}/ok`, { allowHosts: ['EXAMPLE.com', '127.0.0.1'] });
    expect(allowed.status).toBe(200);

    const viaRedirect = await fetchError(safeFetch(`${base}/to-other-host`, { allowHosts: ['127.0.0.1'] }));
    expect(viaRedirect.message).toMatch(/redirected to http:\/\/localhost:\d+\/ok\): host localhost is not allowed$/);

    // `loopback` covers this machine's names and addresses, redirects included.
    expect((await safeFetch(`${base}/to-other-host`, { allowHosts: ['loopback'] })).status).toBe(200);
  });

  it('matches allow-list patterns: names, *.domain, loopback, *', () => {
    const cases: [string, string[], boolean][] = [
      ['docs.example.com', ['docs.example.com'], true],
      ['DOCS.example.com', ['docs.EXAMPLE.com'], true],
      ['example.com', ['docs.example.com'], false],
      ['a.b.example.com', ['*.example.com'], true],
      ['example.com', ['*.example.com'], false],
      ['evilexample.com', ['*.example.com'], false],
      ['example.com.evil.net', ['example.com'], false],
      ['127.0.0.1', ['loopback'], true],
      ['127.8.9.10', ['loopback'], true],
      ['localhost', ['loopback'], true],
      ['api.localhost', ['loopback'], true],
      ['::1', ['loopback'], true],
      ['[::1]', ['loopback'], true],
      ['10.0.0.1', ['loopback'], false],
      ['0.0.0.0', ['loopback'], false],
      ['169.254.169.254', ['loopback', '*.example.com'], false],
      ['anything.net', ['*'], true],
    ];
    for (const [host, allow, expected] of cases) expect(hostAllowed(host, allow), `${host} vs ${allow.join(',')}`).toBe(expected);
    // Numeric forms of loopback are normalised by URL parsing before the check.
    expect(refusedHost('http://2130706433/x', ['loopback'])).toBeUndefined();
    expect(refusedHost('http://0x7f.1/x', ['loopback'])).toBeUndefined();
    expect(refusedHost('http://user:pw@metadata.internal/x', ['loopback'])).toBe('metadata.internal');
    expect(refusedHost('http://[::ffff:a00:1]/', ['loopback'])).toBe('::ffff:a00:1');
    expect(refusedHost('not a url', ['loopback'])).toBeUndefined();
    expect(refusedHost('http://x.test/', null)).toBeUndefined();
  });

  it('reports connection failures as FETCH_ERROR', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await fetchError(safeFetch(`http://127.0.0.1:${port}/`));
    expect(err.code).toBe('FETCH_ERROR');
    expect(err.message).toMatch(/^fetching http:\/\/127\.0\.0\.1:\d+\/: request failed: .*ECONNREFUSED/);
  });
});
