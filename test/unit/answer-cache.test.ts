/**
 * What the sandbox keeps while the state does not change (Store.version): the answers of some GETs
 * (app.ts, the operations declared `cacheable`) and each organization's ordered list of live spaces (spaces/model.ts). A
 * read after any change sees it, and a kept answer is never another caller's or another host's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp, type AppResponse } from '../../src/server/app.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { families } from '../../src/server/routes.js';
import { Store } from '../../src/server/store.js';

function sandbox() {
  const store = new Store(undefined, families);
  const seed = defaultSeed('sbx_admin_token_for_the_cache_test');
  loadSeed(store, seed);
  const app = createApp(store, {
    reset: () => {
      store.clear();
      loadSeed(store, seed);
    },
  });
  const token = (id: string) => store.data.users.get(id)!.token;
  const request = (method: string, url: string, opts: { as?: string; body?: unknown; host?: string } = {}) => ({
    method,
    url,
    headers: { authorization: `Bearer ${token(opts.as ?? 'u-admin')}`, host: opts.host ?? '127.0.0.1:4700', 'content-type': 'application/json' },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const call = (method: string, url: string, opts: { as?: string; body?: unknown; host?: string } = {}) => app.handle(request(method, url, opts));
  /** As `serve` answers a GET: a kept answer for this very request first, else the app. */
  const served = async (url: string, opts: { as?: string; host?: string } = {}) => {
    const req = request('GET', url, opts);
    return app.kept(req) ?? (await app.handle(req));
  };
  return { store, app, call, request, served };
}

const json = (r: AppResponse) => JSON.parse(r.body!.toString());

describe('kept GET answers', () => {
  it('are sent again as kept while nothing changes, with their length', async () => {
    const { call } = sandbox();
    const a = await call('GET', '/v1/spaces/sp-welcome');
    const b = await call('GET', '/v1/spaces/sp-welcome');
    expect(b).toBe(a);
    expect(a.headers['content-length']).toBe(String(Buffer.byteLength(a.body!)));
    // Lists are not kept (a trash view counts seconds down).
    const l1 = await call('GET', '/v1/orgs/org-acme/spaces');
    expect(await call('GET', '/v1/orgs/org-acme/spaces')).not.toBe(l1);
  });

  it('are per caller and per host', async () => {
    const { call } = sandbox();
    const admin = json(await call('GET', '/v1/spaces/sp-welcome'));
    const reader = json(await call('GET', '/v1/spaces/sp-welcome', { as: 'u-read' }));
    expect(admin.permissions.admin).toBe(true);
    expect(reader.permissions.admin).toBe(false);
    const other = json(await call('GET', '/v1/spaces/sp-welcome', { host: 'localhost:9' }));
    expect(other.urls.location).toBe('http://localhost:9/v1/spaces/sp-welcome');
    expect(json(await call('GET', '/v1/spaces/sp-welcome')).urls.location).toBe('http://127.0.0.1:4700/v1/spaces/sp-welcome');
  });

  it('never outlive a change: any sequence of reads and writes reads what was last written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('title' as const), title: fc.integer({ min: 0, max: 999 }).map((n) => `Title ${n}`) }),
            fc.record({ kind: fc.constant('comment' as const) }),
            fc.record({ kind: fc.constant('read' as const), as: fc.constantFrom('u-admin', 'u-read', 'u-edit') }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        async (steps) => {
          const { call } = sandbox();
          let title = 'Welcome';
          let comments = json(await call('GET', '/v1/spaces/sp-welcome')).comments as number;
          for (const step of steps) {
            if (step.kind === 'title') {
              expect((await call('PATCH', '/v1/spaces/sp-welcome', { body: { title: step.title } })).status).toBe(200);
              title = step.title;
            } else if (step.kind === 'comment') {
              expect((await call('POST', '/v1/spaces/sp-welcome/comments', { body: { body: { markdown: 'hi' } } })).status).toBe(201);
              comments++;
            } else {
              const space = json(await call('GET', '/v1/spaces/sp-welcome', { as: step.as }));
              expect(space.title).toBe(title);
              expect(space.comments).toBe(comments);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('are dropped by background changes, a reset, and a change made straight in the store', async () => {
    const { store, call } = sandbox();
    const first = await call('GET', '/v1/spaces/sp-welcome');
    store.data.spaces.get('sp-welcome')!.title = 'Changed in the background';
    store.backgroundChanged();
    expect(json(await call('GET', '/v1/spaces/sp-welcome')).title).toBe('Changed in the background');
    expect((await call('POST', '/_sandbox/reset')).status).toBe(200);
    expect(json(await call('GET', '/v1/spaces/sp-welcome')).title).toBe(json(first).title);
    store.data.spaces.get('sp-welcome')!.title = 'Set directly';
    store.changed();
    expect(json(await call('GET', '/v1/spaces/sp-welcome')).title).toBe('Set directly');
  });
});

describe('kept answers found by the request as sent (App.kept, what serve asks first)', () => {
  it('answer only a GET sent before with the same Authorization, Host and URL, state unchanged', async () => {
    const { app, call, request } = sandbox();
    const req = request('GET', '/v1/spaces/sp-welcome');
    expect(app.kept(req)).toBeUndefined();
    const first = await app.handle(req);
    expect(app.kept(request('GET', '/v1/spaces/sp-welcome'))).toBe(first);
    expect(app.kept(request('GET', '/v1/spaces/sp-welcome', { as: 'u-read' }))).toBeUndefined();
    expect(app.kept(request('GET', '/v1/spaces/sp-welcome', { host: 'localhost:9' }))).toBeUndefined();
    expect(app.kept(request('GET', '/v1/spaces/sp-welcome?x=1'))).toBeUndefined();
    expect(app.kept({ ...req, headers: { ...req.headers, authorization: 'Bearer nope' } })).toBeUndefined();
    expect(app.kept({ ...req, method: 'HEAD' })).toBeUndefined();
    expect((await call('PATCH', '/v1/spaces/sp-welcome', { body: { title: 'Moved on' } })).status).toBe(200);
    expect(app.kept(req)).toBeUndefined();
  });

  it('step aside while a fault may be injected: every request draws its own', async () => {
    const { call, served } = sandbox();
    const rules = { rules: [{ path: '/v1/spaces/sp-welcome', status: 503, probability: 0.5 }] };
    expect((await call('PUT', '/_sandbox/faults', { body: rules })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await served('/v1/spaces/sp-welcome')).status);
    // Answers were kept (a 200 between faults), yet faults kept coming after them.
    const firstOk = statuses.indexOf(200);
    expect(firstOk).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(firstOk)).toContain(503);
    expect((await call('DELETE', '/_sandbox/faults')).status).toBe(204);
  });

  it('never outlive a change of content or of a role: reads as served see the last write', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('title' as const), title: fc.integer({ min: 0, max: 999 }).map((n) => `Title ${n}`) }),
            fc.record({ kind: fc.constant('role' as const), role: fc.constantFrom('read', 'comment', 'edit', 'admin') }),
            fc.record({ kind: fc.constant('read' as const), as: fc.constantFrom('u-admin', 'u-read'), host: fc.constantFrom('127.0.0.1:4700', 'localhost:9') }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        async (steps) => {
          const { call, served } = sandbox();
          let title = 'Welcome';
          let role = 'read';
          for (const step of steps) {
            if (step.kind === 'title') {
              expect((await call('PATCH', '/v1/spaces/sp-welcome', { body: { title: step.title } })).status).toBe(200);
              title = step.title;
            } else if (step.kind === 'role') {
              expect((await call('PATCH', '/v1/orgs/org-acme/members/u-read', { body: { role: step.role } })).status).toBe(200);
              role = step.role;
            } else {
              const space = json(await served('/v1/spaces/sp-welcome', { as: step.as, host: step.host }));
              expect(space.title).toBe(title);
              expect(space.urls.location).toBe(`http://${step.host}/v1/spaces/sp-welcome`);
              expect(space.permissions.admin).toBe(step.as === 'u-admin' || role === 'admin');
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("an organization's kept list of live spaces", () => {
  it('pages through what a model of creates, deletes and restores says, in creation order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constant({ kind: 'create' as const }),
            fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
            fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }),
            fc.record({ kind: fc.constant('list' as const), limit: fc.integer({ min: 1, max: 4 }), as: fc.constantFrom('u-admin', 'u-read') }),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        async (steps) => {
          const { call } = sandbox();
          const list = async (limit: number, as: string) => {
            const ids: string[] = [];
            let url: string | undefined = `/v1/orgs/org-acme/spaces?limit=${limit}`;
            while (url) {
              const page = json(await call('GET', url, { as }));
              ids.push(...page.items.map((s: { id: string }) => s.id));
              url = page.next ? `/v1/orgs/org-acme/spaces?limit=${limit}&page=${page.next.page}` : undefined;
            }
            return ids;
          };
          const order = await list(50, 'u-admin');
          const deleted = new Set<string>();
          for (const step of steps) {
            if (step.kind === 'create') {
              const r = await call('POST', '/v1/orgs/org-acme/spaces', { body: { title: 'New' } });
              expect(r.status).toBe(201);
              order.push(json(r).id);
            } else if (step.kind === 'delete') {
              const live = order.filter((id) => !deleted.has(id));
              if (live.length === 0) continue;
              const id = live[step.pick % live.length];
              expect((await call('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
              deleted.add(id);
            } else if (step.kind === 'restore') {
              if (deleted.size === 0) continue;
              const id = [...deleted][step.pick % deleted.size];
              expect((await call('POST', `/v1/spaces/${id}/restore`)).status).toBe(200);
              deleted.delete(id);
            } else {
              expect(await list(step.limit, step.as)).toEqual(order.filter((id) => !deleted.has(id)));
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
