/** The organization as code (issue 17): export, plan, apply and schema, driven as a user against the sandbox. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { docsctl, useSandbox } from '../helpers/cli.js';

const sb = useSandbox();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-orgfile-'));
});

/** Write a file of the test folder and give its path. */
function file(name: string, content: string | object): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  return path;
}

/** An organization written by hand: keys from titles, no ids. */
const BASE = `version: 1
collections:
  - title: Guides
  - title: API
    key: api
  - title: Archive
  - title: Handbook
spaces:
  - title: Welcome
    parent: handbook
  - title: Getting started
    parent: guides
  - title: Reference
    parent: api
  - title: Changelog
    parent: api
sites:
  - title: Public docs
    visibility: public
    published: true
    sections:
      - title: Guides
        default: true
        siteSpaces:
          - space: getting-started
      - title: API
        siteSpaces:
          - space: reference
          - space: changelog
`;

async function applyBase(): Promise<void> {
  const r = await sb.run(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
  expect(r.exitCode, r.stderr).toBe(0);
}

async function plan(path: string, ...more: string[]) {
  const r = await sb.run(['orgs', 'plan', '-f', path, '--json', ...more]);
  expect([0, 2], r.stderr).toContain(r.exitCode);
  return { exitCode: r.exitCode, plan: JSON.parse(r.stdout) };
}

const brief = (changes: { action: string; kind: string; key: string; site?: string }[]) =>
  changes.map((c) => `${c.action} ${c.kind} ${c.site ? `${c.site}/` : ''}${c.key}`).sort();

describe('orgs export / plan / apply', () => {
  it('round trip: a file by hand applies, exports, and plans clean; the same file applied twice changes nothing the second time', async () => {
    await applyBase();
    const again = await sb.run(['orgs', 'apply', '-f', join(dir, 'base.yaml'), '--yes']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('No changes: the organization is as the file says.');
    expect(again.stderr).not.toContain('Applied:');

    const exported = await sb.run(['orgs', 'export']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe('# yaml-language-server: $schema=org.schema.json');
    const data = parse(exported.stdout);
    expect(data.version).toBe(1);
    expect(data.spaces.find((s: { key: string }) => s.key === 'getting-started')).toMatchObject({ parent: 'guides', title: 'Getting started' });
    expect(data.spaces[0].id).toEqual(expect.any(String));
    const site = data.sites.find((s: { key: string }) => s.key === 'public-docs');
    expect(site.sections.map((s: { key: string }) => s.key)).toEqual(['guides', 'api']);
    expect(site.sections[1].siteSpaces.map((s: { space: string }) => s.space)).toEqual(['reference', 'changelog']);
    expect(data.members.find((m: { id: string }) => m.id === 'u-read')).toMatchObject({ key: 'rex-reader', role: 'read' });

    const path = file('org.yaml', exported.stdout);
    const text = await sb.run(['orgs', 'plan', '-f', path]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('No changes');
    expect((await plan(path, '--prune')).exitCode).toBe(0);

    // JSON too, with the $schema field.
    const json = await sb.run(['orgs', 'export', '--format', 'json', '--out', join(dir, 'org.json')]);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(json.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'org.json'), 'utf8')).$schema).toBe('org.schema.json');
    expect((await plan(join(dir, 'org.json'), '--prune')).exitCode).toBe(0);
  });

  it('each edit kind plans as exactly that change, applies, and plans clean after', async () => {
    await applyBase();
    const data = parse((await sb.run(['orgs', 'export'])).stdout);
    const space = (key: string) => data.spaces.find((s: { key: string }) => s.key === key);
    // Rename (the key and id stay: an update).
    space('getting-started').title = 'Start here';
    // Move a space to another collection.
    space('changelog').parent = 'guides';
    // Reorder the sections of a site.
    const site = data.sites.find((s: { key: string }) => s.key === 'public-docs');
    site.sections.reverse();
    // Change a role.
    data.members.find((m: { key: string }) => m.key === 'rex-reader').role = 'edit';
    // Add a site with sections.
    data.sites.push({
      title: 'Partners', sections: [
        { title: 'Overview', siteSpaces: [{ space: 'welcome' }] },
        { title: 'Reference', key: 'ref', siteSpaces: [{ space: 'reference' }, { space: 'changelog' }] },
      ],
    });
    // Remove a collection (with --prune).
    data.collections = data.collections.filter((c: { key: string }) => c.key !== 'archive');
    const path = file('edited.yaml', data);

    const { exitCode, plan: p } = await plan(path, '--prune');
    expect(exitCode).toBe(2);
    expect(brief(p.changes)).toEqual(brief([
      { action: 'update', kind: 'space', key: 'getting-started' },
      { action: 'move', kind: 'space', key: 'changelog' },
      { action: 'move', kind: 'section', key: 'guides', site: 'public-docs' },
      { action: 'update', kind: 'member', key: 'rex-reader' },
      { action: 'create', kind: 'site', key: 'partners' },
      { action: 'create', kind: 'section', key: 'overview', site: 'partners' },
      { action: 'create', kind: 'section', key: 'ref', site: 'partners' },
      { action: 'create', kind: 'site-space', key: 'changelog', site: 'partners' },
      { action: 'delete', kind: 'collection', key: 'archive' },
    ]));
    expect(p.changes.find((c: { kind: string; action: string }) => c.kind === 'space' && c.action === 'update').fields).toEqual([{ field: 'title', from: 'Getting started', to: 'Start here' }]);
    expect(p.changes.find((c: { kind: string }) => c.kind === 'member').fields).toEqual([{ field: 'role', from: 'read', to: 'edit' }]);
    expect(p.summary).toEqual({ create: 4, update: 2, move: 2, delete: 1 });

    // Without --prune the collection is kept, and said so.
    const kept = await sb.run(['orgs', 'plan', '-f', path]);
    expect(kept.exitCode).toBe(2);
    expect(kept.stdout).toMatch(/Kept: 1 item .*collection archive/);
    expect(kept.stdout).toContain('  ~ space getting-started (Getting started)\n      title: "Getting started" → "Start here"');
    expect(kept.stdout).toContain('  → space changelog (Changelog)\n      parent: "api" → "guides"');
    expect(kept.stdout).toContain('Plan: 4 to create, 2 to update, 2 to move, 0 to delete.');

    // Apply asks; without a terminal it needs --yes, and changes nothing without it.
    const refused = await sb.run(['orgs', 'apply', '-f', path, '--prune']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('refusing without confirmation');
    expect((await plan(path, '--prune')).plan.summary.delete).toBe(1);

    const applied = await sb.run(['orgs', 'apply', '-f', path, '--prune', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stdout).toBe('');
    expect(applied.stderr).toContain('  - collection archive');
    expect(applied.stderr).toMatch(/Applied: \d+ changes/);
    expect(await plan(path, '--prune')).toMatchObject({ exitCode: 0, plan: { changes: [] } });

    const sections = (await sb.request('GET', `/v1/orgs/org-acme/sites/${site.id}/sections`)).body.items;
    expect(sections.map((s: { title: string }) => s.title)).toEqual(['API', 'Guides']);
    expect((await sb.request('GET', `/v1/spaces/${space('getting-started').id}`)).body.title).toBe('Start here');
  });

  it('a failure mid-apply stops, says what was and was not applied, and a rerun finishes the job', async () => {
    await applyBase();
    const path = file('more.yaml', `${BASE}  - title: Partners
    sections:
      - title: One
        siteSpaces: [{ space: welcome }]
      - title: Two
        siteSpaces: [{ space: reference }]
`);
    // The site is made, then its first section's creation fails.
    const set = await sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'POST', path: '/v1/orgs/*/sites/*/sections', status: 500, count: 1 }] });
    expect(set.status).toBe(200);
    const failed = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('error: apply stopped: injected fault (500)');
    expect(failed.stderr).toMatch(/applied: 1 change; not applied: \d+/);
    expect(failed.stderr).toContain('  + section partners/');
    expect(failed.stderr).toContain('hint: run docsctl orgs apply -f');

    const rerun = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toContain('+ site partners');
    expect((await plan(path)).exitCode).toBe(0);
  });

  it('a 429 with Retry-After is waited out, POSTs included', async () => {
    await sb.request('PUT', '/_sandbox/faults', { rules: [{ method: 'POST', path: '/v1/orgs/*/collections', status: 429, retryAfter: 1, count: 1 }] });
    const t0 = Date.now();
    const r = await sb.run(['orgs', 'apply', '-f', file('c.yaml', 'version: 1\ncollections:\n  - title: Slow\n'), '--yes', '--verbose'], { env: { DOCSCTL_MAX_RETRIES: '3' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/POST \S+\/collections → 429/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.items.filter((c: { title: string }) => c.title === 'Slow')).toHaveLength(1);
  });

  it('--prune deletes only kinds the file declares', async () => {
    await applyBase();
    const path = file('only.yaml', 'version: 1\ncollections:\n  - title: Guides\n  - title: API\n    key: api\n  - title: Handbook\n');
    const { plan: p } = await plan(path, '--prune');
    expect(brief(p.changes)).toEqual(['delete collection archive']);
    const r = await sb.run(['orgs', 'apply', '-f', path, '--prune', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await sb.request('GET', '/v1/orgs/org-acme/sites')).body.count).toBe(1);
    expect((await sb.request('GET', '/v1/orgs/org-acme/spaces')).body.items.filter((s: { deletedAt?: string }) => !s.deletedAt)).toHaveLength(4);
  });

  it('bad files: every problem at file:line:column with its rule, exit 2, nothing sent', async () => {
    const path = file('bad.yaml', `version: 1
collections:
  - title: A
    parent: b
  - title: B
    parent: a
  - title: Guides
    colour: blue
spaces:
  - title: One
    parent: guidez
  - title: One
  - title: Two
    editMode: frozen
`);
    const before = (await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count;
    for (const cmd of [['plan'], ['apply', '--yes']]) {
      const r = await sb.run(['orgs', ...cmd, '-f', path]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${path}:8:5: collections[2].colour: unknown field "colour"`);
      expect(r.stderr).toContain(`${path}:14:15: spaces[2].editMode:`);
    }
    // The schema passes: then the rules between items.
    const rules = file('rules.yaml', `version: 1
collections:
  - title: A
    parent: b
  - title: B
    parent: a
spaces:
  - title: One
    parent: guidez
  - title: One
`);
    const r = await sb.run(['orgs', 'plan', '-f', rules]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${rules}:4:13: collections[0].parent: cycle of collections: a → b → a`);
    expect(r.stderr).toContain(`${rules}:9:13: spaces[0].parent: no collection with key "guidez"`);
    expect(r.stderr).toMatch(new RegExp(`${rules}:10:5: spaces\\[1\\]: duplicate key "one"`));
    // A reference to something the organization lacks, in a kind the file does not declare.
    const missing = await sb.run(['orgs', 'plan', '-f', file('m.yaml', 'version: 1\nsites:\n  - title: Site S\n    siteSpaces:\n      - space: nowhere\n')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/m\.yaml:5:16: sites\[0\]\.siteSpaces\[0\]\.space: no space with key "nowhere"/);
    const syntax = await sb.run(['orgs', 'plan', '-f', file('s.yaml', 'version: 1\ncollections: [\n')]);
    expect(syntax.exitCode).toBe(2);
    expect(syntax.stderr).toMatch(/s\.yaml:\d+:\d+: /);
    expect((await sb.run(['orgs', 'plan'])).exitCode).toBe(2);
    expect((await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count).toBe(before);
  });

  it('values from the environment: ${env:NAME}, and a clear error when it is not set', async () => {
    const path = file('env.yaml', 'version: 1\ncollections:\n  - title: "${env:TEAM} docs"\n    key: team\n');
    const unset = await sb.run(['orgs', 'plan', '-f', path]);
    expect(unset.exitCode).toBe(2);
    expect(unset.stderr).toContain(`${path}:3:12: collections[0].title: \${env:TEAM}: the environment variable TEAM is not set`);
    const set = await sb.run(['orgs', 'plan', '-f', path, '--json'], { env: { TEAM: 'Platform' } });
    expect(set.exitCode).toBe(2);
    expect(JSON.parse(set.stdout).changes[0]).toMatchObject({ kind: 'collection', action: 'create', key: 'team', title: 'Platform docs' });
  });

  it('--json plan shape', async () => {
    const path = file('j.yaml', 'version: 1\ncollections:\n  - title: Handbook\n    description: How we work now\n');
    const { exitCode, plan: p } = await plan(path);
    expect(exitCode).toBe(2);
    expect(p).toEqual({
      organization: 'org-acme', source: path, prune: false,
      summary: { create: 0, update: 1, move: 0, delete: 0 },
      changes: [{ kind: 'collection', action: 'update', key: 'handbook', id: 'col-handbook', title: 'Handbook', fields: [{ field: 'description', from: 'How we work', to: 'How we work now' }] }],
      drift: [], kept: [],
    });
  });

  it('orgs schema prints the JSON Schema of the file', async () => {
    const r = await sb.run(['orgs', 'schema']);
    expect(r.exitCode).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema.properties.version).toBeDefined();
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['collections', 'spaces', 'sites', 'members', 'saml', 'openapi']));
  });

  it('serve --seed takes an organization file: the sandbox starts shaped like it', async () => {
    await applyBase();
    const org = file('prod.yaml', (await sb.run(['orgs', 'export'])).stdout);
    const { execa } = await import('execa');
    const { BIN } = await import('../helpers/cli.js');
    const child = execa('node', [BIN, 'serve', '--memory', '--port', '0', '--json', '--seed', org], { env: { PATH: process.env.PATH ?? '', HOME: dir }, extendEnv: false, reject: false });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
        child.on('exit', () => reject(new Error(`serve exited: ${out}`)));
      });
      const info = JSON.parse(line);
      const env = { HOME: dir, DOCSCTL_CONFIG_DIR: dir, DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: info.token, DOCSCTL_ORG: info.organizationId };
      const r = await docsctl(['orgs', 'plan', '-f', org, '--json'], env);
      const p = JSON.parse(r.stdout);
      // The members of production are not the sandbox's users: shown as what apply cannot make, nothing else differs.
      expect(p.changes.filter((c: { kind: string }) => c.kind !== 'member')).toEqual([]);
      const tree = await docsctl(['orgs', 'export'], env);
      const data = parse(tree.stdout);
      expect(data.sites[0].sections.map((s: { key: string }) => s.key)).toEqual(['guides', 'api']);
      expect(data.collections.map((c: { key: string }) => c.key).sort()).toEqual(['api', 'archive', 'guides', 'handbook']);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
    const bad = await docsctl(['serve', '--memory', '--port', '0', '--seed', file('bad-seed.yaml', 'version: 1\ncollections:\n  - titel: x\n')], { PATH: process.env.PATH ?? '', HOME: dir });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-seed.yaml:3:5: collections[0].titel: unknown field "titel"');
  });
});
