/**
 * The access commands against the sandbox, as a user runs them: teams and their members, invitations
 * and invite links, the audit log, and permissions on spaces, collections and sites. Bad input is
 * exit 2 naming the flag or argument with nothing sent; removals ask first (refused off a terminal
 * without --yes), naming who loses what.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

const teamIds = async () => (await sb.request('GET', '/v1/orgs/org-acme/teams')).body.items.map((t: { id: string }) => t.id);
const memberIds = async () => (await sb.request('GET', '/v1/orgs/org-acme/members?limit=100')).body.items.map((m: { id: string }) => m.id);
const teamMembers = async (team: string) =>
  (await sb.request('GET', `/v1/orgs/org-acme/teams/${team}/members`)).body.items.map((m: { organization: { id: string }; team: { role: string } }) => [
    m.organization.id,
    m.team.role,
  ]);

describe('teams', () => {
  it('creates, gets, renames, lists and deletes a team; delete asks first, naming who loses what', async () => {
    const team = await sb.json(['teams', 'create', '--title', 'Support', '--member', 'u-read,u-review']);
    expect(team).toMatchObject({ object: 'team', title: 'Support', members: 2 });
    expect((await sb.run(['teams', 'get', team.id, '--fields', 'title,members'])).stdout).toBe('title\tSupport\nmembers\t2');
    expect(await sb.json(['teams', 'update', team.id, '--title', 'Customer support'])).toMatchObject({ title: 'Customer support' });
    const listed = await sb.run(['teams', 'list', '--title', 'CUSTOMER']);
    expect(listed.stdout.split('\t').slice(0, 4)).toEqual([team.id, 'Customer support', '2', '0']);
    expect((await sb.json(['teams', 'list', '--owner', 'u-edit'])).map((t: { id: string }) => t.id)).toEqual(['team-writers']);

    const refused = await sb.run(['teams', 'delete', team.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`Delete team "Customer support" (${team.id})? Its 2 members lose what the team was granted`);
    expect(refused.stderr).toContain('pass --yes');
    expect(await teamIds()).toContain(team.id);

    const done = await sb.run(['teams', 'delete', team.id, '--yes']);
    expect(done).toMatchObject({ exitCode: 0, stdout: '' });
    expect(done.stderr).toContain(`deleted team "Customer support" (${team.id})`);
    expect(await teamIds()).not.toContain(team.id);
    // Gone: said, nothing sent (the service would answer 204 all the same).
    const again = await sb.run(['teams', 'delete', team.id, '--yes']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('is not there');
    expect((await sb.run(['teams', 'get', team.id])).exitCode).toBe(4);
  });

  it('bad input is exit 2 naming the flag, nothing created; a non-admin is refused (5)', async () => {
    const before = await teamIds();
    const long = await sb.run(['teams', 'create', '--title', 'x'.repeat(65)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toMatch(/--title: .*64/);
    const missing = await sb.run(['teams', 'create']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('missing --title');
    expect((await sb.run(['teams', 'update', 'team-writers'])).stderr).toContain('--title: is required');
    expect((await sb.run(['teams', 'create', '--title', 'Mine'], { as: 'edit' })).exitCode).toBe(5);
    expect(await teamIds()).toEqual(before);
  });

  it('members: list; add and remove many at once by id or email, through the bulk operation', async () => {
    const list = await sb.run(['teams', 'members', 'list', 'team-writers']);
    expect(list.stdout.split('\n').map((l) => l.split('\t'))).toEqual([
      ['u-edit', 'Ed Editor', 'edit@acme.test', 'owner', 'edit'],
      ['u-comment', 'Cora Commenter', 'comment@acme.test', 'member', 'comment'],
    ]);

    const add = await sb.run(['teams', 'members', 'add', 'team-writers', 'u-read', 'review@acme.test']);
    expect(add).toMatchObject({ exitCode: 0, stdout: '' });
    expect(add.stderr).toContain('added 2 members to team team-writers: u-read, review@acme.test');
    expect(await teamMembers('team-writers')).toEqual(
      expect.arrayContaining([
        ['u-read', 'member'],
        ['u-review', 'member'],
      ]),
    );
    await sb.run(['teams', 'members', 'add', 'team-writers', 'u-read', '--role', 'owner']);
    expect(await teamMembers('team-writers')).toContainEqual(['u-read', 'owner']);

    // One of them not in the organization: the service refuses them all.
    const bad = await sb.run(['teams', 'members', 'add', 'team-writers', 'u-create', 'nobody@acme.test']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('nobody@acme.test');
    expect((await teamMembers('team-writers')).map(([id]: string[]) => id)).not.toContain('u-create');

    const refused = await sb.run(['teams', 'members', 'remove', 'team-writers', 'u-read', 'review@acme.test']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('Remove 2 members (u-read, review@acme.test) from team "Writers" (team-writers)? They lose what the team was granted');
    expect(await teamMembers('team-writers')).toHaveLength(4);
    const removed = await sb.run(['teams', 'members', 'rm', 'team-writers', 'u-read', 'review@acme.test', '--yes']);
    expect(removed.exitCode).toBe(0);
    expect((await teamMembers('team-writers')).map(([id]: string[]) => id)).toEqual(['u-edit', 'u-comment']);

    const none = await sb.run(['teams', 'members', 'add', 'team-writers']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('missing argument <user>');
    const blank = await sb.run(['teams', 'members', 'add', 'team-writers', 'u-read', ' ']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('<user>: must not be empty');
    // One argument too many for a command whose last argument takes one value.
    expect((await sb.run(['teams', 'get', 'team-writers', 'extra'])).exitCode).toBe(2);
    const role = await sb.run(['teams', 'members', 'add', 'team-writers', 'u-read', '--role', 'boss']);
    expect(role.exitCode).toBe(2);
    expect(role.stderr).toContain('--role');
  });

  it('members by email with --role: the role is given, memberships naming them by user id (the official document takes emails in add only)', async () => {
    // What the CLI sends, seen on its way into the sandbox.
    const app = sb.server.app;
    const handle = app.handle;
    const sent: unknown[] = [];
    app.handle = (req) => {
      if (req.method === 'PUT' && req.url.endsWith('/teams/team-writers/members')) sent.push(JSON.parse(String(req.body)));
      return handle.call(app, req);
    };
    try {
      const add = await sb.run(['teams', 'members', 'add', 'team-writers', 'READ@acme.test', 'u-review', '--role', 'owner']);
      expect(add.exitCode, add.stderr).toBe(0);
      expect(add.stderr).toContain('added 2 members to team team-writers as owner: READ@acme.test, u-review');
      expect(sent).toEqual([{ add: ['READ@acme.test', 'u-review'], memberships: { 'u-read': { role: 'owner' }, 'u-review': { role: 'owner' } } }]);
      expect(await teamMembers('team-writers')).toEqual(
        expect.arrayContaining([
          ['u-read', 'owner'],
          ['u-review', 'owner'],
        ]),
      );
      // An email that is no member's: exit 4 naming it, nothing sent.
      const none = await sb.run(['teams', 'members', 'add', 'team-writers', 'nobody@acme.test', '--role', 'owner']);
      expect(none.exitCode).toBe(4);
      expect(none.stderr).toContain('<user>: no member with email nobody@acme.test in organization org-acme');
      expect(sent).toHaveLength(1);
    } finally {
      app.handle = handle;
    }
  });

  it('team owners manage their team’s members (the sandbox’s rule), others are refused', async () => {
    expect((await sb.run(['teams', 'members', 'add', 'team-writers', 'u-read'], { as: 'edit' })).exitCode).toBe(0);
    expect((await sb.run(['teams', 'members', 'remove', 'team-writers', 'u-read', '--yes'], { as: 'comment' })).exitCode).toBe(5);
  });
});

describe('invites', () => {
  it('invites people by email, many at once, with a role; a bad address is exit 2 naming it, nothing sent', async () => {
    const before = await memberIds();
    const bad = await sb.run(['invites', 'create', 'ann@example.com', 'not-an-address', '--role', 'edit']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('<email>');
    expect(bad.stderr).toContain('email address');
    expect(await memberIds()).toEqual(before);

    const answer = await sb.json(['invites', 'create', 'ann@example.com', 'bob@example.com', '--role', 'comment']);
    expect(answer).toMatchObject({ invited: 2 });
    expect(answer.users).toHaveLength(2);
    const members = await sb.json(['members', 'list', '--search', 'example.com']);
    expect(members.map((m: { role: string }) => m.role)).toEqual(['comment', 'comment']);
    const tsv = await sb.run(['invites', 'create', 'cid@example.com', '--role', 'guest']);
    expect(tsv.stdout.split('\n')[0]).toBe('invited\t1');
    expect(tsv.stderr).toContain('invited 1 person to org-acme');
  });

  it('invite links: create, list, get, update, delete; someone outside joins with one', async () => {
    const link = await sb.json(['invites', 'links', 'create', '--role', 'read']);
    expect(link).toMatchObject({ object: 'invite', role: 'read' });
    const rows = (await sb.run(['invites', 'links', 'list'])).stdout.split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([[link.id, 'organization', 'read', expect.stringMatching(/^(true|false)$/)]]);
    const onSpace = await sb.json(['invites', 'links', 'create', '--space', 'sp-welcome', '--level', 'comment']);
    expect(onSpace).toMatchObject({ level: 'comment', space: { id: 'sp-welcome' } });
    expect((await sb.run(['invites', 'links', 'get', onSpace.id, '--fields', 'target,role'])).stdout).toBe('target\tspace:sp-welcome\nrole\tcomment');
    expect((await sb.run(['invites', 'links', 'get', link.id, '--fields', 'target,role'])).stdout).toBe('target\torganization\nrole\tread');
    expect(await sb.json(['invites', 'links', 'update', link.id, '--role', 'edit'])).toMatchObject({ role: 'edit' });

    const joined = await sb.run(['invites', 'join', link.id, '--org', 'org-acme'], { as: 'outsider' });
    expect(joined.exitCode).toBe(0);
    expect(joined.stderr).toContain(`joined org-acme with invite link ${link.id}`);
    expect((await sb.request('GET', '/v1/orgs/org-acme/members/u-outsider')).body).toMatchObject({ role: 'edit' });

    const refused = await sb.run(['invites', 'links', 'delete', link.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`Delete invite link ${link.id} (edit in the organization) of organization org-acme? No one can join with it any more`);
    expect((await sb.run(['invites', 'links', 'delete', link.id, '--yes'])).exitCode).toBe(0);
    expect((await sb.run(['invites', 'links', 'get', link.id])).exitCode).toBe(4);
  });

  it('link flags: exit 2 naming what is missing or clashing, nothing created', async () => {
    const count = async () => (await sb.request('GET', '/v1/orgs/org-acme/link-invites')).body.count;
    const before = await count();
    expect((await sb.run(['invites', 'links', 'create'])).stderr).toContain('missing --role');
    expect((await sb.run(['invites', 'links', 'create', '--level', 'read'])).stderr).toContain('--level: give it with --space or --collection');
    expect((await sb.run(['invites', 'links', 'create', '--space', 'sp-welcome'])).stderr).toContain('missing --level');
    const both = await sb.run(['invites', 'links', 'create', '--role', 'read', '--space', 'sp-welcome']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('cannot be used together');
    expect(await count()).toBe(before);
  });
});

describe('audit', () => {
  it('lists events by action and target, shows one, lists the actions', async () => {
    const team = await sb.json(['teams', 'create', '--title', 'Auditors']);
    const events = await sb.json(['audit', 'list', '--target', team.id]);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0]).toMatchObject({ object: 'audit-event', action: 'createTeam', actor: { id: 'u-admin' }, target: { id: team.id } });
    const row = (await sb.run(['audit', 'list', '--action', 'createTeam', '--limit', '1'])).stdout.split('\t');
    expect(row[0]).toBe(events[0].id);
    expect(row[2]).toBe('createTeam');
    const one = await sb.run(['audit', 'get', events[0].id, '--fields', 'action,targetId']);
    expect(one.stdout).toBe(`action\tcreateTeam\ntargetId\t${team.id}`);
    const actions = await sb.json(['audit', 'actions']);
    expect(actions.map((a: { id: string }) => a.id)).toContain('createTeam');
  });

  it('records changes: a write that changes nothing records no event', async () => {
    const actions = async () => (await sb.json(['audit', 'list'])).map((e: { action: string }) => e.action);
    const ok = async (args: string[]) => {
      const r = await sb.run(args);
      expect(r.stderr + r.exitCode).toMatch(/0$/);
    };
    await ok(['spaces', 'update', 'sp-welcome', '--title', 'Renamed']);
    await ok(['members', 'set-role', 'u-read', 'edit']);
    await ok(['teams', 'update', 'team-writers', '--title', 'Scribes']);
    await ok(['collections', 'update', 'col-handbook', '--title', 'Book']);
    await ok(['spaces', 'permissions', 'add', 'sp-welcome', '--user', 'u-read', '--role', 'comment']);
    const changes = await actions();
    expect(changes).toHaveLength(5);
    const { updatedAt } = await sb.json(['spaces', 'get', 'sp-welcome']);
    // The same values again, and removals of what is not there: nothing changes, nothing is recorded.
    await ok(['spaces', 'update', 'sp-welcome', '--title', 'Renamed']);
    await ok(['members', 'set-role', 'u-read', 'edit']);
    await ok(['teams', 'update', 'team-writers', '--title', 'Scribes']);
    await ok(['collections', 'update', 'col-handbook', '--title', 'Book']);
    await ok(['spaces', 'permissions', 'add', 'sp-welcome', '--user', 'u-read', '--role', 'comment']);
    await ok(['spaces', 'permissions', 'set', 'sp-welcome', '--user', 'u-read', '--role', 'comment']);
    await ok(['spaces', 'permissions', 'remove', 'sp-welcome', '--team', 'team-writers', '--yes']);
    await ok(['teams', 'members', 'remove', 'team-writers', 'u-review', '--yes']);
    await ok(['teams', 'delete', 'team-gone', '--yes']);
    expect(await actions()).toEqual(changes);
    // The space's time of last change stays too.
    expect((await sb.json(['spaces', 'get', 'sp-welcome'])).updatedAt).toBe(updatedAt);
  });

  it('bad input is exit 2 naming it', async () => {
    const from = await sb.run(['audit', 'list', '--from', 'yesterday']);
    expect(from.exitCode).toBe(2);
    expect(from.stderr).toContain('--from: must be a date and time');
    const id = await sb.run(['audit', 'get', 'not-a-uuid']);
    expect(id.exitCode).toBe(2);
    expect(id.stderr).toContain('<event>: must be a UUID');
  });

  it('is for admins (5 otherwise)', async () => {
    expect((await sb.run(['audit', 'list'], { as: 'edit' })).exitCode).toBe(5);
  });
});

describe('permissions', () => {
  it('spaces: add users and teams at once, list them together, the effective roles, set, remove after a question', async () => {
    const add = await sb.run(['spaces', 'permissions', 'add', 'sp-welcome', '--team', 'team-writers', '--user', 'u-read', '--role', 'edit']);
    expect(add).toMatchObject({ exitCode: 0, stdout: '' });
    expect(add.stderr).toContain('gave edit on space sp-welcome to 1 user and 1 team');

    const rows = (await sb.run(['spaces', 'permissions', 'list', 'sp-welcome'])).stdout.split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([
      ['user', 'u-read', 'Rex Reader', 'read@acme.test', 'edit'],
      ['team', 'team-writers', 'Writers', '', 'edit'],
    ]);
    const json = await sb.json(['spaces', 'permissions', 'list', 'sp-welcome']);
    expect(json).toMatchObject([
      { permission: 'edit', user: { id: 'u-read' } },
      { permission: 'edit', team: { id: 'team-writers' } },
    ]);

    // Paging across the two lists: one at a time, the cursor takes up where it stopped.
    const first = await sb.run(['spaces', 'permissions', 'list', 'sp-welcome', '--limit', '1']);
    expect(first.stdout.split('\t')[1]).toBe('u-read');
    const cursor = /--page (\S+)\)/.exec(first.stderr)![1];
    expect(first.stderr).toContain('showing 1 of 2');
    expect((await sb.run(['spaces', 'permissions', 'list', 'sp-welcome', '--page', cursor])).stdout.split('\t')[1]).toBe('team-writers');
    expect((await sb.run(['spaces', 'permissions', 'list', 'sp-welcome', '--page', 'nonsense'])).exitCode).toBe(2);

    // Effective: Cora (comment in the organization) edits through the team.
    const effective = await sb.json(['spaces', 'permissions', 'list', 'sp-welcome', '--effective']);
    expect(effective.find((r: { user: { id: string } }) => r.user.id === 'u-comment')).toMatchObject({ permission: 'edit' });
    const editors = await sb.run(['spaces', 'permissions', 'list', 'sp-welcome', '--effective', '--role', 'edit', '--fields', 'id']);
    expect(editors.stdout.split('\n')).toEqual(expect.arrayContaining(['u-read', 'u-comment', 'u-edit']));

    await sb.run(['spaces', 'permissions', 'set', 'sp-welcome', '--user', 'u-read', '--role', 'comment']);
    expect((await sb.json(['spaces', 'permissions', 'list', 'sp-welcome']))[0]).toMatchObject({ permission: 'comment', user: { id: 'u-read' } });

    const refused = await sb.run(['spaces', 'permissions', 'remove', 'sp-welcome', '--team', 'team-writers']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'Take the edit role on space sp-welcome away from team "Writers" (team-writers)? Its 2 members lose what this grant gave them',
    );
    const user = await sb.run(['spaces', 'permissions', 'remove', 'sp-welcome', '--user', 'u-read']);
    expect(user.stderr).toContain('Take the comment role on space sp-welcome away from user "Rex Reader" (u-read)?');
    expect(await sb.json(['spaces', 'permissions', 'list', 'sp-welcome'])).toHaveLength(2);
    expect((await sb.run(['spaces', 'permissions', 'remove', 'sp-welcome', '--team', 'team-writers', '--yes'])).exitCode).toBe(0);
    expect(await sb.json(['spaces', 'permissions', 'list', 'sp-welcome'])).toMatchObject([{ user: { id: 'u-read' } }]);
  });

  it('bad input is exit 2 naming the flag, nothing granted', async () => {
    const grants = async () => (await sb.request('GET', '/v1/spaces/sp-welcome/permissions/users')).body.count;
    const cases: [string[], string][] = [
      [['add', 'sp-welcome', '--user', 'u-read'], 'missing --role'],
      [['add', 'sp-welcome', '--role', 'edit'], 'missing --user or --team'],
      [['add', 'sp-welcome', '--user', 'u-read', '--role', 'owner'], '--role'],
      [['set', 'sp-welcome', '--role', 'edit'], 'missing --user or --team'],
      [['set', 'sp-welcome', '--user', 'u-read', '--team', 'team-writers', '--role', 'edit'], 'cannot be used together'],
      [['list', 'sp-welcome', '--role', 'edit'], '--role: give it with --effective'],
    ];
    for (const [args, message] of cases) {
      const r = await sb.run(['spaces', 'permissions', ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await grants()).toBe(0);
    // Only the space's admins change its grants.
    expect((await sb.run(['spaces', 'permissions', 'add', 'sp-welcome', '--user', 'u-read', '--role', 'edit'], { as: 'edit' })).exitCode).toBe(5);
  });

  it('collections and sites: the same commands', async () => {
    await sb.run(['collections', 'permissions', 'add', 'col-handbook', '--team', 'team-writers', '--role', 'review']);
    expect(await sb.json(['collections', 'permissions', 'list', 'col-handbook'])).toMatchObject([{ permission: 'review', team: { id: 'team-writers' } }]);
    const effective = await sb.json(['collections', 'permissions', 'list', 'col-handbook', '--effective']);
    expect(effective.find((r: { user: { id: string } }) => r.user.id === 'u-comment')).toMatchObject({ permission: 'review' });

    const site = await sb.json(['sites', 'create', '--title', 'Docs']);
    await sb.run(['sites', 'permissions', 'add', site.id, '--user', 'u-read', '--role', 'edit']);
    expect((await sb.run(['sites', 'permissions', 'list', site.id])).stdout).toBe('user\tu-read\tRex Reader\tread@acme.test\tedit');
    const reasons = await sb.run(['sites', 'permissions', 'list', site.id, '--effective', '--fields', 'id,role,reason']);
    expect(reasons.stdout.split('\n')).toContain('u-read\tedit\tsite member');
    // A site's aggregate filters by team and by text.
    await sb.run(['sites', 'permissions', 'add', site.id, '--team', 'team-writers', '--role', 'comment']);
    const writers = await sb.run(['sites', 'permissions', 'list', site.id, '--effective', '--team', 'team-writers', '--fields', 'id']);
    expect(writers.stdout.split('\n').sort()).toEqual(['u-comment', 'u-edit']);
    expect((await sb.run(['sites', 'permissions', 'list', site.id, '--effective', '--search', 'REX', '--fields', 'id'])).stdout).toBe('u-read');
    expect((await sb.run(['sites', 'permissions', 'list', site.id, '--team', 'team-writers'])).stderr).toContain('--team: give it with --effective');
    await sb.run(['sites', 'permissions', 'remove', site.id, '--team', 'team-writers', '--yes']);
    await sb.run(['sites', 'permissions', 'set', site.id, '--user', 'u-read', '--role', 'read']);
    expect((await sb.run(['sites', 'permissions', 'rm', site.id, '--user', 'u-read', '--yes'])).exitCode).toBe(0);
    expect(await sb.json(['sites', 'permissions', 'list', site.id])).toEqual([]);
  });
});

/**
 * The words of a shell line: whitespace-separated, '…' and "…" kept whole, `$name` replaced (the
 * worked example uses nothing more).
 */
function words(line: string, vars: Record<string, string>): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] ?? m[3]).replace(/\$(\w+)/g, (_, v: string) => vars[v] ?? ''));
}

describe('docs/access.md', () => {
  it('its worked example runs as written: onboard a team, audit a space, offboard a person', async () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/access.md'), 'utf8');
    const block = /<!-- access-example -->\n```sh\n([\s\S]*?)\n```/.exec(doc)![1];
    const vars: Record<string, string> = {};
    const out: Record<string, string> = {};
    for (const line of block.split('\n').filter((l) => l.trim() && !l.startsWith('#'))) {
      const assign = /^(\w+)=\$\((.*)\)$/.exec(line);
      const argv = words(assign ? assign[2] : line, vars);
      expect(argv[0], line).toBe('docsctl');
      const r = await sb.run(argv.slice(1));
      expect(r.exitCode, `${line}\n${r.stderr}`).toBe(0);
      if (assign) vars[assign[1]] = r.stdout.trim();
      out[argv.slice(1).join(' ')] = r.stdout;
    }
    const grants = out['spaces permissions list sp-welcome'].split('\n').map((l) => l.split('\t'));
    expect(grants).toEqual([
      ['user', vars.bob, expect.any(String), 'bob@example.com', 'comment'],
      ['team', vars.team, 'Support', '', 'edit'],
    ]);
    // Ann and Bob read in the organization, and edit here through the team; Ed is an editor of the organization.
    const editors = out['spaces permissions list sp-welcome --effective --role edit'].split('\n').map((l) => l.split('\t')[3]);
    expect(editors.sort()).toEqual(['ann@example.com', 'bob@example.com', 'edit@acme.test']);
    expect(out['audit list --target sp-welcome']).toContain('inviteToSpace');
    // Offboarded: out of the grants, the team and the organization.
    expect((await sb.run(['spaces', 'permissions', 'list', 'sp-welcome'])).stdout.split('\t')[1]).toBe(vars.team);
    expect((await sb.run(['teams', 'members', 'list', vars.team, '--fields', 'email'])).stdout).not.toContain('bob@');
    expect((await sb.run(['members', 'get', vars.bob])).exitCode).toBe(4);
  });
});
