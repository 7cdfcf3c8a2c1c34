/**
 * Random organizations (members of every role and a guest, teams, nested collections, spaces and sites
 * with default levels, grants to users and teams): for every (user, space), what the sandbox does
 * (GET the space, PATCH it, comment on it) agrees with the role the aggregate operation
 * (listPermissionsAggregateInSpace) gives the user, and with `members spaces` (listMemberSpaces).
 * Built through the API as the admin; the teams are written into the state, as the team operations
 * (another family) would make them. PERMISSIONS_RUNS sets the runs (default 25), PERMISSIONS_SEED replays one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVELS, ROLES, type Role } from '../../src/contract/op.js';
import { createApp } from '../../src/server/app.js';
import { families } from '../../src/server/routes.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { Store } from '../../src/server/store.js';

const RUNS = Number(process.env.PERMISSIONS_RUNS ?? 25);
const SEED = process.env.PERMISSIONS_SEED === undefined ? undefined : Number(process.env.PERMISSIONS_SEED);
const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };
const USERS = ['u-admin', 'u-create', 'u-review', 'u-edit', 'u-comment', 'u-read', 'u-guest'];

const level = fc.constantFrom(...DEFAULT_LEVELS, null);
const role = fc.constantFrom(...ROLES);
const org = fc.record({
  /** Each collection's parent: an earlier collection's index, or none. */
  collections: fc.array(fc.record({ parent: fc.option(fc.nat(), { nil: undefined }), level }), { maxLength: 4 }),
  spaces: fc.array(fc.record({ parent: fc.option(fc.nat(), { nil: undefined }), level }), { minLength: 1, maxLength: 4 }),
  /** Each site shows some of the spaces. */
  sites: fc.array(fc.record({ spaces: fc.uniqueArray(fc.nat(), { maxLength: 3 }), level }), { maxLength: 2 }),
  /** Teams: their members, by index in USERS. */
  teams: fc.array(fc.uniqueArray(fc.nat({ max: USERS.length - 1 }), { maxLength: 4 }), { maxLength: 2 }),
  grants: fc.array(
    fc.record({
      target: fc.constantFrom('space', 'collection', 'site'),
      index: fc.nat(),
      team: fc.boolean(),
      who: fc.nat(),
      role,
    }),
    { maxLength: 8 },
  ),
});

describe('permissions: the routes agree with the aggregate', () => {
  it('for every user and space of random organizations', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(org, async (o) => {
        const store = new Store(undefined, families);
        loadSeed(store, defaultSeed());
        const app = createApp(store, { reset: () => undefined });
        const call = async (as: string, method: string, url: string, body?: unknown) => {
          const r = await app.handle({
            method,
            url,
            headers: { authorization: `Bearer ${store.data.users.get(as)!.token}`, host: 'sandbox.test' },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          return { status: r.status, body: r.body && r.body.length ? JSON.parse(String(r.body)) : undefined };
        };
        const ok = async (method: string, url: string, body?: unknown) => {
          const r = await call('u-admin', method, url, body);
          if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
          return r.body;
        };

        const collections: string[] = [];
        for (const c of o.collections) {
          const parent = c.parent === undefined || collections.length === 0 ? undefined : collections[c.parent % collections.length];
          const made = await ok('POST', '/v1/orgs/org-acme/collections', { title: 'C', ...(parent ? { parent } : {}) });
          await ok('PATCH', `/v1/collections/${made.id}`, { defaultLevel: c.level });
          collections.push(made.id);
        }
        const spaces: string[] = [];
        for (const s of o.spaces) {
          const parent = s.parent === undefined || collections.length === 0 ? undefined : collections[s.parent % collections.length];
          const made = await ok('POST', '/v1/orgs/org-acme/spaces', { title: 'S', ...(parent ? { parent } : {}) });
          await ok('PATCH', `/v1/spaces/${made.id}`, { defaultLevel: s.level });
          spaces.push(made.id);
        }
        const sites: string[] = [];
        for (const s of o.sites) {
          const shown = [...new Set(s.spaces.map((i) => spaces[i % spaces.length]))];
          const made = await ok('POST', '/v1/orgs/org-acme/sites', { title: 'Site', spaces: shown });
          await ok('PATCH', `/v1/orgs/org-acme/sites/${made.id}`, { defaultLevel: s.level });
          sites.push(made.id);
        }
        const teams = o.teams.map((members, i) => {
          const id = `team-p${i}`;
          store.data.teams.set(id, { id, org: 'org-acme', title: id, createdAt: store.now(), members: new Map(members.map((m) => [USERS[m], 'member'])) });
          return id;
        });
        store.changed();
        for (const g of o.grants) {
          const targets = g.target === 'space' ? spaces : g.target === 'collection' ? collections : sites;
          if (targets.length === 0 || (g.team && teams.length === 0)) continue;
          const id = targets[g.index % targets.length];
          const path = g.target === 'site' ? `/v1/orgs/org-acme/sites/${id}` : `/v1/${g.target === 'space' ? 'spaces' : 'collections'}/${id}`;
          await ok(
            'POST',
            `${path}/permissions`,
            g.team ? { role: g.role, teams: [teams[g.who % teams.length]] } : { role: g.role, users: [USERS[g.who % USERS.length]] },
          );
        }

        const reach = new Map<string, Map<string, Role>>(USERS.map((u) => [u, new Map()]));
        for (const space of spaces) {
          const agg = await ok('GET', `/v1/spaces/${space}/permissions/aggregate?limit=1000`);
          for (const item of agg.items as { user: { id: string }; permission: Role }[]) reach.get(item.user.id)?.set(space, item.permission);
          for (const user of USERS) {
            const r = reach.get(user)!.get(space) ?? null;
            const at = (min: Role) => r !== null && RANK[r] >= RANK[min];
            const get = await call(user, 'GET', `/v1/spaces/${space}`);
            expect(get.status, `${user} GET ${space} (${r})`).toBe(r === null ? 403 : 200);
            if (get.status === 200)
              expect(get.body.permissions, `${user} on ${space}`).toMatchObject({ view: true, edit: at('edit'), comment: at('comment'), admin: at('admin') });
            expect((await call(user, 'PATCH', `/v1/spaces/${space}`, { title: 'S' })).status, `${user} PATCH ${space} (${r})`).toBe(at('edit') ? 200 : 403);
            const posted = await call(user, 'POST', `/v1/spaces/${space}/comments`, { body: { markdown: 'Hi' } });
            expect(posted.status, `${user} comments on ${space} (${r})`).toBe(at('comment') ? 201 : 403);
            checked++;
          }
        }
        for (const user of USERS) {
          const listed = await ok('GET', `/v1/orgs/org-acme/members/${user}/spaces?limit=1000`);
          const mine = new Map((listed.items as { space: { id: string }; permission: Role }[]).map((i) => [i.space.id, i.permission]));
          for (const space of spaces) expect(mine.get(space), `members spaces ${user} ${space}`).toBe(reach.get(user)!.get(space));
        }
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
    expect(checked).toBeGreaterThan(RUNS * USERS.length - 1);
  }, 120_000);
});
