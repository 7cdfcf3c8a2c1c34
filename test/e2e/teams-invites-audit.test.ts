/**
 * Teams, invitations and the audit log through the sandbox's HTTP API (contract/teams.ts,
 * invites.ts, audit.ts): the rules of docs/access.md, the errors (400 naming the field, 403 saying
 * what is needed, 404), paging, and what `serve --data` keeps across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/server/limits.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const ORG = '/v1/orgs/org-acme';
const TEAM = `${ORG}/teams/team-writers`;

const memberIds = async (path = TEAM, role = 'admin') =>
  (await sb.request('GET', `${path}/members`, undefined, role)).body.items.map((m: any) => m.organization.id);
const eventsNow = async (query = '') => (await sb.request('GET', `${ORG}/audit-events${query}`)).body;

describe('teams', () => {
  it('an admin creates a team with members named by id or email, reads, lists, filters and renames it', async () => {
    const made = await sb.request('PUT', `${ORG}/teams`, { title: 'Reviewers', members: ['u-review', 'READ@acme.test'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'team', title: 'Reviewers', members: 2, spaces: 0, permissions: { admin: true, view: true } });
    const id = made.body.id;
    expect((await sb.request('GET', `${ORG}/teams/${id}`, undefined, 'read')).body).toMatchObject({ id, permissions: { admin: false, view: true } });
    expect(await memberIds(`${ORG}/teams/${id}`)).toEqual(['u-review', 'u-read']);

    const titles = async (query: string) => (await sb.request('GET', `${ORG}/teams${query}`)).body.items.map((t: any) => t.title);
    expect(await titles('')).toEqual(['Writers', 'Reviewers']);
    expect(await titles('?title=VIEW')).toEqual(['Reviewers']);
    // `owner`: the teams that member can manage (u-edit owns Writers; an admin manages all).
    expect(await titles('?owner=u-edit')).toEqual(['Writers']);
    expect(await titles('?owner=u-admin')).toEqual(['Writers', 'Reviewers']);
    expect(await titles('?owner=u-read')).toEqual([]);

    const renamed = await sb.request('PATCH', `${ORG}/teams/${id}`, { title: 'Review board' });
    expect(renamed.body.title).toBe('Review board');
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const before = await sb.request('GET', '/_sandbox/state');
    const cases: [string, string, unknown, RegExp][] = [
      ['PUT', `${ORG}/teams`, { title: '' }, /^title: /],
      ['PUT', `${ORG}/teams`, { title: 'x'.repeat(65) }, /^title: .*64/],
      [
        'PUT',
        `${ORG}/teams`,
        { title: 'Ok', members: ['u-read', 'olga@globex.test'] },
        /^members\.1: olga@globex\.test is not a member of organization org-acme/,
      ],
      ['PATCH', TEAM, {}, /^title: /],
      ['PUT', `${TEAM}/members`, { add: ['u-read', 'nobody'] }, /^add\.1: nobody is not a member/],
      ['PUT', `${TEAM}/members`, { memberships: { 'u-read': { role: 'owner' } } }, /^memberships\.u-read: u-read is not in team team-writers/],
      ['PUT', `${TEAM}/members`, { add: ['u-read'], memberships: { 'u-read': { role: 'boss' } } }, /^memberships\.u-read\.role: /],
      ['PUT', `${TEAM}/members/u-read`, { role: 'chief' }, /^role: /],
    ];
    for (const [method, path, body, message] of cases) {
      const r = await sb.request(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await sb.request('GET', '/_sandbox/state')).body).toEqual(before.body);
  });

  it('updates members in bulk: adds by id or email with roles, removes, and a user both added and removed ends up out', async () => {
    const r = await sb.request('PUT', `${TEAM}/members`, {
      add: ['u-read', 'review@acme.test', 'u-create'],
      memberships: { 'review@acme.test': { role: 'owner' }, 'u-comment': { role: 'owner' } },
      remove: ['u-create', 'edit@acme.test'],
    });
    expect(r.status).toBe(204);
    const list = (await sb.request('GET', `${TEAM}/members`)).body.items;
    expect(list.map((m: any) => [m.organization.id, m.team.role])).toEqual([
      ['u-comment', 'owner'],
      ['u-read', 'member'],
      ['u-review', 'owner'],
    ]);
    expect(list[0]).toMatchObject({ organization: { object: 'member', role: 'comment', teams: 1 }, permissions: { view: true } });
  });

  it('adds one member or changes their team role, and removes one (204 also when not in the team)', async () => {
    expect((await sb.request('PUT', `${TEAM}/members/u-read`)).status).toBe(204);
    expect((await sb.request('PUT', `${TEAM}/members/u-read`, { role: 'owner' })).status).toBe(204);
    expect((await sb.request('GET', `${TEAM}/members`)).body.items.find((m: any) => m.organization.id === 'u-read').team.role).toBe('owner');
    // Added again without a role: keeps the role it has.
    await sb.request('PUT', `${TEAM}/members/u-read`, {});
    expect((await sb.request('GET', `${TEAM}/members`)).body.items.find((m: any) => m.organization.id === 'u-read').team.role).toBe('owner');
    expect((await sb.request('DELETE', `${TEAM}/members/u-read`)).status).toBe(204);
    expect((await sb.request('DELETE', `${TEAM}/members/u-read`)).status).toBe(204);
    expect(await memberIds()).toEqual(['u-edit', 'u-comment']);
    const stranger = await sb.request('PUT', `${TEAM}/members/u-outsider`);
    expect(stranger).toMatchObject({ status: 404, body: { error: { message: 'no member u-outsider in organization org-acme' } } });
  });

  it('lets a team owner manage its members but nothing else; other members may not', async () => {
    // u-edit owns Writers.
    expect((await sb.request('PUT', `${TEAM}/members/u-read`, undefined, 'edit')).status).toBe(204);
    expect((await sb.request('PUT', `${TEAM}/members`, { remove: ['u-read'] }, 'edit')).status).toBe(204);
    const rename = await sb.request('PATCH', TEAM, { title: 'Mine' }, 'edit');
    expect(rename.status).toBe(403);
    expect(rename.body.error.message).toMatch(/renaming a team needs the admin role/);
    expect((await sb.request('DELETE', TEAM, undefined, 'edit')).status).toBe(403);
    expect((await sb.request('PUT', `${ORG}/teams`, { title: 'Another' }, 'edit')).status).toBe(403);
    // A creator who owns no team changes no team's members.
    const r = await sb.request('PUT', `${TEAM}/members/u-read`, undefined, 'create');
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('adding a member to a team needs the admin role or to own team team-writers; you have create');
    // A guest sees no team they are not in; in one, they see it.
    expect((await sb.request('GET', TEAM, undefined, 'guest')).status).toBe(403);
    await sb.request('PUT', `${TEAM}/members/u-guest`);
    expect((await sb.request('GET', TEAM, undefined, 'guest')).body).toMatchObject({ id: 'team-writers', permissions: { view: true, admin: false } });
  });

  it('pages the members of a team', async () => {
    await sb.request('PUT', `${TEAM}/members`, { add: ['u-admin', 'u-create', 'u-review', 'u-read', 'u-guest'] });
    const seen: string[] = [];
    let page: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await sb.request('GET', `${TEAM}/members?limit=3${page ? `&page=${page}` : ''}`);
      expect(r.body.count).toBe(7);
      seen.push(...r.body.items.map((m: any) => m.organization.id));
      page = r.body.next?.page;
      if (!page) break;
    }
    expect(seen).toEqual(['u-edit', 'u-comment', 'u-admin', 'u-create', 'u-review', 'u-read', 'u-guest']);
    expect((await sb.request('GET', `${TEAM}/members?limit=1001`)).body.error.message).toMatch(/^limit: /);
  });

  it('deletes a team (204, also when it does not exist); its members lose it', async () => {
    expect((await sb.request('DELETE', TEAM)).status).toBe(204);
    expect((await sb.request('GET', TEAM)).status).toBe(404);
    expect((await sb.request('GET', `${ORG}/members/u-edit/teams`)).body.items).toEqual([]);
    expect((await sb.request('DELETE', TEAM)).status).toBe(204);
    // Another organization's team is no team of this one.
    const other = await sb.request('PUT', '/v1/orgs/org-globex/teams', { title: 'Globex team' });
    expect((await sb.request('GET', `${ORG}/teams/${other.body.id}`)).status).toBe(404);
    expect((await sb.request('DELETE', `${ORG}/teams/${other.body.id}`)).status).toBe(204);
    expect((await sb.request('GET', `/v1/orgs/org-globex/teams/${other.body.id}`)).status).toBe(200);
  });
});

describe('invitations by email', () => {
  it('adds existing users at once and makes new users of unknown addresses, with each role; members already in are left alone', async () => {
    await sb.request('PATCH', ORG, { defaultRole: 'comment' });
    const r = await sb.request('POST', `${ORG}/invites`, {
      emails: ['OLGA@globex.test', { email: 'new.writer@acme.test', role: 'edit' }, 'read@acme.test', 'olga@globex.test'],
    });
    expect(r.status).toBe(200);
    expect(r.body.invited).toBe(2);
    expect(r.body.users[0]).toBe('u-outsider');
    const newId = r.body.users[1];
    const members = (await sb.request('GET', `${ORG}/members?limit=100`)).body.items;
    // Without a role: the organization's default role (comment here).
    expect(members.find((m: any) => m.id === 'u-outsider')).toMatchObject({ role: 'comment', sso: false });
    expect(members.find((m: any) => m.id === newId)).toMatchObject({ role: 'edit', user: { displayName: 'new.writer', email: 'new.writer@acme.test' } });
    expect(members.find((m: any) => m.id === 'u-read').role).toBe('read');
    // The new user exists with a token of their own: they can work in the organization.
    const state = (await sb.request('GET', '/_sandbox/state')).body;
    const token = state.data.users.$map.find(([id]: [string]) => id === newId)[1].token;
    const me = await sb.server.app.handle({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
    expect(JSON.parse(me.body!.toString())).toMatchObject({ id: newId, email: 'new.writer@acme.test' });
  });

  it('invites as SSO members, except users who are members of another organization', async () => {
    const r = await sb.request('POST', `${ORG}/invites`, { emails: ['olga@globex.test', 'sso.person@acme.test'], role: null, sso: true });
    expect(r.body).toMatchObject({ invited: 2, failedSSOEmails: ['olga@globex.test'] });
    const members = (await sb.request('GET', `${ORG}/members?limit=100`)).body.items;
    expect(members.find((m: any) => m.id === 'u-outsider')).toMatchObject({ role: null, sso: false });
    expect(members.find((m: any) => m.id === r.body.users[1])).toMatchObject({ role: null, sso: true });
  });

  it('refuses a bad address naming it, and callers who are not admins', async () => {
    const bad = await sb.request('POST', `${ORG}/invites`, { emails: ['ok@acme.test', 'not an address'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^emails\.1: /);
    expect((await sb.request('POST', `${ORG}/invites`, { role: 'read' })).body.error.message).toMatch(/^emails: /);
    const forbidden = await sb.request('POST', `${ORG}/invites`, { emails: ['x@acme.test'] }, 'create');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toBe('inviting members needs the admin role or above; you have create');
  });
});

describe('invite links', () => {
  it('an admin creates, lists, reads, changes and deletes links; a user joins with one', async () => {
    const made = await sb.request('POST', `${ORG}/link-invites`, { role: 'edit' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ object: 'invite', id: made.body.id, role: 'edit', redundant: true });
    const link = `${ORG}/link-invites/${made.body.id}`;
    expect((await sb.request('GET', link)).body).toEqual(made.body);

    // Olga (no member of org-acme) joins with it and becomes an editor.
    const joined = await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'outsider');
    expect(joined).toEqual({ status: 200, body: {} });
    expect((await sb.request('GET', `${ORG}/members/u-outsider`)).body).toMatchObject({ role: 'edit' });
    expect((await sb.request('GET', '/v1/orgs/org-acme', undefined, 'outsider')).status).toBe(200);

    // A member keeps the higher of their role and the link's; a guest gets the link's role.
    expect((await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'review')).status).toBe(200);
    expect((await sb.request('GET', `${ORG}/members/u-review`)).body.role).toBe('review');
    await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'read');
    expect((await sb.request('GET', `${ORG}/members/u-read`)).body.role).toBe('edit');
    await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'guest');
    expect((await sb.request('GET', `${ORG}/members/u-guest`)).body.role).toBe('edit');

    const changed = await sb.request('PATCH', link, { role: 'admin' });
    expect(changed.body).toMatchObject({ role: 'admin', redundant: true });
    expect((await sb.request('PATCH', link, { level: 'read' })).body.error.message).toMatch(/^level: invite .* is for the organization: set its role/);
    expect((await sb.request('GET', `${ORG}/link-invites`)).body).toMatchObject({ count: 1, items: [{ id: made.body.id, role: 'admin' }] });
    expect((await sb.request('DELETE', link)).status).toBe(204);
    expect((await sb.request('DELETE', link)).status).toBe(204);
    expect((await sb.request('GET', link)).status).toBe(404);
    expect((await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'outsider')).status).toBe(404);
  });

  it('a link to a space shows the space, a guest joins through it, and its space must be the organization’s', async () => {
    const made = await sb.request('POST', `${ORG}/link-invites`, { level: 'comment', space: 'sp-welcome' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'invite', level: 'comment', redundant: true, space: { object: 'space', id: 'sp-welcome' } });
    await sb.request('POST', `${ORG}/invites/${made.body.id}`, undefined, 'outsider');
    // Not a member through the organization: a guest, given the link's level on the space.
    expect((await sb.request('GET', `${ORG}/members/u-outsider`)).body.role).toBe(null);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/permissions/users')).body.items).toContainEqual(
      expect.objectContaining({ permission: 'comment', user: expect.objectContaining({ id: 'u-outsider' }) }),
    );
    expect((await sb.request('GET', '/v1/spaces/sp-welcome', undefined, 'outsider')).status).toBe(200);
    const col = await sb.request('POST', `${ORG}/link-invites`, { level: 'read', collection: 'col-handbook' });
    expect(col.body).toMatchObject({ level: 'read', collection: { object: 'collection', id: 'col-handbook' } });

    expect((await sb.request('POST', `${ORG}/link-invites`, { level: 'read', space: 'sp-nowhere' })).body.error.message).toBe(
      'space: no space sp-nowhere in organization org-acme',
    );
    expect((await sb.request('POST', `${ORG}/link-invites`, { level: 'read', collection: 'nope' })).status).toBe(400);
    expect((await sb.request('POST', `${ORG}/link-invites`, { role: 'read', space: 'sp-welcome' })).status).toBe(400);
    expect((await sb.request('POST', `${ORG}/link-invites`, {})).status).toBe(400);
    expect((await sb.request('PATCH', `${ORG}/link-invites/${made.body.id}`, { role: 'read' })).body.error.message).toMatch(
      /^role: .* is for a space: set its level/,
    );
  });

  it('answers the same 404 for an unknown link and an unknown organization, and refuses while links are off', async () => {
    const unknownLink = await sb.request('POST', `${ORG}/invites/nope`, undefined, 'outsider');
    const unknownOrg = await sb.request('POST', '/v1/orgs/org-nowhere/invites/nope', undefined, 'outsider');
    expect(unknownLink.status).toBe(404);
    expect(unknownOrg.status).toBe(404);
    expect(unknownLink.body.error.message).toBe('no invite nope in organization org-acme');
    expect(unknownOrg.body.error.message).toBe('no invite nope in organization org-nowhere');

    const link = (await sb.request('POST', `${ORG}/link-invites`, { role: 'read' })).body.id;
    await sb.request('PATCH', ORG, { inviteLinks: false });
    const join = await sb.request('POST', `${ORG}/invites/${link}`, undefined, 'outsider');
    expect(join.status).toBe(403);
    expect(join.body.error.message).toMatch(/invite links are turned off in organization org-acme/);
    expect((await sb.request('POST', `${ORG}/link-invites`, { role: 'read' })).status).toBe(403);
    expect((await sb.request('GET', `${ORG}/members/u-outsider`)).status).toBe(404);
  });

  it('only admins manage links', async () => {
    const link = (await sb.request('POST', `${ORG}/link-invites`, { role: 'read' })).body.id;
    for (const [method, path, body] of [
      ['GET', `${ORG}/link-invites`],
      ['POST', `${ORG}/link-invites`, { role: 'read' }],
      ['GET', `${ORG}/link-invites/${link}`],
      ['PATCH', `${ORG}/link-invites/${link}`, { role: 'edit' }],
      ['DELETE', `${ORG}/link-invites/${link}`],
    ] as [string, string, unknown?][]) {
      const r = await sb.request(method, path, body, 'create');
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.message).toMatch(/needs the admin role/);
    }
    // Outsiders are told nothing of the organization's links.
    expect((await sb.request('GET', `${ORG}/link-invites/${link}`, undefined, 'outsider')).status).toBe(404);
  });
});

describe('the audit log', () => {
  it('records every change served (who, what, which object, when), newest first, with its details', async () => {
    expect((await eventsNow()).count).toBe(0);
    const team = (await sb.request('PUT', `${ORG}/teams`, { title: 'Auditors', members: ['u-read'] })).body;
    await sb.request('PUT', `${ORG}/teams/${team.id}/members/u-edit`, undefined, 'admin');
    await sb.request('DELETE', `${ORG}/teams/${team.id}`);
    await sb.request('PATCH', '/v1/spaces/sp-welcome', { title: 'Hello' }, 'admin');
    const list = await eventsNow();
    expect(list.count).toBe(4);
    expect(list.items.map((e: any) => [e.action, e.target.type, e.target.id, e.target.label])).toEqual([
      ['updateSpace', 'space', 'sp-welcome', 'Hello'],
      // A deleted object keeps its label in the log.
      ['deleteTeam', 'team', team.id, 'Auditors'],
      ['addTeamMember', 'user', 'u-edit', 'Ed Editor'],
      ['createTeam', 'team', team.id, 'Auditors'],
    ]);
    const first = list.items[3];
    expect(first).toMatchObject({
      object: 'audit-event',
      actor: { type: 'user', id: 'u-admin', label: 'Ada Admin' },
      source: 'api',
      urls: { location: expect.stringMatching(new RegExp(`/v1/orgs/org-acme/audit-events/${first.id}$`)) },
    });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const details = (await sb.request('GET', `${ORG}/audit-events/${first.id}`)).body;
    expect(details).toEqual({
      ...first,
      schemaVersion: 1,
      payload: { operation: 'createTeam', method: 'PUT', params: { organizationId: 'org-acme' }, fields: ['title', 'members'] },
    });
  });

  it('records nothing for reads and refused requests', async () => {
    await sb.request('GET', `${ORG}/teams`);
    await sb.request('PUT', `${ORG}/teams`, { title: '' });
    await sb.request('PUT', `${ORG}/teams`, { title: 'No' }, 'read');
    await sb.request('DELETE', '/v1/collections/col-handbook', undefined, 'outsider');
    await sb.request('POST', `${ORG}/ping`);
    expect((await eventsNow()).count).toBe(0);
  });

  it('puts a change in the organization of its object, also when that object is gone', async () => {
    await sb.request('DELETE', '/v1/collections/col-handbook');
    await sb.request('PUT', '/v1/orgs/org-globex/teams', { title: 'Globex team' });
    expect((await eventsNow()).items.map((e: any) => [e.action, e.target.id, e.target.label])).toEqual([['deleteCollection', 'col-handbook', 'Handbook']]);
    expect((await sb.request('GET', '/v1/orgs/org-globex/audit-events')).body.items.map((e: any) => e.action)).toEqual(['createTeam']);
    // An event of another organization is none of this one's.
    const other = (await sb.request('GET', '/v1/orgs/org-globex/audit-events')).body.items[0].id;
    expect((await sb.request('GET', `${ORG}/audit-events/${other}`)).status).toBe(404);
  });

  it('filters by action, actor, target and time, and pages', async () => {
    await sb.request('PUT', `${TEAM}/members/u-read`, undefined, 'edit');
    await sb.server.app.handle({ method: 'POST', url: '/_sandbox/clock', headers: { authorization: `Bearer ${sb.token('admin')}` }, body: '{"advance":"2h"}' });
    const middle = new Date(Date.parse((await eventsNow()).items[0].occurredAt) + 3_600_000).toISOString();
    for (const title of ['A', 'B', 'C']) await sb.request('PATCH', TEAM, { title });
    const actions = async (query: string) => (await eventsNow(query)).items.map((e: any) => e.action);
    expect(await actions('?actor=u-edit')).toEqual(['addTeamMember']);
    expect(await actions('?action=updateTeam')).toEqual(['updateTeam', 'updateTeam', 'updateTeam']);
    expect(await actions('?target=u-read')).toEqual(['addTeamMember']);
    expect(await actions(`?from=${middle}`)).toHaveLength(3);
    expect(await actions(`?to=${encodeURIComponent(middle.replace('Z', '+00:00'))}`)).toEqual(['addTeamMember']);

    const seen: string[] = [];
    let r = await eventsNow('?limit=3');
    expect(r).toMatchObject({ count: 4, items: { length: 3 } });
    seen.push(...r.items.map((e: any) => e.target.label ?? e.target.id));
    r = await eventsNow(`?limit=3&page=${r.next.page}`);
    seen.push(...r.items.map((e: any) => e.target.label ?? e.target.id));
    expect(r.next).toBeUndefined();
    expect(seen).toEqual(['C', 'B', 'A', 'Rex Reader']);

    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?from=yesterday', 'from'],
      ['?to=2026-01-02T03:04:05', 'to'],
    ]) {
      const bad = await sb.request('GET', `${ORG}/audit-events${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await sb.request('GET', `${ORG}/audit-events/not-a-uuid`)).body.error.message).toMatch(/^auditEventId: must be a UUID$/);
    expect((await sb.request('GET', `${ORG}/audit-events/123e4567-e89b-42d3-a456-426614174000`)).status).toBe(404);
  });

  it('lists the actions it records, and is for admins only', async () => {
    const actions = (await sb.request('GET', `${ORG}/audit-event-actions`)).body.items;
    const ids = actions.map((a: any) => a.id);
    expect(ids).toContain('createTeam');
    expect(ids).toContain('joinWithInvite');
    expect(ids).not.toContain('ping');
    expect(ids).not.toContain('listTeams');
    expect(actions.find((a: any) => a.id === 'updateTeamMembers')).toEqual({
      object: 'audit-event-action',
      id: 'updateTeamMembers',
      label: 'Update team members',
    });
    for (const path of ['/audit-events', '/audit-event-actions']) {
      const r = await sb.request('GET', `${ORG}${path}`, undefined, 'create');
      expect(r.status).toBe(403);
      expect(r.body.error.message).toBe('reading the audit log needs the admin role or above; you have create');
    }
  });

  describe('a write that changes nothing records nothing, with the same answer', () => {
    const SPEC = JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} });
    const made = async (method: string, path: string, body?: unknown) => {
      const r = await sb.request(method, path, body);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const sectionsOf = async (site: string) => (await made('GET', `${site}/sections`)).items.map((x: { id: string }) => x.id);
    /**
     * What the rows act on: three spaces at the organization's root (after the collection
     * col-handbook), a site with two sections (the first with two site spaces, the second in a group)
     * and a third section outside it, an invite link to the organization and one to sp-welcome, a
     * SAML provider, an OpenAPI specification, a comment with a reply in the space and one in a
     * change request.
     */
    const world = async () => {
      const site = `${ORG}/sites/${(await made('POST', `${ORG}/sites`, { title: 'Docs', spaces: ['sp-welcome'] })).id}`;
      const spaces = [];
      for (const title of ['Guide', 'API', 'Notes']) spaces.push((await made('POST', `${ORG}/spaces`, { title })).id);
      await made('POST', `${site}/sections`, { spaceId: spaces[0], title: 'Second' });
      await made('POST', `${site}/sections`, { spaceId: spaces[1], title: 'Third' });
      const sections = await sectionsOf(site);
      const siteSpace = (await made('POST', `${site}/site-spaces`, { spaceId: spaces[2], sectionId: sections[0] })).id;
      const firstSiteSpace = (await made('GET', `${site}/sections`)).items[0].siteSpaces[0].id;
      const group = (await made('POST', `${site}/section-groups`, { title: 'Group', sections: [sections[1]] })).id;
      const link = (await made('POST', `${ORG}/link-invites`, { role: 'read' })).id;
      const spaceLink = (await made('POST', `${ORG}/link-invites`, { level: 'comment', space: 'sp-welcome' })).id;
      const saml = (await made('POST', `${ORG}/saml`, { label: 'IdP', entityID: 'https://idp.test/metadata', ssoURL: 'https://idp.test/sso' })).id;
      await made('POST', `${ORG}/openapi`, { slug: 'pets', source: { text: SPEC } });
      const comment = `/v1/spaces/sp-welcome/comments/${(await made('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: 'First' } })).id}`;
      const reply = `${comment}/replies/${(await made('POST', `${comment}/replies`, { body: { markdown: 'Reply' } })).id}`;
      const cr = `/v1/spaces/sp-welcome/change-requests/${(await made('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'Draft' })).id}`;
      const crComment = `${cr}/comments/${(await made('POST', `${cr}/comments`, { body: { markdown: 'On the change' } })).id}`;
      const crReply = `${crComment}/replies/${(await made('POST', `${crComment}/replies`, { body: { markdown: 'Reply' } })).id}`;
      return { spaces, site, sections, siteSpace, firstSiteSpace, group, link, spaceLink, saml, comment, reply, cr, crComment, crReply };
    };
    type World = Awaited<ReturnType<typeof world>>;
    /**
     * A write: its action, and its request (sent twice, by `as` if not the admin: the first changes
     * something, the second nothing). `again`: the status the second answers when it is not the
     * first's (a move of a space or collection to where it is is a 409, as it always was).
     */
    const rows: {
      action: string;
      what?: string;
      write: (w: World) => [string, string, unknown?];
      before?: (w: World) => Promise<unknown>;
      as?: string;
      again?: number;
    }[] = [
      { action: 'updateSite', write: (w) => ['PATCH', w.site, { title: 'Handbook', visibility: 'public' }] },
      { action: 'publishSite', write: (w) => ['POST', `${w.site}/publish`] },
      { action: 'unpublishSite', write: (w) => ['POST', `${w.site}/unpublish`], before: (w) => made('POST', `${w.site}/publish`) },
      { action: 'deleteSite', write: (w) => ['DELETE', w.site] },
      { action: 'updateSiteSection', write: (w) => ['PATCH', `${w.site}/sections/${w.sections[0]}`, { title: 'First', icon: 'book' }] },
      { action: 'deleteSiteSection', write: (w) => ['DELETE', `${w.site}/sections/${w.sections[2]}`] },
      { action: 'updateSiteSectionGroup', write: (w) => ['PATCH', `${w.site}/section-groups/${w.group}`, { title: 'Reference' }] },
      { action: 'deleteSiteSectionGroup', write: (w) => ['DELETE', `${w.site}/section-groups/${w.group}`] },
      { action: 'addSiteSectionToGroup', write: (w) => ['POST', `${w.site}/section-groups/${w.group}/sections`, { sectionId: w.sections[2] }] },
      { action: 'removeSiteSectionFromGroup', write: (w) => ['DELETE', `${w.site}/section-groups/${w.group}/sections/${w.sections[1]}`] },
      { action: 'updateSiteSpace', write: (w) => ['PATCH', `${w.site}/site-spaces/${w.siteSpace}`, { path: 'notes', hidden: true }] },
      { action: 'deleteSiteSpace', write: (w) => ['DELETE', `${w.site}/site-spaces/${w.siteSpace}`] },
      { action: 'updateInviteLink', write: (w) => ['PATCH', `${ORG}/link-invites/${w.link}`, { role: 'edit' }] },
      { action: 'deleteInviteLink', write: (w) => ['DELETE', `${ORG}/link-invites/${w.link}`] },
      { action: 'updateSamlProvider', write: (w) => ['PATCH', `${ORG}/saml/${w.saml}`, { label: 'Okta', defaultRole: 'edit' }] },
      { action: 'deleteSamlProvider', write: (w) => ['DELETE', `${ORG}/saml/${w.saml}`] },
      { action: 'updateOpenAPISpec', write: () => ['PATCH', `${ORG}/openapi/pets`, { visibility: 'public' }] },
      { action: 'deleteOpenAPISpec', write: () => ['DELETE', `${ORG}/openapi/pets`] },
      { action: 'updateCommentInSpace', what: 'its text', write: (w) => ['PUT', w.comment, { body: { markdown: 'Edited' } }] },
      { action: 'updateCommentInSpace', what: 'resolved, a reaction', write: (w) => ['PUT', w.comment, { resolved: true, addedReactions: ['👍'] }] },
      { action: 'deleteCommentInSpace', write: (w) => ['DELETE', w.comment] },
      { action: 'updateCommentReplyInSpace', write: (w) => ['PUT', w.reply, { body: { markdown: 'Edited reply' } }] },
      { action: 'deleteCommentReplyInSpace', write: (w) => ['DELETE', w.reply] },
      { action: 'updateCommentInChangeRequest', write: (w) => ['PUT', w.crComment, { body: { markdown: 'Edited' } }] },
      { action: 'deleteCommentInChangeRequest', write: (w) => ['DELETE', w.crComment] },
      { action: 'updateCommentReplyInChangeRequest', write: (w) => ['PUT', w.crReply, { body: { markdown: 'Edited reply' } }] },
      { action: 'deleteCommentReplyInChangeRequest', write: (w) => ['DELETE', w.crReply] },
      { action: 'updateChangeRequest', write: (w) => ['PATCH', w.cr, { subject: 'Ready', status: 'open' }] },
      {
        action: 'moveSiteSection',
        what: 'after another',
        write: (w) => ['POST', `${w.site}/sections/${w.sections[0]}/move`, { position: { after: { type: 'site-section', siteSection: w.sections[2] } } }],
      },
      { action: 'moveSiteSection', what: 'to the end', write: (w) => ['POST', `${w.site}/sections/${w.sections[0]}/move`, {}] },
      {
        action: 'moveSiteSection',
        what: 'into a group',
        write: (w) => ['POST', `${w.site}/sections/${w.sections[2]}/move`, { position: { before: { type: 'site-section', siteSection: w.sections[1] } } }],
      },
      {
        action: 'moveSiteSectionGroup',
        write: (w) => ['POST', `${w.site}/section-groups/${w.group}/move`, { position: { before: { type: 'site-section', id: w.sections[0] } } }],
      },
      {
        action: 'moveSiteSpace',
        write: (w) => ['POST', `${w.site}/site-spaces/${w.siteSpace}/move`, { position: { before: { type: 'site-space', siteSpace: w.firstSiteSpace } } }],
      },
      { action: 'moveSpace', what: 'into a collection', write: (w) => ['POST', `/v1/spaces/${w.spaces[0]}/move`, { parent: 'col-handbook' }], again: 409 },
      {
        action: 'moveSpace',
        what: 'before a sibling',
        write: (w) => ['POST', `/v1/spaces/${w.spaces[2]}/move`, { position: { before: { type: 'space', space: w.spaces[0] } } }],
        again: 409,
      },
      {
        action: 'moveCollection',
        write: (w) => ['POST', '/v1/collections/col-handbook/move', { position: { after: { type: 'space', space: w.spaces[2] } } }],
        again: 409,
      },
      {
        action: 'putAdaptiveSchema',
        write: (w) => [
          'PUT',
          `${w.site}/adaptive-schema`,
          { jsonSchema: { type: 'object', properties: { plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' } }, additionalProperties: false } },
        ],
      },
      { action: 'joinWithInvite', what: 'to the organization', write: (w) => ['POST', `${ORG}/invites/${w.link}`], as: 'outsider' },
      { action: 'joinWithInvite', what: 'to a space, as a guest', write: (w) => ['POST', `${ORG}/invites/${w.spaceLink}`], as: 'outsider' },
      {
        action: 'joinWithInvite',
        what: 'a member given a higher role',
        write: (w) => ['POST', `${ORG}/invites/${w.link}`],
        before: (w) => made('PATCH', `${ORG}/link-invites/${w.link}`, { role: 'edit' }),
        as: 'read',
      },
    ];
    /** The sandbox's clock moves on between the two requests: a time of the last change that moved would show. */
    const tick = () =>
      sb.server.app.handle({ method: 'POST', url: '/_sandbox/clock', headers: { authorization: `Bearer ${sb.token('admin')}` }, body: '{"advance":"1m"}' });
    const ids = async () => (await eventsNow('?limit=100')).items.map((e: any) => e.id);

    it.each(rows.map((row) => ({ ...row, name: row.what ? `${row.action} (${row.what})` : row.action })))(
      '$name: recorded once, then the same write again is not',
      async ({ action, write, before, as, again: status }) => {
        const w = await world();
        await before?.(w);
        const [method, path, body] = write(w);
        const start = await ids();
        const first = await sb.request(method, path, body, as);
        expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
        const after = (await eventsNow('?limit=100')).items;
        expect(after.length - start.length).toBe(1);
        expect(after[0].action).toBe(action);
        const state = (await sb.request('GET', '/_sandbox/state')).body;
        await tick();
        const again = await sb.request(method, path, body, as);
        if (status === undefined) expect(again).toEqual(first);
        else expect(again.status, JSON.stringify(again.body)).toBe(status);
        expect(await ids()).toEqual(after.map((e: any) => e.id));
        // Nothing else moved either (the clock aside).
        const now = (await sb.request('GET', '/_sandbox/state')).body;
        expect({ ...now, clockOffset: 0 }).toEqual({ ...state, clockOffset: 0 });
      },
    );

    it('an empty update changes nothing: no event', async () => {
      const w = await world();
      const start = await ids();
      for (const path of [w.site, `${w.site}/sections/${w.sections[0]}`, `${w.site}/section-groups/${w.group}`, `${ORG}/saml/${w.saml}`, w.cr]) {
        expect((await sb.request('PATCH', path, {})).status, path).toBe(200);
      }
      expect((await sb.request('PUT', w.comment, {})).status).toBe(200);
      expect(await ids()).toEqual(start);
    });

    it('what is there from the start: a join below the role held, the empty adaptive schema of a new site', async () => {
      const w = await world();
      const start = await ids();
      // An admin joins with a link for readers: they keep the higher role.
      expect(await sb.request('POST', `${ORG}/invites/${w.link}`, undefined, 'admin')).toEqual({ status: 200, body: {} });
      expect((await made('GET', `${ORG}/members/u-admin`)).role).toBe('admin');
      const schema = (await made('GET', `${w.site}/adaptive-schema`)) as { jsonSchema: unknown; updatedAt: string };
      await tick();
      const put = await sb.request('PUT', `${w.site}/adaptive-schema`, { jsonSchema: schema.jsonSchema });
      expect(put).toEqual({ status: 200, body: schema });
      expect(await ids()).toEqual(start);
    });

    it('a put of the same OpenAPI document is recorded: it is processed again and adds a version', async () => {
      await made('PUT', `${ORG}/openapi/pets`, { source: { text: SPEC } });
      const processed = async () => {
        for (let i = 0; i < 1000; i++) {
          const spec = await made('GET', `${ORG}/openapi/pets`);
          if (spec.processingState === 'complete') return;
          await new Promise((r) => setTimeout(r, 5));
        }
        throw new Error('the specification was not processed');
      };
      await processed();
      const again = await sb.request('PUT', `${ORG}/openapi/pets`, { source: { text: SPEC } });
      expect(again.status).toBe(200);
      await processed();
      expect((await made('GET', `${ORG}/openapi/pets/versions`)).items).toHaveLength(2);
      expect((await eventsNow()).items.map((e: any) => e.action)).toEqual(['putOpenAPISpec', 'putOpenAPISpec']);
    });
  });

  describe('with a lowered bound', () => {
    const saved = LIMITS.audit.maxEvents;
    afterEach(() => {
      LIMITS.audit.maxEvents = saved;
    });
    it('keeps the newest events only', async () => {
      LIMITS.audit.maxEvents = 3;
      for (const title of ['A', 'B', 'C', 'D', 'E']) await sb.request('PATCH', TEAM, { title });
      expect((await eventsNow()).items.map((e: any) => e.target.label)).toEqual(['E', 'D', 'C']);
    });
  });
});

describe('serve --data keeps teams, links and the audit log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-access-'));
  const open: RunningServer[] = [];
  afterAll(async () => {
    for (const s of open) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (file: string) => {
    const s = await startServer({ data: file, notice: () => undefined });
    open.push(s);
    return s;
  };
  // Over the socket: what `serve` commits after each write (app.handle alone saves nothing).
  const call = async (s: RunningServer, method: string, url: string, body?: unknown, as = 'u-admin') => {
    const token = s.users.find((u) => u.id === as)!.token;
    const res = await request(`${s.url}${url}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };

  it('across a restart', async () => {
    const file = join(dir, 'state.db');
    let s = await start(file);
    const team = (await call(s, 'PUT', `${ORG}/teams`, { title: 'Kept', members: ['u-read'] })).body;
    await call(s, 'PUT', `${ORG}/teams/${team.id}/members/u-edit`, { role: 'owner' });
    const link = (await call(s, 'POST', `${ORG}/link-invites`, { role: 'comment' })).body;
    await call(s, 'POST', `${ORG}/invites/${link.id}`, undefined, 'u-outsider');
    const events = (await call(s, 'GET', `${ORG}/audit-events`)).body;
    expect(events.count).toBe(4);
    await s.close();
    open.splice(open.indexOf(s), 1);

    s = await start(file);
    expect((await call(s, 'GET', `${ORG}/teams/${team.id}/members`)).body.items.map((m: any) => [m.organization.id, m.team.role])).toEqual([
      ['u-read', 'member'],
      ['u-edit', 'owner'],
    ]);
    expect((await call(s, 'GET', `${ORG}/link-invites/${link.id}`)).body).toMatchObject({ role: 'comment' });
    expect((await call(s, 'GET', `${ORG}/members/u-outsider`)).body.role).toBe('comment');
    // The same events (their URLs name the new port).
    const withoutUrls = (list: any) => list.items.map(({ urls: _, ...e }: any) => e);
    expect(withoutUrls((await call(s, 'GET', `${ORG}/audit-events`)).body)).toEqual(withoutUrls(events));
  });
});
