import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';
import { startBench, type Bench } from '../helpers/fixture.js';
import { ALL_OPS, table, urlOf } from '../helpers/operations.js';
import { endpointTables, withTables } from '../../scripts/api-docs.mjs';

const sb = useSandbox();

describe('docsctl api', () => {
  it('GETs any endpoint, replacing {org}', async () => {
    const r = await sb.run(['api', '/v1/orgs/{org}']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ object: 'organization', id: 'org-acme', title: 'Acme Docs' });
    // /v1 is implied
    expect(JSON.parse((await sb.run(['api', '/user'])).stdout).id).toBe('u-admin');
  });

  it('POSTs fields: -f strings, -F typed values, and nested keys', async () => {
    const r = await sb.run(['api', '/v1/orgs/{org}/collections', '-f', 'title=Guides', '-i']);
    expect(r.exitCode).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP\/1.1 201 Created\n/);
    expect(head).toMatch(/\nlocation: http:\/\/127\.0\.0\.1:\d+\/v1\/collections\/\S+/);
    const created = JSON.parse(body);
    expect(created.title).toBe('Guides');
    const p = await sb.run(['api', '-X', 'PATCH', `/v1/collections/${created.id}`, '-F', 'defaultLevel=null', '-f', 'description=x']);
    expect(JSON.parse(p.stdout)).toMatchObject({ defaultLevel: null, description: 'x' });
    const typed = await sb.run(['api', '/v1/orgs/{org}/collections', '-F', 'title=12']);
    expect(typed.exitCode).toBe(1);
    expect(JSON.parse(typed.stdout)).toEqual({ error: { code: 400, message: 'title: must be a string' } });
  });

  it('sends --input from a file or stdin, and headers with -H', async () => {
    const file = join(sb.home, 'body.json');
    writeFileSync(file, JSON.stringify({ title: 'From file' }));
    const r = await sb.run(['api', '/v1/orgs/{org}/collections', '--input', file]);
    expect(JSON.parse(r.stdout).title).toBe('From file');
    const s = await sb.run(['api', '/v1/orgs/{org}/collections', '--input', '-'], { input: '{"title":"From stdin"}' });
    expect(JSON.parse(s.stdout).title).toBe('From stdin');
    const h = await sb.run(['api', '/v1/user', '-H', 'Authorization: Bearer nope']);
    expect(h.exitCode).toBe(3);
  });

  it('--paginate merges every page into one array', async () => {
    for (let i = 0; i < 120; i++) await sb.request('POST', '/v1/orgs/org-acme/collections', { title: `C${i}` });
    const r = await sb.run(['api', '/v1/orgs/{org}/collections?limit=50', '--paginate']);
    expect(r.exitCode).toBe(0);
    const items = JSON.parse(r.stdout);
    expect(items).toHaveLength(121);
    expect(new Set(items.map((c: { id: string }) => c.id)).size).toBe(121);
  });

  it('exit codes follow the status; the error body is printed', async () => {
    const r = await sb.run(['api', '/v1/collections/nope']);
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 404, message: 'no collection nope' } });
    expect(r.stderr).toContain('error: no collection nope');
    expect((await sb.run(['api', '/v1/nowhere'])).exitCode).toBe(4);
    const bad = await sb.run(['api', '/v1/user', '-f', 'novalue']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('-f: "novalue" must look like key=value');
  });

  it('drives the sandbox control routes (admin token only)', async () => {
    await sb.run(['collections', 'create', '--title', 'Temp']);
    const state = JSON.parse((await sb.run(['api', '/_sandbox/state'])).stdout);
    expect(state.version).toBe(2);
    const clock = await sb.run(['api', '-X', 'POST', '/_sandbox/clock', '-f', 'advance=8d']);
    expect(JSON.parse(clock.stdout).offsetMs).toBe(8 * 86_400_000);
    const badClock = await sb.run(['api', '-X', 'POST', '/_sandbox/clock', '-f', 'advance=soon']);
    expect(badClock.exitCode).toBe(1);
    const denied = await sb.run(['api', '-X', 'POST', '/_sandbox/reset'], { as: 'create' });
    expect(denied.exitCode).toBe(5);
    expect((await sb.run(['api', '-X', 'POST', '/_sandbox/reset'])).exitCode).toBe(0);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook']);
    // load the exported state back
    writeFileSync(join(sb.home, 'state.json'), JSON.stringify(state));
    const put = await sb.run(['api', '-X', 'PUT', '/_sandbox/state', '--input', join(sb.home, 'state.json')]);
    expect(put.exitCode).toBe(0);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Temp']);
    const malformed = await sb.run(['api', '-X', 'PUT', '/_sandbox/state', '--input', '-'], { input: '{"version": 2}' });
    expect(malformed.exitCode).toBe(1);
    expect((await sb.json(['collections', 'list'])).map((c: { title: string }) => c.title)).toEqual(['Handbook', 'Temp']);
  });
});

/** The requests the sandbox receives while `fn` runs (method, URL and body as sent). */
async function received<T>(
  fn: () => Promise<T>,
  only = (url: string) => url.startsWith('/v1/'),
): Promise<{ result: T; requests: { method: string; url: string; body: string }[] }> {
  const requests: { method: string; url: string; body: string }[] = [];
  const app = sb.server.app;
  const handle = app.handle;
  app.handle = (req) => {
    if (only(req.url)) requests.push({ method: req.method, url: req.url, body: req.body?.toString() ?? '' });
    return handle(req);
  };
  try {
    return { result: await fn(), requests };
  } finally {
    app.handle = handle;
  }
}

/** A shell pipeline with `set -o pipefail`; `docsctl` in it is the built binary, as the admin. */
async function pipeline(script: string) {
  const r = await execa('bash', ['-c', `set -o pipefail\ndocsctl() { node ${JSON.stringify(BIN)} "$@"; }\n${script}`], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: sb.home,
      DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url,
      DOCSCTL_TOKEN: sb.token('admin'),
      DOCSCTL_ORG: sb.server.organizationId,
      DOCSCTL_MAX_RETRIES: '0',
    },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode ?? -1 };
}

async function manyCollections(n: number) {
  for (let i = 0; i < n; i++) expect((await sb.request('POST', '/v1/orgs/org-acme/collections', { title: `C${i}` })).status).toBe(201);
}

describe('docsctl api: fields', () => {
  it('-f/-F on GET and HEAD are query parameters that the sandbox receives (arrays as repeated keys)', async () => {
    const { result: r, requests } = await received(() => sb.run(['api', '-X', 'GET', '/v1/orgs/{org}/members', '-f', 'role=admin', '-F', 'limit=1']));
    expect(r.exitCode).toBe(0);
    expect(requests).toEqual([{ method: 'GET', url: '/v1/orgs/org-acme/members?role=admin&limit=1', body: '' }]);
    const page = JSON.parse(r.stdout);
    expect(page.items.map((m: { role: string }) => m.role)).toEqual(['admin']);
    expect(page.items).toHaveLength(1);

    const head = await received(() => sb.run(['api', '-X', 'HEAD', '/v1/orgs/{org}/spaces', '-f', 'deleted=true', '-F', 'limit=0']));
    // Over the socket a HEAD reaches the app as its GET (node:http leaves the body out).
    expect(head.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['GET /v1/orgs/org-acme/spaces?deleted=true&limit=0']);
    expect(head.result).toMatchObject({ exitCode: 0, stdout: '' });

    const arrays = await received(() =>
      sb.run(['api', '-X', 'GET', '/v1/spaces/sp-welcome/comments', '-f', 'authors[]=u-admin', '-f', 'authors[]=u-edit', '-F', 'limit=2']),
    );
    expect(arrays.result.exitCode).toBe(0);
    expect(arrays.requests[0].url).toBe('/v1/spaces/sp-welcome/comments?authors=u-admin&authors=u-edit&limit=2');
  });

  it('a query parameter the operation does not take is named as one (400, exit 1)', async () => {
    const r = await sb.run(['api', '-X', 'GET', '/v1/orgs/{org}', '-f', 'bogus=1']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 400, message: 'query: unknown field "bogus"' } });
  });

  it('nests keys as gh api does: a[b]=c, a.b=c, a[]=x, a[][b]=x, a[] alone', async () => {
    const { result: r, requests } = await received(() =>
      sb.run([
        'api',
        '-X',
        'PATCH',
        '/v1/spaces/sp-welcome',
        '-f',
        'mergeRules[type]=rules',
        '-f',
        'mergeRules[rules][][rule]=require_specific_reviewers',
        '-f',
        'mergeRules[rules][][users][]=u-review',
        '-f',
        'mergeRules[rules][][users][]=u-admin',
        '-f',
        'mergeRules[rules][][rule]=require_at_least_one_review',
      ]),
    );
    expect(r.exitCode).toBe(0);
    const sent = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-review', 'u-admin'] }, { rule: 'require_at_least_one_review' }] };
    expect(JSON.parse(requests[0].body)).toEqual({ mergeRules: sent });
    expect(JSON.parse(r.stdout).mergeRules).toEqual(sent);

    // What the body looks like for each form (the sandbox refuses these fields; the body is what counts).
    const forms = await received(() =>
      sb.run([
        'api',
        '-X',
        'POST',
        '/v1/orgs/{org}/collections',
        '-f',
        'a.b=1',
        '-F',
        'a[c]=2',
        '-F',
        'list[]=true',
        '-F',
        'list[]=null',
        '-f',
        'empty[]',
        '-F',
        'org={org}',
      ]),
    );
    expect(JSON.parse(forms.requests[0].body)).toEqual({ a: { b: '1', c: 2 }, list: [true, null], empty: [], org: 'org-acme' });

    for (const [args, message] of [
      [['-f', 'a=1', '-f', 'a=2'], '-f: "a=2": a is given twice'],
      [['-f', 'a=1', '-f', 'a[b]=2'], '-f: "a[b]=2": a is given a value and nested keys'],
      [['-f', 'a[b=1'], '-f: "a[b=1": a key looks like name, name[key], name[] or name.key'],
      [['-f', 'novalue'], '-f: "novalue" must look like key=value'],
    ] as const) {
      const { result: bad, requests: none } = await received(() => sb.run(['api', '/v1/orgs/{org}/collections', ...args]));
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr).toContain(message);
      expect(none).toEqual([]);
    }
  });

  it('with --input the body is the file and the fields go to the query string', async () => {
    const { result: r, requests } = await received(() =>
      sb.run(['api', '/v1/orgs/{org}/collections', '--input', '-', '-f', 'ignored=yes'], { input: '{"title":"From stdin"}' }),
    );
    expect(requests).toEqual([{ method: 'POST', url: '/v1/orgs/org-acme/collections?ignored=yes', body: '{"title":"From stdin"}' }]);
    // (the sandbox takes no query parameter there, and says so)
    expect(r.exitCode).toBe(1);
  });
});

describe('docsctl api: output', () => {
  it('--jq filters the answer; a bad expression is exit 2 before anything is sent', async () => {
    const r = await sb.run(['api', '/v1/orgs/{org}/spaces', '--jq', '.items[].id']);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'sp-welcome' });
    const { result: bad, requests } = await received(() => sb.run(['api', '/v1/user', '--jq', '.id |||']));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('syntax error');
    expect(bad.stdout).toBe('');
    expect(requests).toEqual([]);
    // An error answer is printed as it came (not through jq), as gh does.
    const missing = await sb.run(['api', '/v1/spaces/nope', '--jq', '.id']);
    expect(missing.exitCode).toBe(4);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: 404, message: 'no space nope' } });
  });

  it('--silent prints no body; the exit code still follows the status', async () => {
    expect(await sb.run(['api', '/v1/user', '--silent'])).toMatchObject({ exitCode: 0, stdout: '' });
    const missing = await sb.run(['api', '/v1/spaces/nope', '--silent']);
    expect(missing).toMatchObject({ exitCode: 4, stdout: '' });
    expect(missing.stderr).toContain('error: no space nope');
    expect((await sb.run(['api', '/v1/user', '--silent', '--jq', '.id'])).exitCode).toBe(2);
  });

  it('--include prints the status line and the headers, then the body', async () => {
    const r = await sb.run(['api', '/v1/spaces/sp-welcome', '--include']);
    expect(r.exitCode).toBe(0);
    const [head, ...rest] = r.stdout.split('\n\n');
    const lines = head.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 200 OK');
    expect(lines).toContain('content-type: application/json; charset=utf-8');
    const names = lines.slice(1).map((l) => l.split(':')[0]);
    expect(names).toEqual([...names].sort());
    expect(JSON.parse(rest.join('\n\n')).id).toBe('sp-welcome');
    const head2 = await sb.run(['api', '-X', 'HEAD', '/v1/spaces/sp-welcome', '-i']);
    expect(head2.exitCode).toBe(0);
    expect(head2.stdout).toMatch(/^HTTP\/1.1 200 OK\n(.+\n)*content-length: \d+\n/);
    expect(head2.stdout.endsWith('\n\n') || !head2.stdout.includes('{')).toBe(true);
  });
});

describe('docsctl api --paginate', () => {
  it('follows next.page; --slurp wraps the pages, as answered, in one array', async () => {
    await manyCollections(120);
    const { result: r, requests } = await received(() => sb.run(['api', '/v1/orgs/{org}/collections', '--paginate', '-F', 'limit=50', '--slurp']));
    expect(r.exitCode).toBe(0);
    const pages = JSON.parse(r.stdout);
    expect(pages.map((p: { items: unknown[] }) => p.items.length)).toEqual([50, 50, 21]);
    expect(pages.every((p: { count: number }) => p.count === 121)).toBe(true);
    expect(pages[2].next).toBeUndefined();
    expect(requests.map((q) => q.url.replace(/page=[^&]+/, 'page=…'))).toEqual([
      '/v1/orgs/org-acme/collections?limit=50',
      '/v1/orgs/org-acme/collections?limit=50&page=…',
      '/v1/orgs/org-acme/collections?limit=50&page=…',
    ]);
    // Without a limit it asks for the largest pages; without --slurp, the items of all pages.
    const all = await received(() => sb.run(['api', '/v1/orgs/{org}/collections', '--paginate']));
    expect(all.requests.map((q) => q.url)).toEqual(['/v1/orgs/org-acme/collections?limit=1000']);
    expect(JSON.parse(all.result.stdout)).toHaveLength(121);
  });

  it("--jq runs on each page's items as they arrive", async () => {
    await manyCollections(60);
    const lengths = await sb.run(['api', '/v1/orgs/{org}/collections?limit=25', '--paginate', '--jq', 'length']);
    expect(lengths).toMatchObject({ exitCode: 0, stdout: '25\n25\n11' });
    const ids = await sb.run(['api', '/v1/orgs/{org}/collections', '--paginate', '-F', 'limit=25', '--jq', '.[].title']);
    expect(ids.stdout.split('\n')).toHaveLength(61);
    expect((await sb.run(['api', '/v1/orgs/{org}/collections', '--paginate', '--slurp', '--jq', '.'])).exitCode).toBe(2);
    expect((await sb.run(['api', '/v1/orgs/{org}/collections', '--slurp'])).exitCode).toBe(2);
  });

  it('refuses a path that is not a list, or another method, before anything is sent', async () => {
    for (const [args, message] of [
      [['/v1/spaces/sp-welcome'], 'GET /v1/spaces/sp-welcome (getSpace) answers one object, not a list'],
      [['/v1/orgs/{org}'], 'GET /v1/orgs/org-acme (getOrganization) answers one object, not a list'],
      [['/_sandbox/state'], 'GET /_sandbox/state is not a list of the API'],
      [['/openapi.json'], 'GET /openapi.json is not a list of the API'],
      [['/v1/nowhere/at/all'], 'GET /v1/nowhere/at/all is no operation of the API docsctl knows'],
      [['-X', 'POST', '/v1/orgs/{org}/collections'], '--paginate works with GET only (not POST)'],
      [['/v1/orgs/{org}/collections', '--input', '-'], '--paginate cannot be combined with --input'],
    ] as const) {
      const { result: r, requests } = await received(
        () => sb.run(['api', ...args, '--paginate'], { input: '{}' }),
        () => true,
      );
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
      expect(requests).toEqual([]);
    }
    // The most literal template decides (`versions/latest` is one version, `versions` the list).
    const latest = await sb.run(['api', '/v1/orgs/{org}/openapi/x/versions/latest', '--paginate']);
    expect(latest.stderr).toContain('(getLatestOpenAPISpecVersion) answers one object');
    expect(await sb.run(['api', '/v1/orgs/{org}/openapi/x/versions', '--paginate'])).toMatchObject({ exitCode: 4, stdout: '' });
  });

  it('stdout holds valid JSON or nothing: nothing before the first page, the array closed when a later page fails', async () => {
    await manyCollections(60);
    const app = sb.server.app;
    const handle = app.handle;
    // The first page fails: nothing on stdout.
    app.handle = (req) =>
      req.url.startsWith('/v1/orgs/org-acme/collections')
        ? Promise.resolve({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":500,"message":"boom"}}' })
        : handle(req);
    try {
      const first = await sb.run(['api', '/v1/orgs/{org}/collections?limit=25', '--paginate']);
      expect(first).toMatchObject({ exitCode: 1, stdout: '' });
      expect(first.stderr).toContain('error: boom');
      // The third page fails: the two pages before it, in a closed array.
      let calls = 0;
      app.handle = (req) => {
        if (req.url.startsWith('/v1/orgs/org-acme/collections') && /[?&]page=/.test(req.url) && ++calls === 2) {
          return Promise.resolve({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":{"code":503,"message":"later"}}' });
        }
        return handle(req);
      };
      for (const extra of [[], ['--slurp']]) {
        calls = 0;
        const later = await sb.run(['api', '/v1/orgs/{org}/collections?limit=25', '--paginate', ...extra]);
        expect(later.exitCode).toBe(1);
        expect(later.stderr).toContain('error: later');
        const parsed = JSON.parse(later.stdout);
        expect(extra.length ? parsed.flatMap((p: { items: unknown[] }) => p.items) : parsed).toHaveLength(50);
      }
    } finally {
      app.handle = handle;
    }
  });

  it('a closed stdout stops the paging quietly (exit 0)', async () => {
    await manyCollections(40);
    const { result: r, requests } = await received(() => pipeline('docsctl api "/v1/orgs/{org}/collections?limit=1" --paginate | head -c 20'));
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout).toBe('[\n  {\n    "object": ');
    // 41 pages of one: the reader left during the first ones.
    expect(requests.length).toBeLessThan(10);
  });
});

describe('the sandbox over a socket: HEAD, OPTIONS and GET /openapi.json', () => {
  let bench: Bench;
  beforeAll(async () => {
    bench = await startBench();
  });
  afterAll(async () => {
    await bench?.close();
  });
  beforeEach(() => bench.restore());
  afterEach(() => expect(bench.officialProblems()).toEqual([]));

  const rows = () => table(bench.ids, bench.website);
  const admin = () => bench.server.users.find((u) => u.id === 'u-admin')!.token;
  /** A request over the socket, as the admin, or without a token (`null`). */
  const send = async (method: string, url: string, token: string | null = admin()) => {
    const res = await fetch(bench.server.url + url, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)));
    return { status: res.status, headers, text: await res.text() };
  };
  /** Every operation of the contract by method, with the URL of its row in the fixture. */
  const requests = () => Object.entries(ALL_OPS).map(([id, op]) => ({ id, op, url: urlOf(op, rows()[id]) }));

  it("answers HEAD for every GET route: the GET's status and headers, no body", async () => {
    const gets = requests().filter((r) => r.op.method === 'GET');
    expect(gets.length).toBeGreaterThan(40);
    const extra = ['/openapi.json', '/_sandbox/state', '/_sandbox/faults', '/v1/nowhere', '/v1/spaces/nope'];
    for (const url of [...gets.map((r) => r.url), ...extra]) {
      const get = await send('GET', url);
      const head = await send('HEAD', url);
      expect({ url, status: head.status, headers: head.headers }).toEqual({ url, status: get.status, headers: get.headers });
      expect(head.text, url).toBe('');
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    }
    // Without a token, as the GET: 401.
    expect((await send('HEAD', '/v1/user', null)).status).toBe(401);
    // In process too (the app without a socket).
    const inProcess = await bench.server.app.handle({ method: 'HEAD', url: '/v1/user', headers: { authorization: `Bearer ${admin()}` } });
    expect(inProcess.status).toBe(200);
    expect(inProcess.body).toBeUndefined();
  });

  it('answers OPTIONS for every route with the methods of that path (204, Allow); an unknown path is a 404', async () => {
    // Each path template of the contract, at the URL of one of its rows, with the methods of all its operations.
    const byTemplate = new Map<string, { path: string; methods: Set<string> }>();
    for (const r of requests()) {
      const entry = byTemplate.get(r.op.path) ?? { path: r.url.split('?')[0], methods: new Set<string>() };
      byTemplate.set(r.op.path, entry);
      entry.methods.add(r.op.method);
    }
    const version = bench.server.store.version;
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
    for (const { path, methods } of byTemplate.values()) {
      // Anyone may ask (no token): it tells no more than the document at /openapi.json.
      const res = await send('OPTIONS', path, null);
      const expected = order.filter((m) => methods.has(m) || (m === 'HEAD' && methods.has('GET')) || m === 'OPTIONS');
      expect({ path, status: res.status, allow: res.headers.allow, body: res.text }).toEqual({ path, status: 204, allow: expected.join(', '), body: '' });
    }
    expect(bench.server.store.version, 'OPTIONS changes nothing').toBe(version);
    expect((await send('OPTIONS', '/v1/spaces/sp-welcome')).headers.allow).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect((await send('OPTIONS', '/openapi.json')).headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await send('OPTIONS', '/_sandbox/faults')).headers.allow).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect((await send('OPTIONS', '/_sandbox/reset')).headers.allow).toBe('POST, OPTIONS');
    for (const path of ['/v1/nowhere', '/_sandbox/nothing', '/nothing']) {
      const missing = await send('OPTIONS', path);
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.text)).toEqual({ error: { code: 404, message: `no route OPTIONS ${path}` } });
    }
  });

  it('serves GET /openapi.json without a token: an OpenAPI 3.1 document of every operation, which the answers follow', async () => {
    const res = await send('GET', '/openapi.json', null);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = JSON.parse(res.text);
    // The structure of an OpenAPI 3.1 document.
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.servers[0].url).toBe(`${bench.server.url}/v1`);
    expect(doc.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    const operationIds = new Set<string>();
    const HTTP = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      expect(path).toMatch(/^\//);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(item)) {
        if (method === 'servers' || method === 'parameters' || method === 'summary' || method === 'description') continue;
        expect(HTTP, `${path} ${method}`).toContain(method);
        expect(operationIds.has(op.operationId), `operationId ${op.operationId} twice`).toBe(false);
        operationIds.add(op.operationId);
        expect(Object.keys(op.responses).length, op.operationId).toBeGreaterThan(0);
        for (const p of op.parameters ?? []) {
          expect(['path', 'query', 'header', 'cookie'], op.operationId).toContain(p.in);
          expect(typeof p.name).toBe('string');
          expect(p.schema, `${op.operationId} ${p.name}`).toBeTypeOf('object');
        }
        const declared = (op.parameters ?? []).filter((p: { in: string }) => p.in === 'path');
        expect(declared.map((p: { name: string }) => p.name).sort(), op.operationId).toEqual(inPath);
        expect(
          declared.every((p: { required: boolean }) => p.required),
          op.operationId,
        ).toBe(true);
      }
    }
    // Every reference resolves; every schema is valid JSON Schema 2020-12 (Ajv compiles it).
    const at = (ref: string) =>
      ref
        .slice(2)
        .split('/')
        .reduce((node: any, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    const refs: string[] = [];
    JSON.stringify(doc, (k, v) => (k === '$ref' && refs.push(v), v));
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(at(ref), ref).toBeDefined();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ ...doc, $id: 'docsctl' });
    for (const name of Object.keys(doc.components.schemas)) ajv.compile({ $ref: `docsctl#/components/schemas/${name}` });
    // Every operation of the contract, as the contract declares it, and nothing else below /v1.
    const v1 = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([, item]) => !item.servers);
    expect(v1.flatMap(([, item]) => Object.keys(item)).length).toBe(Object.keys(ALL_OPS).length);
    for (const [id, op] of Object.entries(ALL_OPS)) {
      const described = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(described?.operationId, `${op.method} ${op.path}`).toBe(id);
      expect(Object.keys(described.responses)).toContain(String(op.status));
      expect(Boolean(described['x-paginated']), id).toBe(Boolean(op.paginated));
      expect(Boolean(described.requestBody), id).toBe(op.hasBody);
    }
    // Every answer of the fixture's GETs follows the document.
    const pointerEscape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    let checked = 0;
    for (const r of requests().filter((q) => q.op.method === 'GET')) {
      const got = await send('GET', r.url);
      if (got.status !== r.op.status || r.op.status === 204) continue;
      const validate =
        ajv.getSchema(`docsctl#/paths/${pointerEscape(r.op.path)}/get/responses/${r.op.status}/content/application~1json/schema`) ??
        ajv.compile({ $ref: `docsctl#/paths/${pointerEscape(r.op.path)}/get/responses/${r.op.status}/content/application~1json/schema` });
      expect({ op: r.id, problems: validate(JSON.parse(got.text)) ? [] : validate.errors?.slice(0, 3) }).toEqual({ op: r.id, problems: [] });
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('docs/api.md lists the endpoints of the served document (node scripts/api-docs.mjs rewrites them)', async () => {
    const doc = JSON.parse((await send('GET', '/openapi.json', null)).text);
    const file = resolve(import.meta.dirname, '../../docs/api.md');
    const text = readFileSync(file, 'utf8');
    expect(text, 'docs/api.md is out of date: run npm run build && node scripts/api-docs.mjs').toBe(withTables(text, endpointTables(doc)));
    for (const id of Object.keys(ALL_OPS)) expect(text).toContain(`\`${id}\``);
  });
});
