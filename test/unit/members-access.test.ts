/** Members: who counts as the last admin, whose role gives a member's spaces, and stable paging. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { families } from '../../src/server/routes.js';
import { Store } from '../../src/server/store.js';

const seed = defaultSeed();
let store: Store;
let app: ReturnType<typeof createApp>;

beforeEach(() => {
  store = new Store(undefined, families);
  loadSeed(store, seed);
  app = createApp(store, { reset: () => undefined });
});

async function call(as: string, method: string, url: string, body?: unknown) {
  const token = store.data.users.get(as)!.token;
  const r = await app.handle({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, host: 'sandbox.test' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: r.body ? JSON.parse(String(r.body)) : undefined };
}

describe('last-admin protection', () => {
  it('does not count a disabled admin as the one that remains', async () => {
    await call('u-admin', 'PATCH', '/v1/orgs/org-acme/members/u-create', { role: 'admin' });
    store.member('org-acme', 'u-create')!.disabled = true;
    const r = await call('u-admin', 'PATCH', '/v1/orgs/org-acme/members/u-admin', { role: 'read' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('u-admin is the last admin');
    // demoting the disabled admin is fine: it was not keeping the organization administered
    expect((await call('u-admin', 'PATCH', '/v1/orgs/org-acme/members/u-create', { role: 'read' })).status).toBe(200);
  });

  it('counts admins per organization', async () => {
    // u-admin is one of two admins of org-globex, but the only one of org-acme
    expect((await call('u-admin', 'DELETE', '/v1/orgs/org-acme/members/u-admin')).status).toBe(400);
    expect((await call('u-admin', 'DELETE', '/v1/orgs/org-globex/members/u-admin')).status).toBe(204);
    expect((await call('u-outsider', 'DELETE', '/v1/orgs/org-globex/members/u-outsider')).status).toBe(400);
  });
});

describe('a member’s spaces', () => {
  it('are computed from the member’s role on each (a default level sets it for non-admins), not from the caller’s', async () => {
    const inner = await call('u-admin', 'POST', '/v1/orgs/org-acme/collections', { title: 'Inner', parent: 'col-handbook' });
    const space = await call('u-admin', 'POST', '/v1/orgs/org-acme/spaces', { title: 'Deep', parent: inner.body.id });
    await call('u-admin', 'PATCH', '/v1/collections/col-handbook', { defaultLevel: 'review' });

    const list = async (user: string, as = 'u-admin') =>
      Object.fromEntries(
        (await call(as, 'GET', `/v1/orgs/org-acme/members/${user}/spaces?order=asc`)).body.items.map((i: { permission: string; space: { id: string } }) => [
          i.space.id,
          i.permission,
        ]),
      );
    // the outer collection's level reaches the space two levels down
    expect(await list('u-read')).toEqual({ 'sp-welcome': 'review', [space.body.id]: 'review' });
    // a guest takes no default level: none opens content to one
    expect(await list('u-guest')).toEqual({});
    // a default level of a role is every non-admin's role there, lower or higher than their own (it raised only, before)
    expect(await list('u-create')).toEqual({ 'sp-welcome': 'review', [space.body.id]: 'review' });
    expect(await list('u-admin')).toMatchObject({ 'sp-welcome': 'admin', [space.body.id]: 'admin' });
    // the same answer whoever asks, and a guest may read their own
    expect(await list('u-create', 'u-read')).toEqual(await list('u-create'));
    expect(await list('u-guest', 'u-guest')).toEqual(await list('u-guest'));
    // the space objects still carry the caller's permissions
    const mine = (await call('u-read', 'GET', '/v1/orgs/org-acme/members/u-admin/spaces')).body.items[0];
    expect(mine).toMatchObject({ permission: 'admin', space: { permissions: { admin: false, review: true } } });
  });
});

describe('a disabled membership', () => {
  it('reaches no space and no site, whatever its role and the content’s default level', async () => {
    await call('u-admin', 'POST', '/v1/orgs/org-acme/sites', { title: 'Docs' });
    await call('u-admin', 'PATCH', '/v1/collections/col-handbook', { defaultLevel: 'read' });
    const before = (await call('u-admin', 'GET', '/v1/orgs/org-acme/members/u-edit')).body;
    expect(before).toMatchObject({ disabled: false, spaces: 1, sites: 1 });
    store.member('org-acme', 'u-edit')!.disabled = true;
    store.changed();
    const after = (await call('u-admin', 'GET', '/v1/orgs/org-acme/members/u-edit')).body;
    expect(after).toMatchObject({ disabled: true, role: 'edit', spaces: 0, sites: 0 });
    expect((await call('u-admin', 'GET', '/v1/orgs/org-acme/members/u-edit/spaces')).body).toEqual({ count: 0, items: [] });
  });
});

describe('member list paging', () => {
  it('pages through a sorted, filtered list in the same order as one page', async () => {
    // equal names make the sort fall back on the user id
    for (const id of ['u-read', 'u-edit', 'u-comment']) store.data.users.get(id)!.displayName = 'Same Name';
    const whole = (await call('u-admin', 'GET', '/v1/orgs/org-acme/members?sort=name&order=asc')).body;
    const ids = whole.items.map((m: { id: string }) => m.id);
    // Ada Admin, Carl Creator, Gus Guest, Rita Reviewer, then the three "Same Name" by id
    expect(ids).toEqual(['u-admin', 'u-create', 'u-guest', 'u-review', 'u-comment', 'u-edit', 'u-read']);

    const paged: string[] = [];
    let url = '/v1/orgs/org-acme/members?sort=name&order=asc&limit=2';
    for (;;) {
      const page = (await call('u-admin', 'GET', url)).body;
      expect(page.count).toBe(7);
      paged.push(...page.items.map((m: { id: string }) => m.id));
      if (!page.next) break;
      url = `/v1/orgs/org-acme/members?sort=name&order=asc&limit=2&page=${page.next.page}`;
    }
    expect(paged).toEqual(ids);
    // a cursor of one sort is refused by another
    const first = (await call('u-admin', 'GET', '/v1/orgs/org-acme/members?sort=name&limit=2')).body;
    expect((await call('u-admin', 'GET', `/v1/orgs/org-acme/members?sort=joinedAt&page=${first.next.page}`)).status).toBe(400);
  });
});
