/**
 * Secrets, the sandbox's outbound fetches, and what separates organizations and guests: tokens never
 * show in what the CLI prints, even with --verbose and when things fail; secrets are compared in
 * constant time; the sandbox fetches only from loopback and the hosts given to `serve --allow-fetch`,
 * by name and by address, and says which host it refused; a transferred space leaves nothing behind
 * in its former organization; a default level never raises a guest (docs/security.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameSecret } from '../../src/server/ids.js';
import { Store } from '../../src/server/store.js';
import { BIN } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';
import { ORG, OTHER_ORG, startBench } from '../helpers/fixture.js';
import { ALL_OPS, table, urlOf } from '../helpers/operations.js';

const KNOWN = 'sbx_known-admin-token-0123456789';
const sb = useSandbox({ token: KNOWN });

/** A loopback server whose /away redirects to a host the sandbox may not fetch. */
let origin: http.Server;
let originUrl = '';
beforeAll(async () => {
  origin = http.createServer((req, res) => {
    if (req.url === '/away') res.writeHead(302, { location: 'http://metadata.internal.test/latest' }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Home</title></head><body><h1>Home</h1></body></html>');
  });
  await new Promise<void>((done) => origin.listen(0, '127.0.0.1', done));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => origin.close(() => done())));

describe('tokens stay secret', () => {
  it('never appear in the output of failing commands, --verbose, DOCSCTL_DEBUG or --json included', async () => {
    const closed = http.createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((done) => closed.close(() => done()));
    await sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'GET', path: '/v1/orgs/*/sites', status: 500 }] });

    const readToken = sb.token('read');
    const revoked = 'sbx_revoked-token-that-no-one-has-42';
    const cases: { args: string[]; exit: number; env?: Record<string, string>; as?: string; secret: string }[] = [
      { args: ['collections', 'get', 'col-nope'], exit: 4, secret: KNOWN },
      { args: ['collections', 'create', '--title', 'Nope'], exit: 5, as: 'read', secret: readToken },
      { args: ['api', '/v1/user'], exit: 3, env: { DOCSCTL_TOKEN: revoked }, secret: revoked },
      { args: ['collections', 'list'], exit: 7, env: { DOCSCTL_API_URL: deadUrl }, secret: KNOWN },
      { args: ['sites', 'list'], exit: 1, secret: KNOWN },
      { args: ['api', '-X', 'POST', '/v1/orgs/{org}/collections', '-f', 'bogus=1'], exit: 1, secret: KNOWN },
      { args: ['collections', 'create', '--title', 'x'.repeat(51)], exit: 2, secret: KNOWN },
    ];
    for (const c of cases) {
      // `api` prints the answer as it is (no --json).
      for (const mode of c.args[0] === 'api' ? [['--verbose']] : [['--verbose'], ['--verbose', '--json']]) {
        const r = await sb.run([...c.args, ...mode], { ...(c.as ? { as: c.as } : {}), env: { ...c.env } });
        const what = `docsctl ${[...c.args, ...mode].join(' ')}`;
        expect(r.exitCode, `${what}: ${r.stderr}`).toBe(c.exit);
        expect(r.stdout + r.stderr, what).not.toContain(c.secret);
      }
    }
    const debug = await sb.run(['collections', 'get', 'col-nope'], { env: { DOCSCTL_DEBUG: '1' } });
    expect(debug.stderr).toContain('* GET ');
    expect(debug.stdout + debug.stderr).not.toContain(KNOWN);
  });

  it('a token saved in a profile stays out of the output too, and a refused login does not echo it', async () => {
    const bare = (args: string[], input?: string) => sb.docsctl(args, { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home }, input === undefined ? {} : { input });
    const wrong = 'sbx_wrong-token-typed-by-hand-77';
    const refused = await bare(['auth', 'login', '--api-url', sb.server.url, '--with-token', '--verbose'], `${wrong}\n`);
    expect(refused.exitCode).toBe(3);
    expect(refused.stdout + refused.stderr).not.toContain(wrong);

    const login = await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token', '--verbose'], `${KNOWN}\n`);
    expect(login.exitCode, login.stderr).toBe(0);
    for (const args of [
      ['spaces', 'get', 'sp-nope', '--verbose'],
      ['auth', 'status', '--verbose'],
      ['auth', 'status', '--json', '--verbose'],
    ]) {
      const r = await bare(args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain(KNOWN);
    }
  });

  it('the sandbox never echoes a bearer token in its answers', async () => {
    for (const header of [`Bearer ${KNOWN} extra`, `Basic ${KNOWN}`, `Bearer ${KNOWN}x`, KNOWN]) {
      const res = await sb.server.app.handle({ method: 'GET', url: '/v1/user', headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(String(res.body)).not.toContain(KNOWN);
    }
  });

  it('compares tokens by their hash and share keys in constant time', () => {
    const store = new Store();
    store.addUser({ id: 'u-1', displayName: 'One', email: 'one@x.test', token: 'sbx_exact-token' });
    expect(store.userByToken('sbx_exact-token')?.id).toBe('u-1');
    for (const near of ['sbx_exact-toke', 'sbx_exact-tokenn', 'SBX_EXACT-TOKEN', 'sbx_exact-token ', '']) {
      expect(store.userByToken(near)).toBeUndefined();
    }
    // The index holds digests, not tokens: a lookup never compares the secret itself.
    const index = (store as unknown as { tokenIndex: Map<string, string> }).tokenIndex;
    expect([...index.keys()]).not.toContain('sbx_exact-token');
    expect([...index.keys()][0]).toMatch(/^[\w-]{43}$/);

    expect(sameSecret('key-1', 'key-1')).toBe(true);
    for (const other of ['key-2', 'key-', 'key-11', '', undefined]) expect(sameSecret(other, 'key-1')).toBe(false);
  });
});

describe('outbound fetches', () => {
  /** Create a specification from `url` and wait for its processing (it runs after the answer). */
  async function processedSpec(slug: string, url: string) {
    const created = await sb.request('POST', '/v1/orgs/org-acme/openapi', { slug, source: { url } });
    expect(created.status).toBe(201);
    let spec = created.body;
    for (let i = 0; i < 100 && spec.processingState !== 'complete'; i++) {
      await new Promise((done) => setTimeout(done, 10));
      spec = (await sb.request('GET', `/v1/orgs/org-acme/openapi/${slug}`)).body;
    }
    return spec;
  }

  /** The state before and after a refused request is the same. */
  async function unchanged<T>(fn: () => Promise<T>): Promise<T> {
    const before = (await sb.request('GET', '/_sandbox/state')).body;
    const out = await fn();
    expect((await sb.request('GET', '/_sandbox/state')).body).toEqual(before);
    return out;
  }

  it('refuses a source on a host outside the allow-list with a 400 naming the host, changing nothing', async () => {
    const importSpace = await unchanged(() =>
      sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: 'http://docs.example.test/guide', source: 'website' }),
    );
    expect(importSpace.status).toBe(400);
    expect(importSpace.body.error.message).toContain('host docs.example.test is not allowed');

    const cr = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'Import' });
    const importCr = await unchanged(() =>
      sb.request('POST', `/v1/spaces/sp-welcome/change-requests/${cr.body.id}/content/import`, { url: 'https://10.0.0.7/x', source: 'website' }),
    );
    expect(importCr.status).toBe(400);
    expect(importCr.body.error.message).toContain('host 10.0.0.7 is not allowed');

    for (const [method, path, body] of [
      ['POST', '/v1/orgs/org-acme/openapi', { slug: 'pets', source: { url: 'http://169.254.169.254/latest/meta-data' } }],
      ['PUT', '/v1/orgs/org-acme/openapi/pets', { source: { url: 'http://169.254.169.254/latest/meta-data' } }],
    ] as const) {
      const r = await unchanged(() => sb.request(method, path, body));
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.error.message).toBe('source.url: the sandbox may not fetch from host 169.254.169.254 (allowed: loopback; see serve --allow-fetch)');
    }
  });

  it('checks every redirect: a loopback source that redirects elsewhere is refused, naming where it led', async () => {
    const r = await unchanged(() => sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: `${originUrl}/away`, source: 'website' }));
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(`(redirected to http://metadata.internal.test/latest): host metadata.internal.test is not allowed`);

    // OpenAPI processing runs after the answer: the refusal lands on the specification.
    const spec = await processedSpec('away', `${originUrl}/away`);
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(spec.lastProcessedErrors[0].message).toContain('host metadata.internal.test is not allowed');
  });

  it('checks the address a name resolves to, for content imports and OpenAPI sources alike (an injected resolver)', async () => {
    const policy = sb.server.store.fetchPolicy;
    const port = new URL(originUrl).port;
    const table: Record<string, string> = { 'docs.corp.test': '10.0.0.7', 'meta.corp.test': '169.254.169.254', 'ok.corp.test': '127.0.0.1' };
    sb.server.store.fetchPolicy = {
      ...policy,
      allowHosts: [...policy.allowHosts, '*.corp.test'],
      lookup: async (name) => (table[name] ? [{ address: table[name], family: 4 }] : []),
    };
    try {
      const refused = await unchanged(() =>
        sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: `http://docs.corp.test:${port}/`, source: 'website' }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(
        `url: the import failed, nothing was changed: fetching http://docs.corp.test:${port}/: host docs.corp.test resolves to 10.0.0.7, a private address, which the sandbox does not fetch from unless serve --allow-fetch names that address`,
      );
      const imported = await sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: `http://ok.corp.test:${port}/`, source: 'website' });
      expect(imported.status, JSON.stringify(imported.body)).toBe(201);

      const spec = await processedSpec('meta', `http://meta.corp.test:${port}/spec.json`);
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.lastProcessedErrors[0].message).toContain('host meta.corp.test resolves to 169.254.169.254, a link-local (metadata) address');
    } finally {
      sb.server.store.fetchPolicy = policy;
    }
  });

  it('serve --allow-fetch adds hosts to the allow-list, and refuses patterns that are not hosts', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home };
    const bad = await execa('node', [BIN, 'serve', '--memory', '--port', '0', '--allow-fetch', 'docs.example.test,http://x/'], {
      env,
      extendEnv: false,
      reject: false,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--allow-fetch: "http://x/" is not a host name, *.domain pattern or *');

    const child = execa('node', [BIN, 'serve', '--memory', '--port', '0', '--json', '--allow-fetch', 'docs.example.test, *.cdn.example.test'], {
      env,
      extendEnv: false,
      reject: false,
    });
    try {
      const info = JSON.parse(await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done)));
      const res = await fetch(`${info.url}/v1/orgs/${info.organizationId}/openapi`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'pets', source: { url: 'https://evil.example.test/spec.json' } }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        'source.url: the sandbox may not fetch from host evil.example.test (allowed: loopback, docs.example.test, *.cdn.example.test; see serve --allow-fetch)',
      );
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });
});

describe('a transfer to another organization leaves nothing of the space behind', () => {
  /**
   * The fixture's root space is on its site twice (in both sections). Transferred to the other
   * organization, by itself or with its collection, no read of the first organization (every GET of
   * the contract, by its admin, who is admin of both) shows it any more, and the site's counts agree
   * with what it lists.
   */
  for (const how of ['space', 'collection'] as const) {
    it(`by a transfer of the ${how}: no GET of the former organization returns it`, async () => {
      const bench = await startBench();
      try {
        const { ids } = bench;
        const moved = ids.rootSpace;
        const site = `/v1/orgs/${ORG}/sites/${ids.site}`;
        const before = await bench.send('admin', 'GET', `${site}/site-spaces`);
        expect(before.json.items.filter((ss: { space: { id: string } }) => ss.space.id === moved)).toHaveLength(2);
        if (how === 'space') {
          expect((await bench.send('admin', 'POST', `/v1/spaces/${moved}/transfer`, { organization: OTHER_ORG })).status).toBe(200);
        } else {
          expect((await bench.send('admin', 'POST', `/v1/spaces/${moved}/move`, { parent: ids.looseCollection })).status).toBe(200);
          expect((await bench.send('admin', 'POST', `/v1/collections/${ids.looseCollection}/transfer`, { organization: OTHER_ORG })).status).toBe(200);
        }

        const rows = table(ids, bench.website);
        let walked = 0;
        for (const [id, op] of Object.entries(ALL_OPS)) {
          if (op.method !== 'GET') continue;
          const url = urlOf(op, rows[id]);
          // Reads of the user and of every organization name the other one, by design; the rest is the first organization's.
          if (!url.includes(ORG) && !Object.values(rows[id].params ?? {}).length) continue;
          const r = await bench.send('admin', 'GET', url);
          expect(r.status, `${id} ${url}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
          expect(r.text, `${id} ${url}`).not.toContain(moved);
          walked++;
        }
        expect(walked).toBeGreaterThan(40);

        const after = await bench.send('admin', 'GET', `${site}/site-spaces`);
        const count = (await bench.send('admin', 'GET', site)).json.siteSpaces;
        expect(count).toBe(before.json.items.length - 2);
        expect(after.json.items).toHaveLength(count);
        // The space itself is the other organization's now.
        const listed = (await bench.send('admin', 'GET', `/v1/orgs/${OTHER_ORG}/spaces`)).json.items.map((s: { id: string }) => s.id);
        expect(listed).toContain(moved);
        expect(bench.officialProblems()).toEqual([]);
      } finally {
        await bench.close();
      }
    });
  }
});

describe('a default level never raises a guest (docs/compatibility.md, Default levels and permission grants)', () => {
  it('a guest cannot read, change or delete a collection, space or site whose defaultLevel is admin; members are raised', async () => {
    const site = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Raised', spaces: ['sp-welcome'] })).body.id;
    for (const [path, body] of [
      ['/v1/collections/col-handbook', { defaultLevel: 'admin' }],
      ['/v1/spaces/sp-welcome', { defaultLevel: 'admin' }],
      [`/v1/orgs/org-acme/sites/${site}`, { defaultLevel: 'admin' }],
    ] as const)
      expect((await sb.request('PATCH', path, body)).status, path).toBe(200);
    const before = (await sb.request('GET', '/_sandbox/state')).body;

    const guest = (method: string, path: string, body?: unknown) => sb.request(method, path, body, 'guest');
    for (const [method, path, body] of [
      ['DELETE', '/v1/collections/col-handbook'],
      ['PATCH', '/v1/collections/col-handbook', { title: 'Taken' }],
      ['DELETE', '/v1/spaces/sp-welcome'],
      ['PATCH', '/v1/spaces/sp-welcome', { title: 'Taken' }],
      ['POST', '/v1/spaces/sp-welcome/transfer', { organization: 'org-globex' }],
      ['PATCH', `/v1/orgs/org-acme/sites/${site}`, { title: 'Taken' }],
      ['DELETE', `/v1/orgs/org-acme/sites/${site}`],
      ['GET', '/v1/collections/col-handbook'],
      ['GET', '/v1/spaces/sp-welcome'],
      ['GET', `/v1/orgs/org-acme/sites/${site}/site-spaces`],
    ] as const) {
      const r = await guest(method, path, body);
      expect([403, 404], `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
    }
    expect((await sb.request('GET', '/_sandbox/state')).body).toEqual(before);
    expect((await guest('GET', '/v1/orgs/org-acme/spaces')).body.items).toEqual([]);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-guest/spaces')).body.items).toEqual([]);

    // A member with a role is raised by the same levels.
    const asReader = await sb.request('GET', '/v1/collections/col-handbook', undefined, 'read');
    expect(asReader.body.permissions).toMatchObject({ view: true, admin: true });
    expect((await sb.request('GET', '/v1/spaces/sp-welcome', undefined, 'read')).body.permissions.admin).toBe(true);
    expect((await sb.request('GET', `/v1/orgs/org-acme/sites/${site}`, undefined, 'read')).body.permissions.admin).toBe(true);
  });
});
