/**
 * `docsctl serve --seed` of an organization file or a folder, then `POST /_sandbox/reset`: the
 * sandbox goes back to exactly the state it started with (the seeded organization, its teams,
 * collections and spaces, their content and files, with the same ids), in memory and with --data.
 * And a bad seed file is refused naming the file, line:column and the rule, exit 2.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsctl, serveJson, type ServeInfo } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/gitsync-space');
const home = mkdtempSync(join(tmpdir(), 'docsctl-seed-reset-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };

const ORG_FILE = `version: 1
organization:
  title: Seeded Org
teams:
  - key: docs-team
    title: Docs team
collections:
  - key: guides
    title: Guides
spaces:
  - key: manual
    title: Manual
    parent: guides
    access:
      - team: docs-team
        role: edit
`;

async function call(info: ServeInfo, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${info.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${info.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}: ${res.status}`).toBeLessThan(300);
  return res.status === 204 ? undefined : res.json();
}
const stateOf = async (info: ServeInfo) => (await fetch(`${info.url}/_sandbox/state`, { headers: { authorization: `Bearer ${info.token}` } })).text();
/** What a script holding ids sees: each space and team of the organization by id and title, and each space's pages by id. */
async function idsOf(info: ServeInfo) {
  const spaces = (await call(info, 'GET', '/v1/orgs/org-acme/spaces')).items as { id: string; title: string }[];
  const teams = (await call(info, 'GET', '/v1/orgs/org-acme/teams')).items as { id: string; title: string }[];
  const pages = await Promise.all(
    spaces.map(async (s) => JSON.stringify((await call(info, 'GET', `/v1/spaces/${s.id}/content/pages`)).pages, ['id', 'title', 'pages'])),
  );
  return { spaces: spaces.map((s) => `${s.id} ${s.title}`), teams: teams.map((t) => `${t.id} ${t.title}`), pages };
}

/** Change the seeded sandbox (a space added, a seeded one renamed, another deleted, a team deleted), reset, and compare. */
async function changeAndReset(info: ServeInfo, start: { state: string; ids: Awaited<ReturnType<typeof idsOf>> }) {
  const [first, ...others] = (await call(info, 'GET', '/v1/orgs/org-acme/spaces')).items as { id: string }[];
  await call(info, 'POST', '/v1/orgs/org-acme/spaces', { title: 'Made by a test' });
  await call(info, 'PATCH', `/v1/spaces/${first.id}`, { title: 'Renamed by a test' });
  for (const s of others) await call(info, 'DELETE', `/v1/spaces/${s.id}`);
  const team = ((await call(info, 'GET', '/v1/orgs/org-acme/teams')).items as { id: string }[])[0];
  if (team) await call(info, 'DELETE', `/v1/orgs/org-acme/teams/${team.id}`);
  expect(await stateOf(info)).not.toBe(start.state);
  expect(await call(info, 'POST', '/_sandbox/reset')).toEqual({ reset: true });
  // Exactly the state at start: every record, id, timestamp and token (the admin's still works).
  expect(await stateOf(info)).toBe(start.state);
  expect(await idsOf(info)).toEqual(start.ids);
}

describe('POST /_sandbox/reset after serve --seed: back to the seeded state, same ids', () => {
  it('an organization file, in memory', async () => {
    const org = join(home, 'org.yaml');
    writeFileSync(org, ORG_FILE);
    const { info, stop } = await serveJson(['--seed', org], env);
    try {
      const start = { state: await stateOf(info), ids: await idsOf(info) };
      expect(start.ids.spaces).toEqual([expect.stringMatching(/ Manual$/)]);
      expect(start.ids.teams).toEqual(expect.arrayContaining([expect.stringMatching(/ Docs team$/)]));
      await changeAndReset(info, start);
      // Twice: each reset loads the same state.
      await changeAndReset(info, start);
    } finally {
      await stop();
    }
  }, 60_000);

  it('a folder (a backup: its organization file, then a space folder with pages and files), in memory', async () => {
    const backup = join(mkdtempSync(join(tmpdir(), 'docsctl-seed-backup-')), 'backup');
    cpSync(FIXTURE, join(backup, 'manual'), { recursive: true });
    writeFileSync(join(backup, 'manifest.json'), '{}\n');
    writeFileSync(join(backup, 'org.yaml'), ORG_FILE);
    const { info, stop } = await serveJson(['--seed', backup], env);
    try {
      const start = { state: await stateOf(info), ids: await idsOf(info) };
      expect(start.ids.pages[0]).toContain('"title":"Welcome"');
      const space = start.ids.spaces[0].split(' ')[0];
      const files = (await call(info, 'GET', `/v1/spaces/${space}/content/files`)).items as { id: string }[];
      expect(files.length).toBeGreaterThan(0);
      await changeAndReset(info, start);
      expect(((await call(info, 'GET', `/v1/spaces/${space}/content/files`)).items as { id: string }[]).map((f) => f.id)).toEqual(files.map((f) => f.id));
    } finally {
      await stop();
    }
  }, 60_000);

  it('a space folder in Git Sync layout, in memory', async () => {
    const { info, stop } = await serveJson(['--seed', FIXTURE], env);
    try {
      const start = { state: await stateOf(info), ids: await idsOf(info) };
      expect(start.ids.spaces).toEqual([expect.stringMatching(/ gitsync-space$/)]);
      await changeAndReset(info, start);
    } finally {
      await stop();
    }
  }, 60_000);

  it('with --data: the database is seeded when made, reset goes back to that seed, and a restart keeps the saved state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-seed-data-'));
    const org = join(dir, 'org.yaml');
    writeFileSync(org, ORG_FILE);
    const db = join(dir, 'sandbox.db');
    const first = await serveJson(['--data', db, '--token', 'ci-token-123', '--seed', org], env);
    let start;
    try {
      start = { state: await stateOf(first.info), ids: await idsOf(first.info) };
      await changeAndReset(first.info, start);
      await call(first.info, 'POST', '/v1/orgs/org-acme/spaces', { title: 'Saved across restarts' });
    } finally {
      await first.stop();
    }
    // Started again on the database: its saved state, not the seed applied again on top.
    const second = await serveJson(['--data', db, '--token', 'ci-token-123'], env);
    try {
      const again = await idsOf(second.info);
      expect(again.spaces.map((s) => s.replace(/^\S+ /, ''))).toEqual(['Manual', 'Saved across restarts']);
      expect(again.spaces[0]).toBe(start.ids.spaces[0]);
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe('serve --seed: a bad seed file is refused naming the file, line:column and the rule, exit 2', () => {
  const seedFails = async (seed: string) => {
    const r = await docsctl(['serve', '--memory', '--port', '0', '--seed', seed], env);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    return r.stderr;
  };

  it('a YAML organization file with a syntax error: what orgs validate says of it, not a JSON error', async () => {
    for (const [name, text] of [
      ['unterminated.yaml', 'organization:\n  title: "Acme\nteams: []\n'],
      ['compact.yaml', 'version: 1: 2\n'],
      ['no-version.yaml', 'teams:\n  - key: a\n'],
    ]) {
      const file = join(home, name);
      writeFileSync(file, text);
      const validate = await docsctl(['orgs', 'validate', '-f', file], env);
      expect(validate.exitCode).toBe(2);
      const problems = validate.stderr.split('\n').filter((l) => l.startsWith(`  ${file}:`));
      expect(problems.length, validate.stderr).toBeGreaterThan(0);
      const stderr = await seedFails(file);
      for (const p of problems) expect(stderr).toContain(p);
      expect(stderr).not.toMatch(/JSON/);
    }
  });

  it('a JSON fixture that does not parse: where JSON stops', async () => {
    const file = join(home, 'broken.json');
    writeFileSync(file, '{\n  "organizations": [{"id": "o1", "title": "x"}],\n  "users": [\n');
    expect(await seedFails(file)).toContain(`--seed: ${file}:4:1: malformed JSON: Unexpected end of JSON input`);
  });

  it('a JSON fixture with a bad entry: its line:column', async () => {
    const file = join(home, 'bad-entry.json');
    writeFileSync(
      file,
      '{\n  "organizations": [{"id": "o1", "title": "x"}],\n' +
        '  "users": [{"id": "u1", "displayName": "U", "email": "u@x.test", "token": "token-u1-0001"}],\n' +
        '  "members": [\n    {"organization": "o1", "user": "u-nobody", "role": "admin"}\n  ]\n}\n',
    );
    expect(await seedFails(file)).toContain(`--seed: ${file}:5:36: members[0].user: no user u-nobody`);
  });

  it('a seed folder with a bad .gitbook.yaml or SUMMARY.md: the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-seed-badyaml-'));
    const space = join(dir, 'space');
    cpSync(FIXTURE, space, { recursive: true });
    writeFileSync(join(space, '.gitbook.yaml'), 'root: ./\nstructure:\n  summary: [SUMMARY.md\n');
    expect(await seedFails(space)).toMatch(new RegExp(`--seed: ${space.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.gitbook\\.yaml:\\d+:\\d+: not YAML: `));
    writeFileSync(join(space, '.gitbook.yaml'), 'root: ./\nstructure:\n  summary: [SUMMARY.md]\n');
    expect(await seedFails(space)).toContain(`--seed: ${join(space, '.gitbook.yaml')}:3:12: structure.summary: must be a path (text)`);
    writeFileSync(join(space, '.gitbook.yaml'), 'root: ./\n');
    writeFileSync(join(space, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\nnot an item\n');
    expect(await seedFails(space)).toContain(`--seed: ${join(space, 'SUMMARY.md')}:4: not an item of the table of contents`);
  });
});
