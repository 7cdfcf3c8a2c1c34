/**
 * `docsctl access who` and `docsctl access of` against the sandbox: every reason (admin, organization
 * role, a default level of the space, its collection or a site, a team's grant, a direct grant, a
 * guest invitation), set up through the HTTP API, with the service's aggregate agreeing (no warning).
 * The default seed: org-acme with one member per role (u-<role>, <role>@acme.test) and a guest,
 * team-writers (Ed Editor, Cora Commenter), col-handbook holding sp-welcome.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

/** What every row says of where the role comes from. */
interface Source {
  role: string;
  reason: string;
  sourceKind?: string;
  sourceId?: string;
  team?: string;
  why: string;
}
interface WhoRow extends Source {
  id: string;
  name: string;
  email?: string;
  orgRole: string;
}
interface OfRow extends Source {
  kind: string;
  id: string;
  title: string;
}

async function ok(path: string, method: string, body: unknown): Promise<void> {
  const r = await sb.request(method, path, body);
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
}

/** `access …` in JSON, with nothing on stderr but what a run prints anyway (no difference with the service's aggregate). */
async function audit<T>(args: string[]): Promise<T[]> {
  const r = await sb.run(['access', ...args, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).not.toMatch(/warning/);
  return JSON.parse(r.stdout) as T[];
}
const brief = (rows: WhoRow[]) => Object.fromEntries(rows.map((r) => [r.id, `${r.role} ${r.reason}`]));

describe('access who', () => {
  it('with everything inheriting: the admin as admin, every member by their organization role, not the guest', async () => {
    const rows = await audit<WhoRow>(['who', '--space', 'sp-welcome']);
    expect(brief(rows)).toEqual({
      'u-admin': 'admin admin',
      'u-create': 'create organization',
      'u-review': 'review organization',
      'u-edit': 'edit organization',
      'u-comment': 'comment organization',
      'u-read': 'read organization',
    });
    expect(rows.map((r) => r.id)).toEqual(['u-admin', 'u-create', 'u-review', 'u-edit', 'u-comment', 'u-read']);
    expect(rows[1]).toEqual({
      id: 'u-create',
      name: 'Carl Creator',
      email: 'create@acme.test',
      orgRole: 'create',
      role: 'create',
      reason: 'organization',
      why: 'organization role create',
    });
  });

  it("the collection's default level, a team's grant naming the team, a direct grant, a guest's invitation", async () => {
    await ok('/v1/collections/col-handbook', 'PATCH', { defaultLevel: 'read' });
    await ok('/v1/spaces/sp-welcome/permissions', 'POST', { role: 'review', teams: ['team-writers'] });
    await ok('/v1/spaces/sp-welcome/permissions', 'POST', { role: 'edit', users: ['u-read'] });
    await ok('/v1/spaces/sp-welcome/permissions', 'POST', { role: 'comment', users: ['u-guest'] });
    const rows = await audit<WhoRow>(['who', '--space', 'sp-welcome']);
    expect(brief(rows)).toEqual({
      'u-admin': 'admin admin',
      'u-create': 'read default',
      'u-review': 'read default',
      'u-edit': 'review team',
      'u-comment': 'review team',
      'u-read': 'edit direct',
      'u-guest': 'comment guest',
    });
    const by = (id: string) => rows.find((r) => r.id === id)!;
    expect(by('u-create')).toMatchObject({ sourceKind: 'collection', sourceId: 'col-handbook', why: 'default level of collection Handbook (col-handbook)' });
    expect(by('u-edit')).toMatchObject({
      sourceKind: 'space',
      sourceId: 'sp-welcome',
      team: 'team-writers',
      why: 'team Writers (team-writers) on space Welcome (sp-welcome)',
    });
    expect(by('u-read').why).toBe('direct grant on space Welcome (sp-welcome)');
    expect(by('u-guest')).toMatchObject({ orgRole: 'guest', why: 'guest invited to space Welcome (sp-welcome)' });

    // The collection itself, found by its bare id; its level is its own.
    const col = await audit<WhoRow>(['who', 'col-handbook']);
    expect(brief(col)).toEqual({
      'u-admin': 'admin admin',
      'u-create': 'read default',
      'u-review': 'read default',
      'u-edit': 'read default',
      'u-comment': 'read default',
      'u-read': 'read default',
    });

    // The table: the columns named, a row per person.
    const table = await sb.run(['access', 'who', '--space', 'sp-welcome']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout.split('\n').filter(Boolean)).toContain(
      'u-edit\tEd Editor\tedit@acme.test\treview\tteam\tteam Writers (team-writers) on space Welcome (sp-welcome)',
    );
    const guests = await sb.run(['access', 'who', '--space', 'sp-welcome', '--jq', '[.[] | select(.reason == "guest") | {id, role}]']);
    expect(JSON.parse(guests.stdout)).toEqual([{ id: 'u-guest', role: 'comment' }]);
    const fields = await sb.run(['access', 'who', '--space', 'sp-welcome', '--fields', 'id,team']);
    expect(fields.stdout.split('\n')).toContain('u-comment\tteam-writers');
  });

  it("a space's own level; no access (null) leaves only the admin and the grants", async () => {
    await ok('/v1/spaces/sp-welcome', 'PATCH', { defaultLevel: null });
    await ok('/v1/spaces/sp-welcome/permissions', 'POST', { role: 'comment', users: ['u-create'] });
    expect(brief(await audit<WhoRow>(['who', 'sp-welcome']))).toEqual({ 'u-admin': 'admin admin', 'u-create': 'comment direct' });
    await ok('/v1/spaces/sp-welcome', 'PATCH', { defaultLevel: 'comment' });
    const rows = await audit<WhoRow>(['who', '--space', 'sp-welcome']);
    expect(rows.find((r) => r.id === 'u-read')).toMatchObject({
      role: 'comment',
      reason: 'default',
      sourceKind: 'space',
      why: 'default level of space Welcome (sp-welcome)',
    });
  });

  it("a site: its default level, a team's grant on it, and what it gives the spaces it shows", async () => {
    const site = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Docs' })).body as { id: string };
    await ok(`/v1/orgs/org-acme/sites/${site.id}/site-spaces`, 'POST', { spaceId: 'sp-welcome' });
    await ok(`/v1/orgs/org-acme/sites/${site.id}`, 'PATCH', { defaultLevel: 'comment' });
    await ok(`/v1/orgs/org-acme/sites/${site.id}/permissions`, 'POST', { role: 'edit', teams: ['team-writers'] });
    const rows = await audit<WhoRow>(['who', '--site', site.id]);
    expect(brief(rows)).toMatchObject({ 'u-admin': 'admin admin', 'u-create': 'comment default', 'u-edit': 'edit team', 'u-read': 'comment default' });
    // The space inherits: the site takes precedence over the collection chain and the organization role.
    const space = await audit<WhoRow>(['who', '--space', 'sp-welcome']);
    expect(space.find((r) => r.id === 'u-create')).toMatchObject({ role: 'comment', reason: 'default', sourceKind: 'site', sourceId: site.id });
    expect(space.find((r) => r.id === 'u-comment')).toMatchObject({ role: 'edit', reason: 'team', sourceKind: 'site', team: 'team-writers' });
  });

  it('says what is wrong with the target: none or two (exit 2), an id that is nothing (exit 4)', async () => {
    const none = await sb.run(['access', 'who']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/name one target: --space ID, --collection ID, --site ID/);
    const two = await sb.run(['access', 'who', 'sp-welcome', '--collection', 'col-handbook']);
    expect(two.exitCode).toBe(2);
    const missing = await sb.run(['access', 'who', 'nothing-here']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/no space, collection or site nothing-here/);
    const space = await sb.run(['access', 'who', '--space', 'nothing-here']);
    expect(space.exitCode).toBe(4);
    expect(space.stderr).toMatch(/no space nothing-here/);
    const conc = await sb.run(['access', 'who', 'sp-welcome', '--concurrency', '0']);
    expect(conc.exitCode).toBe(2);
    expect(conc.stderr).toMatch(/--concurrency: must be a whole number from 1 to 64/);
  });
});

describe('access of', () => {
  it('every collection, space and site a member reaches, with the reason, by id or by email', async () => {
    const site = (await sb.request('POST', '/v1/orgs/org-acme/sites', { title: 'Docs' })).body as { id: string };
    await ok(`/v1/orgs/org-acme/sites/${site.id}`, 'PATCH', { defaultLevel: 'read' });
    await ok('/v1/collections/col-handbook/permissions', 'POST', { role: 'review', teams: ['team-writers'] });
    const rows = await audit<OfRow>(['of', 'u-comment']);
    expect(rows.map((r) => `${r.kind} ${r.id} ${r.role} ${r.reason}`)).toEqual([
      'collection col-handbook review team',
      'space sp-welcome review team',
      `site ${site.id} read default`,
    ]);
    expect(rows[1].why).toBe('team Writers (team-writers) on collection Handbook (col-handbook)');
    expect(await audit<OfRow>(['of', 'READ@acme.test'])).toEqual([
      { kind: 'collection', id: 'col-handbook', title: 'Handbook', role: 'read', reason: 'organization', why: 'organization role read' },
      { kind: 'space', id: 'sp-welcome', title: 'Welcome', role: 'read', reason: 'organization', why: 'organization role read' },
      {
        kind: 'site',
        id: site.id,
        title: 'Docs',
        role: 'read',
        reason: 'default',
        sourceKind: 'site',
        sourceId: site.id,
        why: `default level of site Docs (${site.id})`,
      },
    ]);
    const admin = await audit<OfRow>(['of', 'u-admin']);
    expect(admin.map((r) => `${r.kind} ${r.role} ${r.reason}`)).toEqual(['collection admin admin', 'space admin admin', 'site admin admin']);
  });

  it('a guest: only what they were invited to; someone who is not a member: exit 4', async () => {
    expect(await audit<OfRow>(['of', 'u-guest'])).toEqual([]);
    await ok('/v1/spaces/sp-welcome/permissions', 'POST', { role: 'read', users: ['u-guest'] });
    expect(await audit<OfRow>(['of', 'guest@acme.test'])).toEqual([
      {
        kind: 'space',
        id: 'sp-welcome',
        title: 'Welcome',
        role: 'read',
        reason: 'guest',
        sourceKind: 'space',
        sourceId: 'sp-welcome',
        why: 'guest invited to space Welcome (sp-welcome)',
      },
    ]);
    const r = await sb.run(['access', 'of', 'olga@globex.test']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/no member olga@globex.test in organization org-acme/);
  });
});
