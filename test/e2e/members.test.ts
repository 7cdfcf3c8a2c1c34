import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');

type Member = { id: string; role: string | null; lastSeenAt?: string; user: { displayName: string } };
const ids = (list: Member[]) => list.map((m) => m.id);

/** The default seed's org-acme members joined one day apart in this order (test/helpers: u-<role>). */
const JOIN_ORDER = ['u-admin', 'u-create', 'u-review', 'u-edit', 'u-comment', 'u-read', 'u-guest'];

describe('members list', () => {
  it('lists the members newest first by default, with the API’s Member objects', async () => {
    const all: Member[] = await sb.json(['members', 'list']);
    expect(ids(all)).toEqual([...JOIN_ORDER].reverse());
    const admin = all.find((m) => m.id === 'u-admin')!;
    expect(admin).toMatchObject({
      object: 'member',
      id: 'u-admin',
      role: 'admin',
      disabled: false,
      sso: false,
      joinedAt: '2026-01-01T00:00:00.000Z',
      spaces: 1,
      teams: 0,
      sites: 0,
      user: { object: 'user', id: 'u-admin', displayName: 'Ada Admin', email: 'admin@acme.test' },
    });
    expect(admin).not.toHaveProperty('lastSeenAt');
    expect(all.find((m) => m.id === 'u-guest')).toMatchObject({ role: null, spaces: 0 });
    expect(all.find((m) => m.id === 'u-edit')).toMatchObject({ teams: 1 });

    expect(ids(await sb.json(['members', 'list', '--order', 'asc']))).toEqual(JOIN_ORDER);
  });

  it('sorts by name, case-insensitively, in either order', async () => {
    const byName: Member[] = await sb.json(['members', 'list', '--sort', 'name', '--order', 'asc']);
    const names = byName.map((m) => m.user.displayName);
    expect(names).toEqual(['Ada Admin', 'Carl Creator', 'Cora Commenter', 'Ed Editor', 'Gus Guest', 'Rex Reader', 'Rita Reviewer']);
    const desc = await sb.request('GET', '/v1/orgs/org-acme/members?sort=name');
    expect(desc.body.items.map((m: Member) => m.user.displayName)).toEqual([...names].reverse());
  });

  it('filters by role (guest: no role) and searches names and emails case-insensitively', async () => {
    expect(ids(await sb.json(['members', 'list', '--role', 'guest']))).toEqual(['u-guest']);
    expect(ids((await sb.request('GET', '/v1/orgs/org-acme/members?role=review')).body.items)).toEqual(['u-review']);
    // "EDIT" matches Ed Editor's name; "comment@" only Cora's email.
    expect(ids(await sb.json(['members', 'list', '--search', 'EDIT']))).toEqual(['u-edit']);
    expect(ids(await sb.json(['members', 'list', '--search', 'comment@']))).toEqual(['u-comment']);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members?search=nobody-like-this')).body).toEqual({ count: 0, items: [] });
    const page = await sb.request('GET', '/v1/orgs/org-acme/members?role=admin&search=ada');
    expect(page.body.count).toBe(1);
  });

  it('prints tab-separated rows without a TTY', async () => {
    const r = await sb.run(['members', 'list', '--role', 'guest']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('u-guest\tGus Guest\tguest@acme.test\tguest\t2026-01-07T00:00:00.000Z\t\tfalse');
    const one = await sb.run(['members', 'get', 'u-edit', '--fields', 'id,role,teams']);
    expect(one.stdout).toBe('id\tu-edit\nrole\tedit\nteams\t1');
  });

  it('ping records lastSeenAt; sort=lastSeenAt lists only members seen, most recent first', async () => {
    expect((await sb.request('GET', '/v1/orgs/org-acme/members?sort=lastSeenAt')).body.count).toBe(0);
    const before = (await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body;
    expect(before.lastSeenAt).toBeUndefined();

    const ping = await sb.run(['ping'], { as: 'read' });
    expect(ping).toMatchObject({ exitCode: 0, stdout: '', stderr: 'recorded your visit to org-acme' });
    const first = (await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body.lastSeenAt;
    expect(Date.parse(first)).toBeGreaterThan(Date.parse(before.joinedAt));

    await sb.request('POST', '/_sandbox/clock', { advance: '1h' });
    expect(await sb.json(['ping'], { as: 'edit' })).toEqual({});
    const seen: Member[] = await sb.json(['members', 'list', '--sort', 'lastSeenAt']);
    expect(ids(seen)).toEqual(['u-edit', 'u-read']);
    expect(Date.parse(seen[0].lastSeenAt!) - Date.parse(seen[1].lastSeenAt!)).toBeGreaterThanOrEqual(3_600_000);

    await sb.request('POST', '/_sandbox/clock', { advance: '1h' });
    await sb.run(['ping'], { as: 'read' });
    const again = (await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body.lastSeenAt;
    expect(Date.parse(again) - Date.parse(first)).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(ids((await sb.request('GET', '/v1/orgs/org-acme/members?sort=lastSeenAt')).body.items)).toEqual(['u-read', 'u-edit']);
  });

  it('rejects bad filters before sending (exit 2) and the server rejects them with 400', async () => {
    const role = await sb.run(['members', 'list', '--role', 'owner']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr).toMatch(/--role.*owner.*invalid/);
    const sort = await sb.run(['members', 'list', '--sort', 'age']);
    expect(sort.exitCode).toBe(2);
    // The official document sets no limit on the search text: a long one is sent, and matches nobody.
    const search = await sb.run(['members', 'list', '--search', 'x'.repeat(600)]);
    expect(search).toMatchObject({ exitCode: 0, stdout: '' });
    const server = await sb.request('GET', '/v1/orgs/org-acme/members?role=owner');
    expect(server.status).toBe(400);
    expect(server.body.error.message).toMatch(/^role: must be one of .*"guest"/);
  });
});

describe('member roles and removal', () => {
  it('set-role round trip: raising needs no confirmation, lowering does, guest sends null', async () => {
    const raised = await sb.json(['members', 'set-role', 'u-read', 'edit']);
    expect(raised).toMatchObject({ id: 'u-read', role: 'edit' });

    const refused = await sb.run(['members', 'set-role', 'u-read', 'read']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Lower member "Rex Reader" (u-read) from edit to read?');
    expect(refused.stderr).toContain('pass --yes');
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body.role).toBe('edit');

    expect((await sb.json(['members', 'set-role', 'u-read', 'read', '--yes'])).role).toBe('read');
    const guest = await sb.json(['members', 'set-role', 'u-read', 'guest', '--yes']);
    expect(guest).toMatchObject({ role: null, spaces: 0 });
    expect(ids(await sb.json(['members', 'list', '--role', 'guest'])).sort()).toEqual(['u-guest', 'u-read']);
    expect((await sb.json(['members', 'set-role', 'u-read', 'read'])).role).toBe('read');
  });

  it('rejects unknown roles before sending and on the server, nothing changed', async () => {
    const r = await sb.run(['members', 'set-role', 'u-read', 'owner', '--yes']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('<role>: must be one of admin, create, review, edit, comment, read, guest');
    const server = await sb.request('PATCH', '/v1/orgs/org-acme/members/u-read', { role: 'owner' });
    expect(server.status).toBe(400);
    expect(server.body.error.message).toMatch(/^role: must be one of/);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body.role).toBe('read');
  });

  it('an update without a role (the official document does not require one) answers the member unchanged', async () => {
    const before = (await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body;
    const empty = await sb.request('PATCH', '/v1/orgs/org-acme/members/u-read', {});
    expect(empty).toEqual({ status: 200, body: before });
    // still an update: only admins may send it
    expect((await sb.request('PATCH', '/v1/orgs/org-acme/members/u-read', {}, 'review')).status).toBe(403);
    // and the last admin's empty update is no demotion
    expect((await sb.request('PATCH', '/v1/orgs/org-acme/members/u-admin', {})).body.role).toBe('admin');
  });

  it('sends any user id, URL-encoded (the official document sets no pattern): unknown ones are 404 from the server', async () => {
    const odd = 'Mixed Case, spaces & punctuation: é ✓';
    const r = await sb.run(['members', 'get', odd]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(`no member ${odd} in organization org-acme`);
    expect((await sb.run(['members', 'set-role', 'a/b?c#d', 'edit'])).exitCode).toBe(4);
  });

  it('protects the last admin from demotion and removal (400), until another admin exists', async () => {
    const demote = await sb.run(['members', 'set-role', 'u-admin', 'edit', '--yes']);
    expect(demote.exitCode).toBe(1);
    expect(demote.stderr).toContain('u-admin is the last admin of organization org-acme; make another member admin first');
    const remove = await sb.run(['members', 'remove', 'u-admin', '--yes']);
    expect(remove.exitCode).toBe(1);
    expect(remove.stderr).toContain('is the last admin');
    const guest = await sb.request('PATCH', '/v1/orgs/org-acme/members/u-admin', { role: null });
    expect(guest.status).toBe(400);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-admin')).body.role).toBe('admin');

    await sb.json(['members', 'set-role', 'u-create', 'admin']);
    expect((await sb.json(['members', 'set-role', 'u-admin', 'edit', '--yes'])).role).toBe('edit');
    // now u-create is the last admin, and may not demote themself
    const self = await sb.run(['members', 'set-role', 'u-create', 'read', '--yes'], { as: 'create' });
    expect(self.exitCode).toBe(1);
    expect(self.stderr).toContain('u-create is the last admin');
  });

  it('removes a member from the organization and its teams; their token then gets 404', async () => {
    const refused = await sb.run(['members', 'remove', 'u-comment']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes');

    const r = await sb.run(['members', 'remove', 'u-comment', '--yes']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: 'removed u-comment from org-acme' });
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-comment')).status).toBe(404);
    const teams = await sb.json(['teams', 'list']);
    expect(teams).toEqual([expect.objectContaining({ id: 'team-writers', members: 1 })]);
    expect((await sb.request('GET', '/_sandbox/state')).body.data.teams.$map[0][1].members.$map).toEqual([['u-edit', 'owner']]);

    const gone = await sb.run(['orgs', 'get'], { as: 'comment' });
    expect(gone.exitCode).toBe(4);
    expect((await sb.run(['members', 'list'], { as: 'comment' })).exitCode).toBe(4);
    // removing again, or someone who never was a member: 204
    expect((await sb.request('DELETE', '/v1/orgs/org-acme/members/u-comment')).status).toBe(204);
  });

  it('needs admin to change roles or remove', async () => {
    const r = await sb.run(['members', 'set-role', 'u-comment', 'edit'], { as: 'review' });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('changing a member’s role needs the admin role or above; you have review');
    expect((await sb.run(['members', 'remove', 'u-comment', '--yes'], { as: 'create' })).exitCode).toBe(5);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-comment')).body.role).toBe('comment');
  });

  it('any member with a role reads the members; a guest only themself; outsiders get 404', async () => {
    expect(ids(await sb.json(['members', 'list'], { as: 'read' }))).toHaveLength(7);
    const guest = await sb.run(['members', 'list'], { as: 'guest' });
    expect(guest.exitCode).toBe(5);
    expect(guest.stderr).toContain('guests may only read their own membership');
    expect((await sb.json(['members', 'get', 'u-guest'], { as: 'guest' })).id).toBe('u-guest');
    expect((await sb.run(['members', 'get', 'u-admin'], { as: 'guest' })).exitCode).toBe(5);

    expect((await sb.run(['members', 'list'], { as: 'outsider' })).exitCode).toBe(4);
    expect((await sb.run(['members', 'get', 'no-such-user'])).exitCode).toBe(4);
  });
});

describe('member sites', () => {
  const sitesOf = async (user: string) => (await sb.request('GET', `/v1/orgs/org-acme/members/${user}`)).body.sites;

  it('counts the sites a member can access: all of the organization’s for a role, none for a guest', async () => {
    expect(await sitesOf('u-read')).toBe(0);
    const first = await sb.json(['sites', 'create', '--title', 'Docs']);
    expect(await sitesOf('u-read')).toBe(1);
    expect(await sitesOf('u-admin')).toBe(1);
    // an unpublished site too: members with a role see every site, published or not
    expect(first.published).toBe(false);
    await sb.json(['sites', 'create', '--title', 'Blog']);
    const all: { id: string; sites: number }[] = await sb.json(['members', 'list']);
    expect(Object.fromEntries(all.map((m) => [m.id, m.sites]))).toEqual({
      'u-admin': 2,
      'u-create': 2,
      'u-review': 2,
      'u-edit': 2,
      'u-comment': 2,
      'u-read': 2,
      'u-guest': 0,
    });
    // a guest reaches a site only as any visitor does, published or not
    await sb.run(['sites', 'publish', first.id]);
    expect(await sitesOf('u-guest')).toBe(0);
    // losing the role loses the sites; deleting a site takes it off every count
    await sb.json(['members', 'set-role', 'u-read', 'guest', '--yes']);
    expect(await sitesOf('u-read')).toBe(0);
    await sb.run(['sites', 'delete', first.id, '--yes']);
    expect(await sitesOf('u-admin')).toBe(1);
    // another organization's sites are not counted
    expect((await sb.request('POST', '/v1/orgs/org-globex/sites', { title: 'Globex docs' })).status).toBe(201);
    expect(await sitesOf('u-admin')).toBe(1);
    expect((await sb.run(['members', 'get', 'u-admin', '--fields', 'sites'])).stdout).toBe('sites\t1');
  });
});

describe('member spaces, teams and SSO', () => {
  it('lists the spaces a member can access, with the permission from their role and defaultLevel', async () => {
    const admin = await sb.json(['members', 'spaces', 'u-admin']);
    expect(admin).toEqual([{ permission: 'admin', space: expect.objectContaining({ object: 'space', id: 'sp-welcome' }) }]);
    expect((await sb.json(['members', 'spaces', 'u-read']))[0].permission).toBe('read');
    expect(await sb.json(['members', 'spaces', 'u-guest'])).toEqual([]);

    // the handbook's default level is every non-admin's role there (readers up, editors down), and opens nothing to a guest
    expect((await sb.request('PATCH', '/v1/collections/col-handbook', { defaultLevel: 'comment' })).status).toBe(200);
    expect(await sb.json(['members', 'spaces', 'u-guest'])).toEqual([]);
    const spacesOf = async (user: string) => (await sb.request('GET', `/v1/orgs/org-acme/members/${user}/spaces`)).body.items;
    expect((await spacesOf('u-read'))[0].permission).toBe('comment');
    expect((await spacesOf('u-edit'))[0].permission).toBe('comment');
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-guest')).body.spaces).toBe(0);

    // newest first by default, oldest first with --order asc
    const created = await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Later' });
    expect(created.status).toBe(201);
    const desc = await sb.json(['members', 'spaces', 'u-admin']);
    expect(desc.map((i: { space: { id: string } }) => i.space.id)).toEqual([created.body.id, 'sp-welcome']);
    const asc = await sb.json(['members', 'spaces', 'u-admin', '--order', 'asc']);
    expect(asc.map((i: { space: { id: string } }) => i.space.id)).toEqual(['sp-welcome', created.body.id]);
    // nor is the new private space at the root
    expect(await spacesOf('u-guest')).toEqual([]);

    const tsv = await sb.run(['members', 'spaces', 'u-admin', '--order', 'asc', '--limit', '1']);
    expect(tsv.stdout).toBe('sp-welcome\tWelcome\tadmin\tin-collection\tcol-handbook');
  });

  it('lists a member’s teams with their team role, filtered by title', async () => {
    expect(await sb.json(['members', 'teams', 'u-edit'])).toEqual([
      { team: expect.objectContaining({ object: 'team', id: 'team-writers', title: 'Writers', members: 2 }), member: { role: 'owner' } },
    ]);
    expect((await sb.json(['members', 'teams', 'u-comment', '--title', 'WRIT']))[0].member).toEqual({ role: 'member' });
    expect(await sb.json(['members', 'teams', 'u-comment', '--title', 'design'])).toEqual([]);
    expect(await sb.json(['members', 'teams', 'u-admin'])).toEqual([]);
    const r = await sb.run(['members', 'teams', 'u-edit']);
    expect(r.stdout).toBe('team-writers\tWriters\towner\t2');
  });

  it('teams list shows the organization’s teams', async () => {
    const r = await sb.run(['teams', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^team-writers\tWriters\t2\t0\t\d{4}-\d\d-\d\dT/);
  });

  it('makes a member an SSO member, with or without a SAML provider (the seed and the official document: 200)', async () => {
    expect((await sb.request('GET', '/v1/orgs/org-acme/saml')).body.items).toEqual([]);
    const none = await sb.run(['members', 'sso', 'u-read', '--json']);
    expect(none.stderr).toBe('');
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ id: 'u-read', sso: true });
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-read')).body.sso).toBe(true);
    const saml = await sb.request('POST', '/v1/orgs/org-acme/saml', {
      label: 'Okta',
      entityID: 'http://www.okta.com/exk1',
      ssoURL: 'https://acme.okta.test/sso/saml',
      certificate: PEM,
    });
    expect(saml.status).toBe(201);
    expect((await sb.run(['members', 'sso', 'u-edit'], { as: 'edit' })).exitCode).toBe(5);
    const r = await sb.json(['members', 'sso', 'u-edit']);
    expect(r).toMatchObject({ id: 'u-edit', sso: true });
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-edit')).body.sso).toBe(true);
  });
});
