/**
 * The CLI pointed at a server that means harm (issue 22, "The CLI must be safe to point at any
 * server"): endless distinct cursors, cursors that come back, answers larger than any the API gives,
 * a Retry-After that never ends, redirects. docsctl (main() in process, its own HTTP agent) against
 * a server of this file's own on 127.0.0.1 that answers what each test scripts; the bounds are lowered by their variables so that
 * each test ends in a second or two.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { docsctlInProcess } from '../helpers/inprocess.js';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;
let handler: Handler;
let requests: string[] = [];
let server: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url!);
    req.resume();
    handler(req, res, new URL(req.url!, 'http://x'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'docsctl-hostile-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  requests = [];
});

const run = (args: string[], env: Record<string, string> = {}) =>
  docsctlInProcess(args, {
    HOME: dir,
    DOCSCTL_CONFIG_DIR: dir,
    DOCSCTL_API_URL: url,
    DOCSCTL_TOKEN: 'tok-hostile-1234',
    DOCSCTL_ORG: 'o',
    DOCSCTL_MAX_RETRIES: '0',
    ...env,
  });

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const space = (i: number) => ({
  object: 'space',
  id: `sp${i}`,
  title: `Space ${i}`,
  visibility: 'private',
  emoji: '',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  urls: { app: 'x', location: 'x', published: null },
  organization: 'o',
  parent: null,
});
const collection = (i: number) => ({
  object: 'collection',
  id: `c${i}`,
  title: `Collection ${i}`,
  organization: 'o',
  createdAt: '2030-01-01T00:00:00.000Z',
  urls: { app: 'x', location: 'x' },
  permissions: { view: true, admin: true },
});

/**
 * Every list of the server goes on: each page one item and a new cursor. It does end, after `end`
 * pages (so that a client without a bound finishes, and the test shows how far it went).
 */
function endlessLists(end = 60): Handler {
  return (_req, res, u) => {
    const n = Number(u.searchParams.get('page')?.slice(1) ?? '0');
    const item = u.pathname.endsWith('/collections') ? collection(n) : space(n);
    json(res, 200, { items: [item], count: 1e9, ...(n + 1 < end ? { next: { page: `p${n + 1}` } } : {}) });
  };
}

describe('a list that never ends stops at DOCSCTL_MAX_PAGES', () => {
  it('spaces list --all: the items of the pages read, then exit 1 naming the list, the bound and how to raise it', async () => {
    handler = endlessLists();
    const started = Date.now();
    const r = await run(['spaces', 'list', '--all', '--fields', 'id'], { DOCSCTL_MAX_PAGES: '5' });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('sp0\nsp1\nsp2\nsp3\nsp4');
    expect(r.stderr).toContain(
      'error: GET /v1/orgs/o/spaces: the list goes on past 5 pages, the most docsctl reads of one list (the server still sent a next.page)',
    );
    expect(r.stderr).toContain('hint: if the list is really that long, raise the bound: DOCSCTL_MAX_PAGES=50');
    // Five requests, not one more: what the process holds is five pages.
    expect(requests).toHaveLength(5);
    expect(Date.now() - started).toBeLessThan(10_000);
    // --json: the array of what was read is closed, and parses.
    requests = [];
    const j = await run(['spaces', 'list', '--all', '--json'], { DOCSCTL_MAX_PAGES: '3' });
    expect(j.exitCode).toBe(1);
    expect(JSON.parse(j.stdout).map((s: { id: string }) => s.id)).toEqual(['sp0', 'sp1', 'sp2']);
    expect(requests).toHaveLength(3);
  });

  it('api --paginate: pages streamed out as they come, the array closed, exit 1 at the bound', async () => {
    handler = endlessLists();
    const r = await run(['api', '/v1/orgs/{org}/spaces', '--paginate'], { DOCSCTL_MAX_PAGES: '4' });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).map((s: { id: string }) => s.id)).toEqual(['sp0', 'sp1', 'sp2', 'sp3']);
    expect(r.stderr).toContain('error: GET /v1/orgs/o/spaces: the list goes on past 4 pages');
    expect(r.stderr).toContain('DOCSCTL_MAX_PAGES=40');
    expect(requests).toEqual([
      '/v1/orgs/o/spaces?limit=1000',
      '/v1/orgs/o/spaces?limit=1000&page=p1',
      '/v1/orgs/o/spaces?limit=1000&page=p2',
      '/v1/orgs/o/spaces?limit=1000&page=p3',
    ]);
    requests = [];
    const slurp = await run(['api', '/v1/orgs/{org}/spaces', '--paginate', '--slurp'], { DOCSCTL_MAX_PAGES: '2' });
    expect(slurp.exitCode).toBe(1);
    expect(JSON.parse(slurp.stdout)).toHaveLength(2);
    expect(requests).toHaveLength(2);
  });

  it('tree: every list it reads stops at the bound (no output, exit 1)', async () => {
    handler = endlessLists();
    const r = await run(['tree'], { DOCSCTL_MAX_PAGES: '3' });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: GET \/v1\/orgs\/o\/(spaces|collections): the list goes on past 3 pages/);
    // The spaces and the collections: three pages of each at most.
    expect(requests.filter((q) => q.startsWith('/v1/orgs/o/spaces')).length).toBeLessThanOrEqual(3);
    expect(requests.filter((q) => q.startsWith('/v1/orgs/o/collections')).length).toBeLessThanOrEqual(3);
  });

  it('a list shorter than the bound is read whole, and a bad DOCSCTL_MAX_PAGES is exit 2 before anything is sent', async () => {
    handler = endlessLists(4);
    const r = await run(['spaces', 'list', '--all', '--fields', 'id'], { DOCSCTL_MAX_PAGES: '4' });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'sp0\nsp1\nsp2\nsp3' });
    requests = [];
    for (const bad of ['0', 'many', '1.5', '1000001']) {
      const b = await run(['spaces', 'list'], { DOCSCTL_MAX_PAGES: bad });
      expect(b.exitCode).toBe(2);
      expect(b.stderr.split('\n')[0]).toBe(`error: DOCSCTL_MAX_PAGES: must be a whole number from 1 to 1000000 (got "${bad}")`);
    }
    expect(requests).toEqual([]);
  });
});

describe('a cursor that comes back is a malformed list, for every list', () => {
  /** p0 → p1 → p2 → `back` (then, for a client that follows it anyway, on until p30, the end). */
  const cycling =
    (back: string): Handler =>
    (_req, res, u) => {
      const page = u.searchParams.get('page');
      const n = page === null ? 0 : Number(page.slice(1));
      const next = n === 2 ? back : n < 30 ? `p${n + 1}` : undefined;
      json(res, 200, { items: [space(n)], count: 100, ...(next ? { next: { page: next } } : {}) });
    };

  it('api --paginate stops at a cursor it followed already, as spaces list --all does', async () => {
    for (const args of [
      ['api', '/v1/orgs/{org}/spaces', '--paginate'],
      ['spaces', 'list', '--all', '--fields', 'id'],
    ]) {
      handler = cycling('p1');
      requests = [];
      const r = await run(args);
      expect(r.exitCode, args.join(' ')).toBe(1);
      expect(r.stderr).toContain('GET /v1/orgs/o/spaces: the server sent a malformed list (next.page goes back to a page already read: "p1")');
      // The items of the pages read, then the error.
      expect(args[0] === 'api' ? JSON.parse(r.stdout).map((s: { id: string }) => s.id) : r.stdout.split('\n')).toEqual(['sp0', 'sp1', 'sp2']);
      expect(requests).toHaveLength(3);
      handler = cycling('p2');
      requests = [];
      const same = await run(args);
      expect(same.exitCode).toBe(1);
      expect(same.stderr).toContain('the server sent a malformed list (next.page repeats the cursor of the page it came with: "p2")');
      expect(requests).toHaveLength(3);
    }
  });
});

describe('an answer larger than DOCSCTL_MAX_RESPONSE_BYTES', () => {
  const MiB = 1024 * 1024;
  /** A JSON object of `size` bytes (a user with a long name). */
  const big = (size: number) => {
    const head = '{"object":"user","id":"u1","displayName":"';
    return Buffer.from(head + 'x'.repeat(size - head.length - 2) + '"}');
  };
  let sent = 0;
  /** The body in 64 KiB writes, at the client's pace, until `size` or the client goes. */
  const stream = (res: ServerResponse, body: Buffer) => {
    let at = 0;
    const more = () => {
      while (at < body.length) {
        const chunk = body.subarray(at, at + 65_536);
        at += chunk.length;
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      res.end();
    };
    res.on('close', () => res.off('drain', more));
    more();
  };

  it('said by its Content-Length: refused before it is read, exit 1 naming the request, the bound and how to raise it', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(5 * MiB) });
      sent = 0;
      stream(res, big(5 * MiB));
    };
    const r = await run(['api', '/v1/user'], { DOCSCTL_MAX_RESPONSE_BYTES: String(MiB) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      `error: GET ${url}/v1/user: the answer is larger than 1 MiB (1048576 bytes), the most docsctl reads of one answer (its Content-Length says 5242880 bytes): not read`,
    );
    expect(r.stderr).toContain('hint: if the answer is meant to be that large, raise the bound: DOCSCTL_MAX_RESPONSE_BYTES=4194304 (bytes)');
    expect(sent).toBeLessThan(5 * MiB);
    // The same answer within the default bound is read.
    const ok = await run(['api', '/v1/user', '--jq', '.id']);
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'u1' });
  });

  it('without a Content-Length (chunked): cut once past the bound, the connection closed', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      sent = 0;
      stream(res, big(32 * MiB));
    };
    const r = await run(['collections', 'get', 'c1'], { DOCSCTL_MAX_RESPONSE_BYTES: String(MiB) });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: GET ${url}/v1/collections/c1: the answer is larger than 1 MiB (1048576 bytes), the most docsctl reads of one answer (it came without a Content-Length): cut there`,
    );
    // The client stopped reading: the server could not send the 32 MiB (only what the socket buffers held).
    expect(sent).toBeLessThan(16 * MiB);
  });

  it('a PDF saved with cr pdf --out is streamed to its file, not bounded by it; a download that is not a PDF leaves --out as it was', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * MiB, 'x'), Buffer.from('\n%%EOF\n')]);
    let body = pdf;
    handler = (_req, res, u) => {
      if (u.pathname.endsWith('/pdf')) return json(res, 200, { url: `${url}/downloads/cr.pdf` });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      stream(res, body);
    };
    const file = join(dir, 'cr.pdf');
    const r = await run(['cr', 'pdf', 'sp1', '1', '--out', file], { DOCSCTL_MAX_RESPONSE_BYTES: String(MiB) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(file).equals(pdf)).toBe(true);
    expect(r.stderr).toBe(`saved the PDF of change request 1 to ${file} (${pdf.length} bytes)`);
    body = Buffer.from('<html>not a pdf</html>');
    writeFileSync(file, 'before');
    const bad = await run(['cr', 'pdf', 'sp1', '1', '--out', file]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`error: the download at ${url}/downloads/cr.pdf is not a PDF (application/pdf)`);
    expect(readFileSync(file, 'utf8')).toBe('before');
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(existsSync(join(dir, 'cr.pdf'))).toBe(true);
  });

  it('a bad DOCSCTL_MAX_RESPONSE_BYTES is exit 2 before anything is sent', async () => {
    for (const bad of ['0', '64MiB', '-1', String(512 * MiB)]) {
      const b = await run(['api', '/v1/user'], { DOCSCTL_MAX_RESPONSE_BYTES: bad });
      expect(b.exitCode).toBe(2);
      expect(b.stderr.split('\n')[0]).toBe(`error: DOCSCTL_MAX_RESPONSE_BYTES: must be a whole number from 1 to 268435456 (got "${bad}")`);
    }
    expect(requests).toEqual([]);
  });
});

describe('--timeout bounds the whole request, retries and their waits included', () => {
  it('a 503 with Retry-After forever: given up within --timeout, saying why it was not retried', async () => {
    handler = (_req, res) => json(res, 503, { error: { code: 503, message: 'busy' } }, { 'retry-after': '1' });
    const started = Date.now();
    const r = await run(['--timeout', '2', 'api', '/v1/user'], { DOCSCTL_MAX_RETRIES: '100' });
    const took = Date.now() - started;
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: busy');
    expect(r.stderr).toMatch(
      /hint: not retried: the server asked to wait 1000 ms \(Retry-After\), more than the \d{1,3} ms left of the whole request's 2000 ms timeout \(--timeout or DOCSCTL_TIMEOUT\)/,
    );
    expect(requests).toHaveLength(2);
    // Two attempts a second apart, then no wait that would end past the timeout (and the start of node).
    expect(took).toBeLessThan(2_000 + 1_500);
    // A Retry-After longer than the whole timeout: no wait at all.
    handler = (_req, res) => json(res, 503, { error: { code: 503, message: 'busy' } }, { 'retry-after': '60' });
    requests = [];
    const t0 = Date.now();
    const long = await run(['--timeout', '2', 'spaces', 'list'], { DOCSCTL_MAX_RETRIES: '3' });
    expect(long.exitCode).toBe(1);
    expect(long.stderr).toContain('hint: not retried: the server asked to wait 60000 ms (Retry-After)');
    expect(requests).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(1_500 + 1_000);
  });

  it('a server that never answers: one timeout for all the attempts (exit 7)', async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const r = await run(['--timeout', '1', 'spaces', 'list'], { DOCSCTL_MAX_RETRIES: '3' });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(`error: GET ${url}/v1/orgs/o/spaces?limit=30: timed out after 1000 ms (the whole request: --timeout or DOCSCTL_TIMEOUT)`);
    expect(Date.now() - started).toBeLessThan(1_000 + 1_500);
  });
});

describe('a redirect is not followed, and not taken for an answer', () => {
  it('docsctl api: exit 1 naming the status and the Location; nothing on stdout (the status line with -i)', async () => {
    handler = (_req, res) =>
      res
        .writeHead(302, { location: 'https://elsewhere.example/v1/user', 'content-type': 'text/html' })
        .end('<a href="https://elsewhere.example/v1/user">moved</a>');
    const r = await run(['api', '/v1/user']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: the server answered 302, a redirect to https://elsewhere.example/v1/user, which docsctl does not follow');
    expect(r.stderr).toContain('hint: check the API URL');
    expect(requests).toEqual(['/v1/user']);
    const i = await run(['api', '/v1/user', '-i']);
    expect(i.exitCode).toBe(1);
    expect(i.stdout).toMatch(/^HTTP\/1.1 302 Found\n(.+\n)*location: https:\/\/elsewhere.example\/v1\/user\n/);
    // Every command says the same.
    const get = await run(['collections', 'get', 'c1']);
    expect(get.exitCode).toBe(1);
    expect(get.stderr.split('\n')[0]).toBe('error: the server answered 302, a redirect to https://elsewhere.example/v1/user, which docsctl does not follow');
    // A page of --paginate too.
    const paged = await run(['api', '/v1/orgs/{org}/spaces', '--paginate']);
    expect(paged).toMatchObject({ exitCode: 1, stdout: '' });
    expect(paged.stderr).toContain('error: the server answered 302');
  });

  it('a 301 without a Location says so; a 304 (an answer to a conditional request) is not a failure', async () => {
    handler = (_req, res) => res.writeHead(301).end();
    const r = await run(['api', '/v1/user']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: the server answered 301, a redirect without a Location, which docsctl does not follow');
    handler = (_req, res) => res.writeHead(304, { etag: '"v1"' }).end();
    const n = await run(['api', '/v1/user', '-H', 'If-None-Match: "v1"']);
    expect(n).toMatchObject({ exitCode: 0, stdout: '' });
  });
});
