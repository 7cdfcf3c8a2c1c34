/**
 * `docsctl access who` against what the sandbox does, on random organizations (fast-check): members
 * of every role and guests, teams, nested collections, spaces and sites with default levels, user and
 * team grants — all set up through the HTTP API. For every (user, space): the role `access who`
 * reports decides what the sandbox lets the user do (GET the space: read; PATCH its title: edit;
 * comment: comment), and the service's aggregate operation gives the same role (`access who` would
 * warn on stderr otherwise, and the aggregate is read here too). And `access of` one of the users gives
 * the same role on every space, and the collections' and sites' aggregates' on every collection and site.
 *
 * Bounded: ACCESS_RUNS organizations (default 12, a few seconds); ACCESS_SEED replays a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const RUNS = Number(process.env.ACCESS_RUNS ?? 12);
const SEED = process.env.ACCESS_SEED === undefined ? undefined : Number(process.env.ACCESS_SEED);

const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
type Role = (typeof ROLES)[number];
const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };
/** The default seed's users but its admin (who stays admin: the organization needs one), by the role named in their id (u-<name>). */
const USERS = ['create', 'review', 'edit', 'comment', 'read', 'guest'] as const;
const ALL_USERS = ['admin', ...USERS] as const;
const ORG = '/v1/orgs/org-acme';

const role = fc.constantFrom(...ROLES);
const level = fc.constantFrom<Role | 'inherit' | null>('inherit', 'inherit', null, ...ROLES);
const organization = fc.record({
  roles: fc.array(fc.option(role, { nil: null, freq: 3 }), { minLength: USERS.length, maxLength: USERS.length }),
  teams: fc.array(fc.subarray([...ALL_USERS]), { maxLength: 3 }),
  collections: fc.array(fc.record({ parent: fc.option(fc.nat()), level }), { maxLength: 3 }),
  spaces: fc.array(fc.record({ parent: fc.option(fc.nat()), level }), { minLength: 1, maxLength: 3 }),
  sites: fc.array(fc.record({ spaces: fc.subarray([0, 1, 2, 3]), level }), { maxLength: 2 }),
  grants: fc.array(
    fc.record({
      kind: fc.constantFrom('space', 'collection', 'site'),
      target: fc.nat(),
      team: fc.boolean(),
      who: fc.nat(),
      role,
    }),
    { maxLength: 8 },
  ),
});
type Organization = typeof organization extends fc.Arbitrary<infer T> ? T : never;

/** A setup request by the admin; `lenient`: the sandbox may refuse it (a guest in a team), what it accepted is what is audited. */
async function admin(method: string, path: string, body?: unknown, lenient = false): Promise<any> {
  const r = await sb.request(method, path, body);
  if (!lenient) expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
}

async function build(o: Organization): Promise<{ spaces: string[]; collections: string[]; sites: string[] }> {
  sb.server.reset();
  for (const [i, name] of USERS.entries()) await admin('PATCH', `${ORG}/members/u-${name}`, { role: o.roles[i] });
  const teams: string[] = [];
  for (const [i, members] of o.teams.entries()) {
    const team = await admin('PUT', `${ORG}/teams`, { title: `Team ${i}` });
    teams.push(team.id);
    for (const m of members) await admin('PUT', `${ORG}/teams/${team.id}/members/u-${m}`, {}, true);
  }
  const collections = ['col-handbook'];
  for (const c of o.collections) {
    const parent = c.parent === null ? undefined : collections[c.parent % collections.length];
    const made = await admin('POST', `${ORG}/collections`, { title: `C${collections.length}`, ...(parent ? { parent } : {}) });
    await admin('PATCH', `/v1/collections/${made.id}`, { defaultLevel: c.level });
    collections.push(made.id);
  }
  const spaces = ['sp-welcome'];
  for (const s of o.spaces) {
    const parent = s.parent === null ? undefined : collections[s.parent % collections.length];
    const made = await admin('POST', `${ORG}/spaces`, { title: `S${spaces.length}`, ...(parent ? { parent } : {}) });
    await admin('PATCH', `/v1/spaces/${made.id}`, { defaultLevel: s.level });
    spaces.push(made.id);
  }
  const sites: string[] = [];
  for (const s of o.sites) {
    const made = await admin('POST', `${ORG}/sites`, { title: `W${sites.length}` });
    await admin('PATCH', `${ORG}/sites/${made.id}`, { defaultLevel: s.level });
    for (const i of new Set(s.spaces.map((k) => k % spaces.length))) await admin('POST', `${ORG}/sites/${made.id}/site-spaces`, { spaceId: spaces[i] });
    sites.push(made.id);
  }
  for (const g of o.grants) {
    const targets = g.kind === 'space' ? spaces : g.kind === 'collection' ? collections : sites;
    if (targets.length === 0 || (g.team && teams.length === 0)) continue;
    const id = targets[g.target % targets.length];
    const base = g.kind === 'space' ? `/v1/spaces/${id}` : g.kind === 'collection' ? `/v1/collections/${id}` : `${ORG}/sites/${id}`;
    const body = g.team ? { role: g.role, teams: [teams[g.who % teams.length]] } : { role: g.role, users: [`u-${ALL_USERS[g.who % ALL_USERS.length]}`] };
    await admin('POST', `${base}/permissions`, body);
  }
  return { spaces, collections, sites };
}

const atLeast = (r: Role | undefined, min: Role) => r !== undefined && RANK[r] >= RANK[min];

async function check(spaceId: string): Promise<Map<string, Role>> {
  const run = await sb.run(['access', 'who', '--space', spaceId, '--json']);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr, 'access who found the aggregate different').not.toMatch(/warning/);
  const who = new Map<string, Role>((JSON.parse(run.stdout) as { id: string; role: Role }[]).map((r) => [r.id, r.role]));
  const aggregate = new Map<string, Role>(
    ((await admin('GET', `/v1/spaces/${spaceId}/permissions/aggregate?limit=1000`)).items as { user: { id: string }; permission: Role }[]).map((p) => [
      p.user.id,
      p.permission,
    ]),
  );
  const space = await admin('GET', `/v1/spaces/${spaceId}`);
  for (const name of ALL_USERS) {
    const user = `u-${name}`;
    const mine = who.get(user);
    const what = `${user} on ${spaceId} (access who: ${mine ?? 'none'})`;
    expect(aggregate.get(user), `${what}: the aggregate`).toBe(mine);
    const get = await sb.request('GET', `/v1/spaces/${spaceId}`, undefined, name);
    expect(get.status === 200, `${what}: GET answered ${get.status}`).toBe(atLeast(mine, 'read'));
    const patch = await sb.request('PATCH', `/v1/spaces/${spaceId}`, { title: space.title }, name);
    expect(patch.status === 200, `${what}: PATCH title answered ${patch.status}`).toBe(atLeast(mine, 'edit'));
    const comment = await sb.request('POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown: 'hello' } }, name);
    expect(comment.status === 201, `${what}: comment answered ${comment.status}`).toBe(atLeast(mine, 'comment'));
  }
  return who;
}

/** `access of` a user: on every space the role `access who` gave them; on every collection and site, the aggregate's. */
async function checkOf(
  name: (typeof ALL_USERS)[number],
  org: { spaces: string[]; collections: string[]; sites: string[] },
  who: Map<string, Map<string, Role>>,
) {
  const run = await sb.run(['access', 'of', `u-${name}`, '--json']);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr, "access of found the service's list of spaces different").not.toMatch(/warning/);
  const of = new Map((JSON.parse(run.stdout) as { kind: string; id: string; role: Role }[]).map((r) => [`${r.kind}:${r.id}`, r.role]));
  for (const id of org.spaces) expect(of.get(`space:${id}`), `u-${name} on space ${id}: access of vs access who`).toBe(who.get(id)?.get(`u-${name}`));
  const aggregateOf = async (path: string) =>
    new Map<string, Role>(
      ((await admin('GET', `${path}/permissions/aggregate?limit=1000`)).items as { user: { id: string }; permission: Role }[]).map((p) => [
        p.user.id,
        p.permission,
      ]),
    );
  for (const id of org.collections)
    expect(of.get(`collection:${id}`), `u-${name} on collection ${id}: access of vs the aggregate`).toBe(
      (await aggregateOf(`/v1/collections/${id}`)).get(`u-${name}`),
    );
  for (const id of org.sites)
    expect(of.get(`site:${id}`), `u-${name} on site ${id}: access of vs the aggregate`).toBe(
      (await aggregateOf(`${ORG}/sites/${id}`)).get(`u-${name}`) ?? undefined,
    );
}

describe('access who agrees with the sandbox and the aggregate', () => {
  it('on random organizations, for every (user, space); and access of one user agrees on every space, collection and site', async () => {
    await fc.assert(
      fc.asyncProperty(organization, fc.constantFrom(...ALL_USERS), async (o, user) => {
        const org = await build(o);
        const who = new Map<string, Map<string, Role>>();
        for (const s of org.spaces) who.set(s, await check(s));
        await checkOf(user, org, who);
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  }, 120_000);
});
