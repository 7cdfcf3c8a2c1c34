/**
 * Permission grants, enforced on the existing routes (docs/access.md, Permissions): a guest given a
 * role on a space reaches exactly that space, its content, change requests and comments; grants
 * taken away, a team's grants once the team is gone, a removed member's grants all stop; default
 * levels `inherit`, a role and `null`; the documented precedence; the aggregate and `members spaces`
 * agree with what the routes allow.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const SPACE = 'sp-welcome';
const COLLECTION = 'col-handbook';
const TEAM = 'team-writers'; // u-edit (owner), u-comment

const status = async (method: string, path: string, who: string, body?: unknown) => (await sb.request(method, path, body, who)).status;
const invite = (target: string, body: unknown) => sb.request('POST', `${target}/permissions`, body);
/** What `who` can do on the space: view it, edit it, comment on it. */
async function can(who: string, space = SPACE) {
  return {
    view: (await status('GET', `/v1/spaces/${space}`, who)) === 200,
    edit: (await status('PATCH', `/v1/spaces/${space}`, who, { title: 'Edited' })) === 200,
    comment: (await status('POST', `/v1/spaces/${space}/comments`, who, { body: { markdown: 'Hi' } })) === 201,
  };
}
const NONE = { view: false, edit: false, comment: false };
const READ = { view: true, edit: false, comment: false };
const COMMENT = { view: true, edit: false, comment: true };
const EDIT = { view: true, edit: true, comment: true };

async function aggregate(path: string): Promise<Record<string, string>> {
  const r = await sb.request('GET', `${path}/permissions/aggregate?limit=1000`);
  expect(r.status).toBe(200);
  return Object.fromEntries(r.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]));
}

describe('a guest invited to a space', () => {
  it('reads that space, its content, change requests and comments, and nothing else; edit lets them edit; removal ends it', async () => {
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body.id;
    const cr = (await sb.request('POST', `/v1/spaces/${SPACE}/change-requests`, { subject: 'A change' }, 'edit')).body;
    const comment = (await sb.request('POST', `/v1/spaces/${SPACE}/comments`, { body: { markdown: 'Note' } }, 'comment')).body;
    expect(await can('guest')).toEqual(NONE);

    expect((await invite(`/v1/spaces/${SPACE}`, { role: 'read', users: ['u-guest'] })).status).toBe(204);
    for (const path of [
      `/v1/spaces/${SPACE}`,
      `/v1/spaces/${SPACE}/content`,
      `/v1/spaces/${SPACE}/content/pages`,
      `/v1/spaces/${SPACE}/change-requests`,
      `/v1/spaces/${SPACE}/change-requests/${cr.id}`,
      `/v1/spaces/${SPACE}/comments`,
      `/v1/spaces/${SPACE}/comments/${comment.id}`,
    ]) {
      expect(await status('GET', path, 'guest'), path).toBe(200);
    }
    expect(await can('guest')).toEqual(READ);
    expect(await status('PATCH', `/v1/spaces/${SPACE}/change-requests/${cr.id}`, 'guest', { subject: 'Mine' })).toBe(403);
    // nothing else: not the collection, not another space, not the organization's member list
    expect(await can('guest', other)).toEqual(NONE);
    expect(await status('GET', `/v1/collections/${COLLECTION}`, 'guest')).toBe(403);
    expect(await status('GET', '/v1/orgs/org-acme/members', 'guest')).toBe(403);
    const listed = await sb.request('GET', '/v1/orgs/org-acme/spaces', undefined, 'guest');
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([SPACE]);
    expect(listed.body.items[0].permissions).toMatchObject({ view: true, edit: false, comment: false });

    expect((await sb.request('PATCH', `/v1/spaces/${SPACE}/permissions/users/u-guest`, { role: 'edit' })).status).toBe(204);
    expect(await can('guest')).toEqual(EDIT);
    expect(await status('PATCH', `/v1/spaces/${SPACE}/change-requests/${cr.id}`, 'guest', { subject: 'Mine' })).toBe(200);
    expect(await sb.json(['members', 'spaces', 'u-guest'])).toMatchObject([{ permission: 'edit', space: { id: SPACE } }]);

    expect((await sb.request('DELETE', `/v1/spaces/${SPACE}/permissions/users/u-guest`)).status).toBe(205);
    expect((await sb.request('DELETE', `/v1/spaces/${SPACE}/permissions/users/u-guest`)).status).toBe(204);
    expect(await can('guest')).toEqual(NONE);
    expect(await sb.json(['members', 'spaces', 'u-guest'])).toEqual([]);
  });

  it('a user from outside the organization joins it as a guest, reaching only what they were given', async () => {
    expect(await status('GET', `/v1/spaces/${SPACE}`, 'outsider')).toBe(404);
    expect((await invite(`/v1/spaces/${SPACE}`, { role: 'comment', users: ['u-outsider'] })).status).toBe(204);
    expect(await can('outsider')).toEqual(COMMENT);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-outsider')).body).toMatchObject({ role: null });
  });
});

describe('teams', () => {
  it('a team’s grant reaches its members, and stops when the team is gone', async () => {
    expect(await can('comment')).toEqual(COMMENT);
    expect((await invite(`/v1/spaces/${SPACE}`, { role: 'edit', teams: [TEAM] })).status).toBe(204);
    expect(await can('comment')).toEqual(EDIT);
    expect((await sb.request('GET', `/v1/spaces/${SPACE}/permissions/teams`)).body.items).toMatchObject([{ permission: 'edit', team: { id: TEAM } }]);
    // The team deleted (as its own operation does: the record goes).
    sb.server.store.data.teams.delete(TEAM);
    sb.server.store.changed();
    expect(await can('comment')).toEqual(COMMENT);
    expect((await sb.request('GET', `/v1/spaces/${SPACE}/permissions/teams`)).body.items).toEqual([]);
  });

  it('a user’s and their teams’ grants on one level: the highest', async () => {
    await invite(`/v1/spaces/${SPACE}`, { role: 'read', users: ['u-comment'] });
    await invite(`/v1/spaces/${SPACE}`, { role: 'edit', teams: [TEAM] });
    expect(await can('comment')).toEqual(EDIT);
    await sb.request('PATCH', `/v1/spaces/${SPACE}/permissions/teams/${TEAM}`, { role: 'read' });
    expect(await can('comment')).toEqual(READ);
  });
});

describe('removing a member from the organization', () => {
  it('removes their grants, also when they come back', async () => {
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: null });
    await invite(`/v1/spaces/${SPACE}`, { role: 'edit', users: ['u-read'] });
    expect(await can('read')).toEqual(EDIT);
    expect((await sb.request('DELETE', '/v1/orgs/org-acme/members/u-read')).status).toBe(204);
    // back as a guest, invited elsewhere: the old grant gives nothing
    const other = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Other' })).body.id;
    await invite(`/v1/spaces/${other}`, { role: 'read', users: ['u-read'] });
    expect(await can('read')).toEqual(NONE);
    expect((await sb.request('GET', `/v1/spaces/${SPACE}/permissions/users`)).body.items).toEqual([]);
  });
});

describe('default levels', () => {
  it('inherit takes the container’s, a role is every non-admin’s (lower too), null leaves only admins and grants', async () => {
    expect((await sb.request('GET', `/v1/spaces/${SPACE}`)).body.defaultLevel).toBe('inherit');
    expect(await can('edit')).toEqual(EDIT);
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: 'read' });
    expect(await can('edit')).toEqual(READ);
    expect(await can('guest')).toEqual(NONE);
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: null });
    expect(await can('edit')).toEqual(NONE);
    expect(await can('create')).toEqual(NONE);
    expect(await can('admin')).toEqual(EDIT);
    expect(await aggregate(`/v1/spaces/${SPACE}`)).toEqual({ 'u-admin': 'admin' });
    // The space's own level wins over its collection's.
    await sb.request('PATCH', `/v1/spaces/${SPACE}`, { defaultLevel: 'comment' });
    expect(await can('read')).toEqual(COMMENT);
    expect(await can('guest')).toEqual(NONE);
    await sb.request('PATCH', `/v1/spaces/${SPACE}`, { defaultLevel: 'inherit' });
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: 'inherit' });
    expect(await can('read')).toEqual(READ);
  });
});

describe('precedence', () => {
  it('a grant on the space, then the site showing it, then the collection chain, then the organization', async () => {
    // the collection: a grant there wins over its default level
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: 'read' });
    await invite(`/v1/collections/${COLLECTION}`, { role: 'edit', users: ['u-comment'] });
    expect(await can('comment')).toEqual(EDIT);
    // a site showing the space wins over the collection
    const site = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Docs', spaces: [SPACE] })).body.id;
    await invite(`/v1/orgs/org-acme/sites/${site}`, { role: 'comment', users: ['u-comment'] });
    expect(await can('comment')).toEqual(COMMENT);
    // a grant on the space wins over everything, lower or higher
    await invite(`/v1/spaces/${SPACE}`, { role: 'read', users: ['u-comment'] });
    expect(await can('comment')).toEqual(READ);
    // the space's own default level stops what comes from above (the site's and the collection's grants)
    await sb.request('DELETE', `/v1/spaces/${SPACE}/permissions/users/u-comment`);
    await sb.request('PATCH', `/v1/spaces/${SPACE}`, { defaultLevel: 'read' });
    expect(await can('comment')).toEqual(READ);
    // admins always
    await invite(`/v1/spaces/${SPACE}`, { role: 'read', users: ['u-admin'] });
    expect(await can('admin')).toEqual(EDIT);
  });

  it('the aggregate, `members spaces` and every answer’s permissions agree with what the routes allow', async () => {
    await sb.request('PATCH', `/v1/collections/${COLLECTION}`, { defaultLevel: 'comment' });
    await invite(`/v1/spaces/${SPACE}`, { role: 'edit', users: ['u-guest', 'u-read'] });
    const agg = await aggregate(`/v1/spaces/${SPACE}`);
    expect(agg).toEqual({
      'u-admin': 'admin',
      'u-create': 'comment',
      'u-review': 'comment',
      'u-edit': 'comment',
      'u-comment': 'comment',
      'u-read': 'edit',
      'u-guest': 'edit',
    });
    for (const who of ['admin', 'create', 'edit', 'comment', 'read', 'guest']) {
      const role = agg[`u-${who}`];
      const got = await sb.request('GET', `/v1/spaces/${SPACE}`, undefined, who);
      expect(got.body.permissions, who).toMatchObject({ view: true, edit: role === 'edit' || role === 'admin', comment: true });
      const spaces = await sb.json(['members', 'spaces', `u-${who}`]);
      expect(spaces.find((s: { space: { id: string } }) => s.space.id === SPACE)?.permission, who).toBe(role);
    }
    expect(await aggregate(`/v1/collections/${COLLECTION}`)).toMatchObject({ 'u-read': 'comment', 'u-edit': 'comment' });
    expect((await sb.request('GET', `/v1/spaces/${SPACE}/permissions/aggregate?role=edit`)).body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual(
      ['u-read', 'u-guest'],
    );
  });
});

describe('bad input', () => {
  it('names the field and changes nothing', async () => {
    const none = await invite(`/v1/spaces/${SPACE}`, { role: 'read' });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/users/);
    const unknown = await invite(`/v1/spaces/${SPACE}`, { role: 'read', users: ['u-guest', 'u-nobody'] });
    expect(unknown).toMatchObject({ status: 404, body: { error: { message: 'users[1]: no user u-nobody' } } });
    expect(await can('guest')).toEqual(NONE);
    expect((await invite(`/v1/spaces/${SPACE}`, { role: 'owner', users: ['u-guest'] })).status).toBe(400);
    expect((await sb.request('PATCH', `/v1/spaces/${SPACE}/permissions/teams/team-nope`, { role: 'read' })).status).toBe(404);
    // changing grants needs the admin role on the content
    const r = await sb.request('POST', `/v1/spaces/${SPACE}/permissions`, { role: 'admin', users: ['u-edit'] }, 'create');
    expect(r.status).toBe(403);
    expect(await can('guest')).toEqual(NONE);
  });
});
