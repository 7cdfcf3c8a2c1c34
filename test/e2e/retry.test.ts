/**
 * The HTTP layer's retry policy, through docsctl (main() in process, its own HTTP agent), against a
 * scripted server on 127.0.0.1 (not the sandbox: this server answers exactly what each test scripts).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsctlInProcess } from '../helpers/inprocess.js';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';
let script: Answer[] = [];
let seen: { method: string; url: string; at: number }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method!, url: req.url!, at: Date.now() });
    const next = script.shift() ?? { status: 200, body: { ok: true } };
    req.resume();
    if (next === 'hang') return; // never answers
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(next.body === undefined ? '' : JSON.stringify(next.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const run = (args: string[], env: Record<string, string> = {}) =>
  docsctlInProcess(args, {
    HOME: '/nonexistent',
    DOCSCTL_CONFIG_DIR: '/tmp/docsctl-retry-test',
    DOCSCTL_API_URL: url,
    DOCSCTL_TOKEN: 'tok-retry-1234',
    DOCSCTL_ORG: 'o',
    ...env,
  });

const user = { object: 'user', id: 'u1', displayName: 'Una', urls: { location: 'x' } };

describe('retries', () => {
  it('retries a GET after 503 with Retry-After, waiting as told, then succeeds', async () => {
    script = [
      { status: 503, headers: { 'retry-after': '1' }, body: { error: { code: 503, message: 'busy' } } },
      { status: 200, body: user },
    ];
    seen = [];
    const r = await run(['api', '/v1/user', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe('u1');
    expect(seen).toHaveLength(2);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(950);
    expect(r.stderr).toContain('→ 503');
    expect(r.stderr).toContain('retrying in 1000 ms (attempt 2 of 4)');
    expect(r.stderr).not.toContain('tok-retry-1234');
  });

  it('retries 429, 502 and 504 with backoff, and gives up with exit 8 on a lasting 429', async () => {
    script = [{ status: 502 }, { status: 504 }, { status: 200, body: user }];
    seen = [];
    expect((await run(['api', '/v1/user'])).exitCode).toBe(0);
    expect(seen).toHaveLength(3);

    script = Array.from({ length: 4 }, () => ({ status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 429, message: 'slow down' } } }));
    seen = [];
    const r = await run(['orgs', 'list']);
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain('error: slow down');
    expect(seen).toHaveLength(4); // 1 + 3 retries
  });

  it('never retries a POST or a PATCH', async () => {
    script = [{ status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 503, message: 'busy' } } }];
    seen = [];
    const r = await run(['collections', 'create', '--title', 'Once']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: busy');
    expect(seen.map((s) => s.method)).toEqual(['POST']);
    script = [{ status: 502 }];
    seen = [];
    expect((await run(['collections', 'update', 'c1', '--title', 'x'])).exitCode).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it('does not retry a 500 or a 4xx', async () => {
    script = [{ status: 500, body: { error: { code: 500, message: 'boom' } } }];
    seen = [];
    const r = await run(['api', '/v1/user']);
    expect(r.exitCode).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it('times out (exit 7): --timeout is the whole request, so a hung attempt leaves no time for another', async () => {
    script = ['hang', 'hang'];
    seen = [];
    const r = await run(['--timeout', '0.5', 'orgs', 'list'], { DOCSCTL_MAX_RETRIES: '1' });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toMatch(/timed out after 500 ms \(the whole request: --timeout or DOCSCTL_TIMEOUT\)/);
    expect(seen).toHaveLength(1);
    script = [];
  });

  it('honours DOCSCTL_MAX_RETRIES', async () => {
    script = Array.from({ length: 3 }, () => ({ status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 503, message: 'busy' } } }));
    seen = [];
    const r = await run(['orgs', 'list'], { DOCSCTL_MAX_RETRIES: '1' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: busy');
    expect(seen).toHaveLength(2);
    script = [];
  });

  it('a refused connection is a network failure (exit 7) after the retries', async () => {
    const r = await run(['orgs', 'list'], { DOCSCTL_API_URL: 'http://127.0.0.1:1', DOCSCTL_MAX_RETRIES: '1' });
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).toContain('hint: check the API URL');
  });
});
