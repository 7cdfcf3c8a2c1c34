/**
 * Access in the organization file (issue 26): teams with their members, `access:` (grants) on
 * collections, spaces and sites, and the organization's settings — exported, validated offline,
 * planned, applied, pruned, saved as plans (stale ones refused) and seeded by `serve --seed`, driven
 * as a user against the sandbox.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { docsctlInProcess, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-orgaccess-'));
});

function file(name: string, content: string | object): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  return path;
}

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function run(args: string[]) {
  const r = await sb.run(args);
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}

async function exported(): Promise<Doc> {
  return parse((await run(['orgs', 'export'])).stdout) as Doc;
}

/** The default seed with a grant of each kind: the writers' team edits the welcome space, the guest reads it. */
async function withGrants() {
  await run(['spaces', 'permissions', 'add', 'sp-welcome', '--team', 'team-writers', '--role', 'edit']);
  await run(['spaces', 'permissions', 'add', 'sp-welcome', '--user', 'u-guest', '--role', 'read']);
}

const planText = async (path: string, ...more: string[]) => (await run(['orgs', 'plan', '-f', path, ...more])).stdout;
const CLEAN = 'No changes: the organization is as the file says.';

describe('access in the organization file', () => {
  it('export writes teams, access and the settings; the export plans clean, even with --prune', async () => {
    await withGrants();
    const data = await exported();
    expect(data.organization).toMatchObject({ id: 'org-acme', title: expect.any(String), defaultRole: 'read', mergeRules: { type: 'none' } });
    expect(data.teams).toEqual([{ key: 'writers', id: 'team-writers', title: 'Writers', owners: ['ed-editor'], members: ['cora-commenter'] }]);
    const welcome = data.spaces.find((s: Doc) => s.id === 'sp-welcome');
    expect(welcome.access).toEqual([
      { user: 'gus-guest', role: 'read' },
      { team: 'writers', role: 'edit' },
    ]);
    const path = file('org.yaml', data);
    expect(await planText(path, '--prune')).toContain(CLEAN);
  });

  it('edit → plan shows it → apply → plan clean; then prune: grants taken away before their team is deleted', async () => {
    await withGrants();
    const data = await exported();
    data.organization.title = 'Acme Handbook';
    data.organization.defaultRole = 'comment';
    data.teams[0].members = ['rex-reader'];
    data.teams.push({ title: 'Support', owners: ['ada-admin'], members: ['rex-reader'] });
    const welcome = data.spaces.find((s: Doc) => s.id === 'sp-welcome');
    welcome.access = [
      { team: 'writers', role: 'review' },
      { team: 'support', role: 'comment' },
    ];
    data.collections[0].access = [{ user: 'rex-reader', role: 'edit' }];
    const path = file('edited.yaml', data);

    const shown = await planText(path);
    for (const line of [
      'Teams:',
      '  ~ team writers (Writers)\n      member rex-reader: (none) → "member"',
      '  + team support (Support)\n      title: "Support"\n      member ada-admin: (none) → "owner"\n      member rex-reader: (none) → "member"',
      'Organization settings:\n  ~ organization org-acme',
      '      title: "Acme Docs" → "Acme Handbook"\n      defaultRole: "read" → "comment"',
      'Access:',
      '  + grant user rex-reader on collection handbook\n      role: "edit"',
      '  ~ grant team writers on space welcome\n      role: "edit" → "review"',
      '  + grant team support on space welcome\n      role: "comment"',
      'Kept: 2 items of the kinds the file declares are not in it (--prune deletes them): team-member writers/cora-commenter, grant user gus-guest on space welcome',
      'Plan: 3 to create, 3 to update, 0 to move, 0 to delete.',
    ])
      expect(shown).toContain(line);

    const applied = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('Applied: 6 changes');
    expect(await planText(path)).toContain(CLEAN);
    // What the service says now, through the commands people use.
    const grants = (await run(['spaces', 'permissions', 'list', 'sp-welcome', '--json'])).stdout;
    expect(JSON.parse(grants)).toEqual(
      expect.arrayContaining([expect.objectContaining({ permission: 'review', team: expect.objectContaining({ id: 'team-writers' }) })]),
    );
    expect(JSON.parse((await run(['orgs', 'get', '--json'])).stdout)).toMatchObject({ title: 'Acme Handbook', defaultRole: 'comment' });

    // --prune: the guest's grant and cora out of the writers; then the support team goes, its grant first.
    const pruned = await planText(path, '--prune');
    expect(pruned).toContain('      member cora-commenter: "member" → (none)');
    expect(pruned).toContain('  - grant user gus-guest on space welcome\n      role: "read" → (none)');
    expect((await sb.run(['orgs', 'apply', '-f', path, '--prune', '--yes'])).exitCode).toBe(0);
    expect(await planText(path, '--prune')).toContain(CLEAN);

    const without = await exported();
    without.teams = without.teams.filter((t: Doc) => t.key !== 'support');
    for (const s of without.spaces) s.access = s.access.filter((g: Doc) => g.team !== 'support');
    const path2 = file('without-support.yaml', without);
    const p = JSON.parse((await run(['orgs', 'plan', '-f', path2, '--prune', '--json'])).stdout);
    expect(p.changes.map((c: Doc) => `${c.action} ${c.kind} ${c.key}`)).toEqual(['delete grant team support on space welcome', 'delete team support']);
    expect((await sb.run(['orgs', 'apply', '-f', path2, '--prune', '--yes'])).exitCode).toBe(0);
    expect((await run(['teams', 'list'])).stdout).not.toContain('Support');
    // A file without teams: never deletes a team; an item without access: keeps its grants.
    const bare = file('bare.yaml', 'version: 1\nspaces:\n  - title: Welcome\n');
    expect(JSON.parse((await run(['orgs', 'plan', '-f', bare, '--prune', '--json'])).stdout).changes.filter((c: Doc) => c.kind !== 'space')).toEqual([]);
  });

  it('saved plans cover the access kinds: applied exactly, and refused (exit 6, nothing applied) when a grant changed since', async () => {
    await withGrants();
    const data = await exported();
    data.spaces.find((s: Doc) => s.id === 'sp-welcome').access = [{ team: 'writers', role: 'comment' }];
    data.teams.push({ title: 'Support', members: ['rex-reader'] });
    data.organization.title = 'Acme Plans';
    const path = file('org.yaml', data);
    const planFile = join(dir, 'org.plan');
    await run(['orgs', 'plan', '-f', path, '--prune', '--out', planFile]);
    // Someone changes a grant in the app after the review.
    await run(['spaces', 'permissions', 'set', 'sp-welcome', '--team', 'team-writers', '--role', 'admin']);
    const stale = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(stale.exitCode).toBe(6);
    expect(stale.stderr).toContain('space welcome (sp-welcome): access changed');
    expect((await run(['teams', 'list'])).stdout).not.toContain('Support');
    expect(JSON.parse((await run(['orgs', 'get', '--json'])).stdout).title).not.toBe('Acme Plans');
    // Planned again, it applies as planned; then nothing is left to do.
    await run(['orgs', 'plan', '-f', path, '--prune', '--out', planFile]);
    const ok = await sb.run(['orgs', 'apply', planFile, '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('Applied: 4 changes');
    expect(await planText(path, '--prune')).toContain(CLEAN);
  });

  it('orgs validate checks the references offline: unknown member and team keys at file:line:column, every problem at once', async () => {
    const path = file(
      'bad.yaml',
      `version: 1
organization:
  title: Acme
  defaultSite: docz
members:
  - { key: ada, id: u-admin, role: admin }
teams:
  - title: Writers
    owners: [ada]
    members: [ada, bob]
spaces:
  - title: Welcome
    access:
      - { user: adda, role: edit }
      - { team: writerz, role: read }
      - { team: writers, role: read }
      - { team: writers, role: edit }
sites:
  - title: Docs
`,
    );
    const r = await docsctlInProcess(['orgs', 'validate', '-f', path], {
      HOME: dir,
      DOCSCTL_CONFIG_DIR: join(dir, 'config'),
      DOCSCTL_API_URL: 'http://127.0.0.1:9',
    });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    for (const line of [
      `${path}:4:16: organization.defaultSite: no site with key "docz" (did you mean "docs"?)`,
      `${path}:10:15: teams[0].members[0]: "ada" is in the team twice (also at teams[0].owners[0] (${path}:9:14)): a member is an owner or a member, once`,
      `${path}:10:20: teams[0].members[1]: no member with key "bob"`,
      `${path}:14:17: spaces[0].access[0].user: no member with key "adda" (did you mean "ada"?)`,
      `${path}:15:17: spaces[0].access[1].team: no team with key "writerz" (did you mean "writers"?)`,
      `${path}:17:9: spaces[0].access[3]: team "writers" is given a role twice (also at spaces[0].access[2] (${path}:16:9)): one grant per team and item`,
    ])
      expect(r.stderr).toContain(line);
    // A file that declares no members: its member keys are the organization's, checked by plan.
    const loose = file('loose.yaml', 'version: 1\nspaces:\n  - title: Welcome\n    access: [{ user: rexx, role: read }]\n');
    const p = await sb.run(['orgs', 'plan', '-f', loose]);
    expect(p.exitCode).toBe(2);
    expect(p.stderr).toContain(`${loose}:4:22: spaces[0].access[0].user: no member with key "rexx" in the files or in organization org-acme`);
  });

  it('serve --seed applies teams, grants and settings: the seeded sandbox exports the same', async () => {
    await withGrants();
    await run(['teams', 'create', '--title', 'Support', '--member', 'u-read']);
    await run(['orgs', 'update', '--title', 'Seeded Acme', '--default-role', 'comment']);
    const team = JSON.parse((await run(['teams', 'list', '--json'])).stdout).find((t: Doc) => t.title === 'Support').id;
    await run(['collections', 'permissions', 'add', 'col-handbook', '--team', team, '--role', 'read']);
    const before = await exported();
    // From another organization: ids the sandbox does not have (matched by key and title).
    before.teams = before.teams.map((t: Doc) => ({ ...t, id: `x-${t.id}` }));
    const seedFile = file('seed.yaml', before);
    const { serveJson } = await import('../helpers/cli.js');
    const { info, stop } = await serveJson(['--seed', seedFile], { PATH: process.env.PATH ?? '', HOME: dir });
    try {
      const env = { HOME: dir, DOCSCTL_CONFIG_DIR: dir, DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: info.token, DOCSCTL_ORG: info.organizationId };
      const after = parse((await docsctlInProcess(['orgs', 'export'], env)).stdout) as Doc;
      const ids = (d: Doc) => ({ ...d, id: undefined });
      expect(after.organization).toEqual(before.organization);
      expect(after.teams.map(ids)).toEqual(before.teams.map(ids));
      const access = (d: Doc) => Object.fromEntries([...d.collections, ...d.spaces].map((i: Doc) => [i.key, i.access]));
      expect(access(after)).toEqual(access(before));
      expect(access(after).handbook).toEqual([{ team: 'support', role: 'read' }]);
      const plan = await docsctlInProcess(['orgs', 'plan', '-f', seedFile, '--prune', '--json'], env);
      expect(JSON.parse(plan.stdout).changes).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('orgs export --update with access', () => {
  it('keeps the file’s comments and keys while grants, team members and settings change in the app; plan is clean after', async () => {
    await withGrants();
    const exportedText = (await run(['orgs', 'export'])).stdout;
    // The team's copy: a comment on the team and on a grant, kept through the update.
    const edited = exportedText
      .replace(/^teams:\n/m, 'teams:\n  # who writes the handbook\n')
      .replace('- team: writers\n        role: edit', '- team: writers # the writers edit it\n        role: edit');
    expect(edited).toContain('# the writers edit it');
    const path = file('org.yaml', edited);
    // Changed in the app: a grant's role, a team member, the organization's title.
    await run(['spaces', 'permissions', 'set', 'sp-welcome', '--team', 'team-writers', '--role', 'review']);
    await run(['teams', 'members', 'add', 'team-writers', 'u-read']);
    await run(['orgs', 'update', '--title', 'Acme Handbooks']);
    expect(await planText(path)).not.toContain(CLEAN);
    await run(['orgs', 'export', '--update', path]);
    const { readFileSync } = await import('node:fs');
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('# who writes the handbook');
    expect(after).toContain('# the writers edit it');
    const data = parse(after) as Doc;
    expect(data.organization.title).toBe('Acme Handbooks');
    expect(data.teams[0].members).toContain('rex-reader');
    expect(data.spaces.find((s: Doc) => s.id === 'sp-welcome').access).toContainEqual({ team: 'writers', role: 'review' });
    expect(await planText(path, '--prune')).toContain(CLEAN);
  });
});
