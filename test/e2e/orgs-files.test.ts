/**
 * Issue 26: `orgs validate` (no network, no token, every problem at once), several files and folders
 * given to -f, and what a file owns (--prune deletes only that).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { docsctlInProcess, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-orgfiles-'));
});

/** Write a file of the test folder (in a sub-folder when the name has one) and give its path. */
function file(name: string, content: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/** docsctl with no profile, no token, and an API URL where nothing listens: what CI has before its secrets. */
function offline(args: string[], env: Record<string, string> = {}) {
  return docsctlInProcess(args, { HOME: dir, DOCSCTL_CONFIG_DIR: join(dir, 'config'), DOCSCTL_API_URL: 'http://127.0.0.1:9', ...env });
}

/** A file with a problem of each stage: a schema error, an unset ${env:}, a duplicate key, a bad reference. */
const BROKEN = `version: 1
collections:
  - title: Guides
  - title: More guides
    key: guides
spaces:
  - title: Welcome
    parent: guidez
  - title: Colourful
    colour: red
saml:
  - label: Okta
    certificate: \${env:OKTA_CERT_UNSET}
`;

const plans = async (args: string[]) => {
  const r = await sb.run(['orgs', 'plan', ...args, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { changes: { action: string; kind: string; key: string }[]; kept: { kind: string; key: string }[] };
};
const brief = (changes: { action: string; kind: string; key: string }[]) => changes.map((c) => `${c.action} ${c.kind} ${c.key}`).sort();

describe('orgs validate', () => {
  it('checks a file with no server, no token and no profile: exit 0 when clean, nothing on stdout', async () => {
    const path = file('org.yaml', 'version: 1\ncollections:\n  - title: Guides\nspaces:\n  - title: Welcome\n    parent: guides\n');
    const r = await offline(['orgs', 'validate', '-f', path]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${path}: valid (1 collection, 1 space)`);
    const none = await offline(['orgs', 'validate']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('missing --file: the organization file (or a folder of them)');
    // plan, the same file, needs the organization: it fails for the network or the token, not the file.
    expect((await offline(['orgs', 'plan', '-f', path])).exitCode).not.toBe(0);
  });

  it('gives every problem at once, each at its file:line:column, exit 2; an unset variable is a note', async () => {
    const path = file('org.yaml', BROKEN);
    const r = await offline(['orgs', 'validate', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines).toEqual([
      `note: ${path}:13:18: saml[0].certificate: \${env:OKTA_CERT_UNSET}: the environment variable OKTA_CERT_UNSET is not set here (plan shows the certificate as unknown, unchanged; apply needs it to send it; the certificate is not checked)`,
      `error: ${path}: 3 problems`,
      `  ${path}:3:5: collections[0]: duplicate key "guides" (from its title): collections[1] (${path}:4:5) has it too; give one of them a key`,
      `  ${path}:8:13: spaces[0].parent: no collection with key "guidez" (did you mean "guides"?)`,
      `  ${path}:10:5: spaces[1].colour: unknown field "colour"`,
      'hint: fix the files (docsctl orgs schema prints their JSON Schema)',
    ]);
  });

  it('plan and apply make the same checks in one pass: the unset variable (an unknown value, not a problem) hides none of the others', async () => {
    const path = file('org.yaml', BROKEN);
    for (const cmd of [['plan'], ['apply', '--yes']]) {
      const r = await sb.run(['orgs', ...cmd, '-f', path]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`error: ${path}: 3 problems`);
      expect(r.stderr).toContain(`${path}:3:5: collections[0]: duplicate key "guides" (from its title): collections[1] (${path}:4:5) has it too`);
      expect(r.stderr).toContain(`${path}:8:13: spaces[0].parent: no collection with key "guidez"`);
      expect(r.stderr).toContain(`${path}:10:5: spaces[1].colour: unknown field "colour"`);
      expect(r.stderr).not.toContain('OKTA_CERT_UNSET');
    }
  });

  it('checks values and certificates, cycles, and what a file owns', async () => {
    const cert = file('okta.pem', PEM);
    const path = file(
      'org.yaml',
      `version: 1
owns:
  kinds: [members]
collections:
  - { title: A, key: a, parent: b }
  - { title: B, key: b, parent: a }
sites:
  - title: ${'x'.repeat(300)}
saml:
  - label: Okta
    certificate: { file: ${basename(cert)} }
  - label: Other
    certificate: not a certificate
`,
    );
    const r = await offline(['orgs', 'validate', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${path}:3:11: owns.kinds[0]: members: the file has no members: list`);
    expect(r.stderr).toContain(`${path}:5:33: collections[0].parent: cycle of collections: a → b → a`);
    expect(r.stderr).toContain(`${path}:8:12: sites[0].title: must be at most 128 characters`);
    expect(r.stderr).toContain(`${path}:13:18: saml[1].certificate: not a certificate: `);
    expect(r.stderr).toContain(`${path}: 4 problems`); // the certificate file is good
    // A value from the environment is checked when it is set.
    const okEnv = file('env.yaml', 'version: 1\nsaml:\n  - label: Okta\n    certificate: ${env:OKTA_CERT}\n');
    expect((await offline(['orgs', 'validate', '-f', okEnv], { OKTA_CERT: PEM })).exitCode).toBe(0);
    const badEnv = await offline(['orgs', 'validate', '-f', okEnv], { OKTA_CERT: 'nope' });
    expect(badEnv.exitCode).toBe(2);
    expect(badEnv.stderr).toContain(`${okEnv}:4:18: saml[0].certificate: \${env:OKTA_CERT}: `);
    expect(badEnv.stderr).not.toContain('nope');
  });
});

describe('several files and folders', () => {
  it('-f is repeatable and takes folders (their *.yaml, *.yml, *.json in name order, not *.schema.json); items merge across files', async () => {
    const main = file('org.yaml', 'version: 1\ncollections:\n  - title: Guides\n');
    file('teams/b.yml', 'version: 1\nspaces:\n  - title: Team B home\n    parent: team-b\n');
    file('teams/a.yaml', 'version: 1\ncollections:\n  - title: Team B\n    parent: guides\n');
    file('teams/org.schema.json', '{"$schema": "https://json-schema.org/draft/2020-12/schema"}');
    file('teams/notes.txt', 'not an org file');
    const teams = join(dir, 'teams');
    const v = await offline(['orgs', 'validate', '-f', main, '-f', teams]);
    expect(v.exitCode, v.stderr).toBe(0);
    expect(v.stderr).toBe('3 files: valid (2 collections, 1 space)');

    const p = await plans(['-f', main, '-f', teams]);
    expect(brief(p.changes)).toEqual(['create collection guides', 'create collection team-b', 'create space team-b-home']);
    const applied = await sb.run(['orgs', 'apply', '-f', main, '-f', teams, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await plans(['-f', main, '-f', teams])).changes).toEqual([]);
    // A problem of one file is at its own place (the folder's file, its own line).
    file('teams/c.yaml', 'version: 1\nspaces:\n  - title: Stray\n    parent: nowhere\n');
    const bad = await offline(['orgs', 'validate', '-f', main, '-f', teams]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`${join(teams, 'c.yaml')}:4:13: spaces[0].parent: no collection with key "nowhere"`);
    // A folder without org files, and a missing file, are problems too (all of them at once).
    mkdirSync(join(dir, 'empty'));
    const missing = await offline(['orgs', 'validate', '-f', join(dir, 'empty'), '-f', join(dir, 'nope.yaml'), '-f', main]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, 'empty')}: a folder without organization files (*.yaml, *.yml, *.json)`);
    expect(missing.stderr).toContain(`${join(dir, 'nope.yaml')}: `);
  });

  it('a key declared in two files is an error naming both places', async () => {
    const a = file('a.yaml', 'version: 1\ncollections:\n  - title: Guides\n    key: guides\n');
    const b = file('b.yaml', 'version: 1\norganization: org-acme\ncollections:\n  - title: Other\n    key: guides\n');
    const c = file('c.yaml', 'version: 1\norganization: org-other\nmembers:\n  - { id: u-read, role: read }\n  - { id: u-read, role: edit }\n');
    const r = await offline(['orgs', 'validate', '-f', a, '-f', b, '-f', c]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `${b}:5:10: collections[0].key: duplicate key "guides": collections[0] (${a}:3:5) has it too (keys are unique among collections)`,
    );
    expect(r.stderr).toContain(`${c}:2:15: organization: "org-other": ${b} names organization "org-acme"`);
    expect(r.stderr).toContain(`${c}:5:11: members[1].id: duplicate member: user u-read is also members[0] (${c}:4:5)`);
    const plan = await sb.run(['orgs', 'plan', '-f', a, '-f', b]);
    expect(plan.exitCode).toBe(2);
    expect(plan.stderr).toContain(`${b}:5:10: collections[0].key: duplicate key "guides": collections[0] (${a}:3:5) has it too`);
  });

  it('a reference the organization lacks is placed in its own file, at its own index', async () => {
    const a = file('a.yaml', 'version: 1\nspaces:\n  - title: One\n');
    const b = file('b.yaml', 'version: 1\nspaces:\n  - title: Two\n    parent: no-such-collection\n');
    const r = await sb.run(['orgs', 'plan', '-f', a, '-f', b]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${b}:4:13: spaces[0].parent: no collection with key "no-such-collection" in the file or in organization org-acme`);
  });

  it('orgs schema describes owns:', async () => {
    const r = await offline(['orgs', 'schema']);
    expect(r.exitCode).toBe(0);
    const owns = JSON.parse(r.stdout).properties.owns;
    expect(Object.keys(owns.properties).sort()).toEqual(['collections', 'kinds', 'sites']);
    expect(owns.description).toContain('what --prune may delete');
    expect(owns.properties.kinds.items.enum).toEqual(['collections', 'spaces', 'sites', 'teams', 'members', 'saml', 'openapi']);
  });

  it('the files together are bounded by the org file limit (DOCSCTL_ORG_FILE_MAX_BYTES), each one too', async () => {
    const a = file('a.yaml', 'version: 1\ncollections:\n  - title: Guides\n'); // 42 bytes
    const b = file('b.yaml', 'version: 1\ncollections:\n  - title: Other\n'); // 41 bytes
    expect((await offline(['orgs', 'validate', '-f', a, '-f', b], { DOCSCTL_ORG_FILE_MAX_BYTES: '83' })).exitCode).toBe(0);
    const r = await offline(['orgs', 'validate', '-f', a, '-f', b], { DOCSCTL_ORG_FILE_MAX_BYTES: '82' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `${b}: 41 bytes: larger than the 40 bytes left of 82 bytes, the limit of an organization's files together (DOCSCTL_ORG_FILE_MAX_BYTES raises it)`,
    );
    const one = await offline(['orgs', 'validate', '-f', a], { DOCSCTL_ORG_FILE_MAX_BYTES: '41' });
    expect(one.stderr).toContain(`${a}: 42 bytes: larger than 41 bytes, the limit of an organization file`);
  });
});

describe('owning part of an organization', () => {
  /** Two teams' subtrees, a shared collection, and a site each, applied from one file. */
  const WHOLE = `version: 1
collections:
  - { title: Shared }
  - { title: Team A, key: team-a }
  - { title: A old, key: a-old, parent: team-a }
  - { title: Team B, key: team-b }
  - { title: B old, key: b-old, parent: team-b }
spaces:
  - { title: A home, parent: team-a }
  - { title: A stale, parent: team-a }
  - { title: B home, parent: team-b }
  - { title: B stale, parent: team-b }
  - { title: Lobby, parent: shared }
sites:
  - { title: A site }
  - { title: B site }
`;
  const TEAM_A = `version: 1
owns:
  collections: [team-a]
  sites: [a-site]
collections:
  - { title: Team A, key: team-a }
spaces:
  - { title: A home, parent: team-a }
sites: []
`;
  const TEAM_B = TEAM_A.replaceAll('team-a', 'team-b').replaceAll('Team A', 'Team B').replaceAll('A home', 'B home').replaceAll('a-site', 'b-site');

  it('each team’s file prunes only its own subtree and sites; the two together prune both, and nothing else', async () => {
    const whole = await sb.run(['orgs', 'apply', '-f', file('whole.yaml', WHOLE), '--yes']);
    expect(whole.exitCode, whole.stderr).toBe(0);
    const a = file('team-a.yaml', TEAM_A);
    const b = file('team-b.yaml', TEAM_B);

    const pa = await plans(['-f', a, '--prune']);
    expect(brief(pa.changes)).toEqual(['delete collection a-old', 'delete site a-site', 'delete space a-stale']);
    const pb = await plans(['-f', b, '--prune']);
    expect(brief(pb.changes)).toEqual(['delete collection b-old', 'delete site b-site', 'delete space b-stale']);
    // Without --prune, "kept" lists only what the file owns, not the other team's items.
    expect(brief((await plans(['-f', a])).kept.map((k) => ({ ...k, action: 'keep' })))).toEqual([
      'keep collection a-old',
      'keep site a-site',
      'keep space a-stale',
    ]);

    // Team A applies; team B's items are all there still, and B's plan is unchanged.
    const applied = await sb.run(['orgs', 'apply', '-f', a, '--prune', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(brief((await plans(['-f', b, '--prune'])).changes)).toEqual(brief(pb.changes));
    expect((await plans(['-f', a, '--prune'])).changes).toEqual([]);
    // Both files together: B's part is pruned, still nothing of the shared collection nor the sandbox's own items.
    const both = await plans(['-f', a, '-f', b, '--prune']);
    expect(brief(both.changes)).toEqual(brief(pb.changes));
  });

  it('without owns: a file owns every item of the kinds it declares (as before): the other team’s are deleted', async () => {
    expect((await sb.run(['orgs', 'apply', '-f', file('whole.yaml', WHOLE), '--yes'])).exitCode).toBe(0);
    const noOwns = file('a.yaml', TEAM_A.replace(/owns:\n( {2}.*\n)+/, ''));
    const p = await plans(['-f', noOwns, '--prune']);
    expect(brief(p.changes)).toEqual(expect.arrayContaining(['delete collection team-b', 'delete site b-site', 'delete collection shared']));
  });

  it('owns.kinds: a kind owned whole; a kind the file does not declare is never pruned', async () => {
    expect((await sb.run(['orgs', 'apply', '-f', file('whole.yaml', WHOLE), '--yes'])).exitCode).toBe(0);
    // Owns the sites whole, declares one: the other site goes; collections are declared but not owned: none goes.
    const f = file('sites.yaml', 'version: 1\nowns:\n  kinds: [sites]\ncollections:\n  - { title: Shared }\nsites:\n  - { title: A site }\n');
    const p = await plans(['-f', f, '--prune']);
    expect(brief(p.changes).filter((c) => c.startsWith('delete'))).toEqual(expect.arrayContaining(['delete site b-site']));
    expect(brief(p.changes).filter((c) => !c.startsWith('delete site'))).toEqual([]);
  });
});
