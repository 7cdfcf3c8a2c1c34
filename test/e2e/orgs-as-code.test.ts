/** The organization as code (issue 17): export, plan, apply and schema, driven as a user against the sandbox. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { docsctl } from '../helpers/cli.js';
import { docsctlInProcess, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
const PEM_2 = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp-2.pem'), 'utf8');
/** `openssl x509 -noout -fingerprint -sha256` of each, and its `-enddate`, as plan shows them. */
const FINGERPRINT = 'sha256:a5c63d771c4ba7fb, expires 2126-10-30';
const FINGERPRINT_2 = 'sha256:04b77b05541947c4, expires 2126-11-02';
/** The base64 body of a PEM certificate (what must never be printed for a value from the environment). */
const bodyOf = (pem: string) => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
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

/** `orgs plan --json --detailed-exitcode`: exit 0 nothing to do, 2 changes pending. */
async function plan(path: string, ...more: string[]) {
  const r = await sb.run(['orgs', 'plan', '-f', path, '--json', '--detailed-exitcode', ...more]);
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
      title: 'Partners',
      sections: [
        { title: 'Overview', siteSpaces: [{ space: 'welcome' }] },
        { title: 'Reference', key: 'ref', siteSpaces: [{ space: 'reference' }, { space: 'changelog' }] },
      ],
    });
    // Remove a collection (with --prune).
    data.collections = data.collections.filter((c: { key: string }) => c.key !== 'archive');
    const path = file('edited.yaml', data);

    const { exitCode, plan: p } = await plan(path, '--prune');
    expect(exitCode).toBe(2);
    expect(brief(p.changes)).toEqual(
      brief([
        { action: 'update', kind: 'space', key: 'getting-started' },
        { action: 'move', kind: 'space', key: 'changelog' },
        { action: 'move', kind: 'section', key: 'guides', site: 'public-docs' },
        { action: 'update', kind: 'member', key: 'rex-reader' },
        { action: 'create', kind: 'site', key: 'partners' },
        { action: 'create', kind: 'section', key: 'overview', site: 'partners' },
        { action: 'create', kind: 'section', key: 'ref', site: 'partners' },
        { action: 'create', kind: 'site-space', key: 'changelog', site: 'partners' },
        { action: 'delete', kind: 'collection', key: 'archive' },
      ]),
    );
    expect(p.changes.find((c: { kind: string; action: string }) => c.kind === 'space' && c.action === 'update').fields).toEqual([
      { field: 'title', from: 'Getting started', to: 'Start here' },
    ]);
    expect(p.changes.find((c: { kind: string }) => c.kind === 'member').fields).toEqual([{ field: 'role', from: 'read', to: 'edit' }]);
    expect(p.summary).toEqual({ create: 4, update: 2, move: 2, delete: 1 });

    // Without --prune the collection is kept, and said so. Without --detailed-exitcode, a plan that succeeds exits 0.
    const kept = await sb.run(['orgs', 'plan', '-f', path]);
    expect(kept.exitCode).toBe(0);
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

  it('defaultLevel null (no access) on new content: one apply gives it, the plan after is clean', async () => {
    const path = file(
      'no-access.yaml',
      'version: 1\ncollections:\n  - title: Vault\n    defaultLevel: null\nspaces:\n  - title: Secret\n    parent: vault\n    defaultLevel: null\n',
    );
    const applied = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await plan(path)).exitCode).toBe(0);
    const spaces = await sb.json(['spaces', 'list']);
    expect(spaces.find((s: { title: string }) => s.title === 'Secret')).toMatchObject({ defaultLevel: null });
    const collections = await sb.json(['collections', 'list']);
    expect(collections.find((c: { title: string }) => c.title === 'Vault')).toMatchObject({ defaultLevel: null });
  });

  it('a failure mid-apply stops, says what was and was not applied, and a rerun finishes the job', async () => {
    await applyBase();
    const path = file(
      'more.yaml',
      `${BASE}  - title: Partners
    sections:
      - title: One
        siteSpaces: [{ space: welcome }]
      - title: Two
        siteSpaces: [{ space: reference }]
`,
    );
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
    const r = await sb.run(['orgs', 'apply', '-f', file('c.yaml', 'version: 1\ncollections:\n  - title: Slow\n'), '--yes', '--verbose'], {
      env: { DOCSCTL_MAX_RETRIES: '3' },
    });
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
    const path = file(
      'bad.yaml',
      `version: 1
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
`,
    );
    const before = (await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count;
    for (const cmd of [['plan'], ['apply', '--yes']]) {
      const r = await sb.run(['orgs', ...cmd, '-f', path]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${path}:8:5: collections[2].colour: unknown field "colour"`);
      expect(r.stderr).toContain(`${path}:14:15: spaces[2].editMode:`);
    }
    // The schema passes: then the rules between items.
    const rules = file(
      'rules.yaml',
      `version: 1
collections:
  - title: A
    parent: b
  - title: B
    parent: a
spaces:
  - title: One
    parent: guidez
  - title: One
`,
    );
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

  it('values from the environment: ${env:NAME} in a certificate, unknown to plan when it is not set and refused by apply, $${env:NAME} is the text', async () => {
    const path = file(
      'env.yaml',
      'version: 1\nsaml:\n  - label: Okta\n    certificate: ${env:OKTA_CERT}\ncollections:\n  - title: "$${env:TEAM} docs"\n    key: team\n',
    );
    const unset = await sb.run(['orgs', 'plan', '-f', path]);
    expect(unset.exitCode, unset.stderr).toBe(0);
    expect(unset.stdout).toContain('certificate: "unknown: ${env:OKTA_CERT} is not set here (apply needs it to create the provider)"');
    const refused = await sb.run(['orgs', 'apply', '-f', path, '--yes']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('${env:OKTA_CERT}: the environment variable OKTA_CERT is not set, and apply would send its value: nothing was applied');
    const set = await sb.run(['orgs', 'plan', '-f', path, '--json'], { env: { OKTA_CERT: PEM } });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout).changes.find((c: { kind: string }) => c.kind === 'collection')).toMatchObject({
      action: 'create',
      key: 'team',
      title: '${env:TEAM} docs',
    });
  });

  it('--json plan shape', async () => {
    const path = file('j.yaml', 'version: 1\ncollections:\n  - title: Handbook\n    description: How we work now\n');
    const { exitCode, plan: p } = await plan(path);
    expect(exitCode).toBe(2);
    expect(p).toEqual({
      organization: 'org-acme',
      source: path,
      prune: false,
      summary: { create: 0, update: 1, move: 0, delete: 0 },
      changes: [
        {
          kind: 'collection',
          action: 'update',
          key: 'handbook',
          id: 'col-handbook',
          title: 'Handbook',
          fields: [{ field: 'description', from: 'How we work', to: 'How we work now' }],
        },
      ],
      drift: [],
      kept: [],
    });
  });

  it('orgs schema prints the JSON Schema of the file', async () => {
    const r = await sb.run(['orgs', 'schema']);
    expect(r.exitCode).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.$schema).toMatch(/json-schema\.org/);
    expect(schema.properties.version).toBeDefined();
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['collections', 'spaces', 'sites', 'teams', 'members', 'saml', 'openapi']));
  });

  it('serve --seed takes an organization file: the sandbox starts shaped like it', async () => {
    await applyBase();
    const org = file('prod.yaml', (await sb.run(['orgs', 'export'])).stdout);
    const { serveJson } = await import('../helpers/cli.js');
    const { info, stop } = await serveJson(['--seed', org], { PATH: process.env.PATH ?? '', HOME: dir });
    try {
      const env = { HOME: dir, DOCSCTL_CONFIG_DIR: dir, DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: info.token, DOCSCTL_ORG: info.organizationId };
      const r = await docsctlInProcess(['orgs', 'plan', '-f', org, '--json'], env);
      const p = JSON.parse(r.stdout);
      // The members of production are not the sandbox's users: shown as what apply cannot make, nothing else differs.
      expect(p.changes.filter((c: { kind: string }) => c.kind !== 'member')).toEqual([]);
      const tree = await docsctlInProcess(['orgs', 'export'], env);
      const data = parse(tree.stdout);
      expect(data.sites[0].sections.map((s: { key: string }) => s.key)).toEqual(['guides', 'api']);
      expect(data.collections.map((c: { key: string }) => c.key).sort()).toEqual(['api', 'archive', 'guides', 'handbook']);
    } finally {
      await stop();
    }
    const bad = await docsctl(['serve', '--memory', '--port', '0', '--seed', file('bad-seed.yaml', 'version: 1\ncollections:\n  - titel: x\n')], {
      PATH: process.env.PATH ?? '',
      HOME: dir,
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-seed.yaml:3:5: collections[0].titel: unknown field "titel"');
    // With --json, as every command's error: one JSON object on stderr, nothing on stdout.
    const json = await docsctl(['serve', '--memory', '--port', '0', '--json', '--seed', join(dir, 'bad-seed.yaml')], {
      PATH: process.env.PATH ?? '',
      HOME: dir,
    });
    expect(json).toMatchObject({ exitCode: 2, stdout: '' });
    expect(JSON.parse(json.stderr).error).toMatchObject({ exitCode: 2, message: expect.stringContaining('collections[0].titel: unknown field "titel"') });
  });
});

/** Org files are untrusted input (issue 22): a file from a pull request runs in CI with secrets in the environment. */
describe('hostile organization files', () => {
  const SECRET = 'hunter2-very-secret-value';
  const samlCount = async () => (await sb.request('GET', '/v1/orgs/org-acme/saml')).body.items.length as number;
  const collectionCount = async () => (await sb.request('GET', '/v1/orgs/org-acme/collections')).body.count as number;
  /** A file with one SAML provider whose certificate is `certificate` (YAML text). */
  const samlFile = (name: string, certificate: string) => file(name, `version: 1\nsaml:\n  - label: Okta\n    certificate: ${certificate}\n`);

  it('${env:NAME} outside a field that takes a secret is an error at its place: nothing printed, nothing sent', async () => {
    const before = await collectionCount();
    const path = file('leak.yaml', 'version: 1\ncollections:\n  - title: "${env:DOCSCTL_TOKEN}"\n  - title: x\n    description: "id ${env:LEAKED}"\n');
    for (const cmd of [['plan'], ['plan', '--json'], ['apply', '--yes']]) {
      const r = await sb.run(['orgs', ...cmd, '-f', path], { env: { LEAKED: SECRET } });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${path}:3:12: collections[0].title: \${env:DOCSCTL_TOKEN}: only a field that takes a secret (saml[].certificate) takes a value from the environment`,
      );
      expect(r.stderr).toContain(`${path}:5:18: collections[1].description: \${env:LEAKED}: only a field that takes a secret`);
      expect(r.stderr).not.toContain(sb.token('admin'));
      expect(r.stderr).not.toContain(SECRET);
    }
    expect(await collectionCount()).toBe(before);
  });

  it('docsctl’s own variables are never read, even where a secret goes; a value that is no certificate is refused without being quoted', async () => {
    const own = await sb.run(['orgs', 'apply', '--yes', '-f', samlFile('own.yaml', '${env:DOCSCTL_TOKEN}')]);
    expect(own.exitCode).toBe(2);
    expect(own.stderr).toContain(
      "saml[0].certificate: ${env:DOCSCTL_TOKEN}: docsctl's own variables (DOCSCTL_…, its credentials among them) are never read by an organization file",
    );
    expect(own.stderr).not.toContain(sb.token('admin'));
    const notCert = await sb.run(['orgs', 'apply', '--yes', '-f', samlFile('other.yaml', '${env:OTHER}')], { env: { OTHER: SECRET } });
    expect(notCert.exitCode).toBe(2);
    expect(notCert.stderr).toMatch(/other\.yaml:4:18: saml\[0\]\.certificate: \$\{env:OTHER\}: not a certificate/);
    expect(notCert.stderr + notCert.stdout).not.toContain(SECRET);
    // An anchor would let an alias copy the value into any field.
    const anchored = await sb.run(
      ['orgs', 'plan', '-f', file('anchor.yaml', 'version: 1\nsaml:\n  - label: Okta\n    certificate: &c ${env:OKTA_CERT}\ncollections:\n  - title: *c\n')],
      { env: { OKTA_CERT: PEM } },
    );
    expect(anchored.exitCode).toBe(2);
    expect(anchored.stderr).toContain('a value from the environment cannot have an anchor (&c)');
    expect(await samlCount()).toBe(0);
  });

  it('a certificate from the environment is shown by the variable’s name and its fingerprint, never its text, and compared right', async () => {
    const path = samlFile('cert.yaml', '${env:OKTA_CERT}');
    const planned = await sb.run(['orgs', 'plan', '-f', path], { env: { OKTA_CERT: PEM } });
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(planned.stdout).toContain(`certificate: "${FINGERPRINT} (\${env:OKTA_CERT})"`);
    const applied = await sb.run(['orgs', 'apply', '-f', path, '--yes'], { env: { OKTA_CERT: PEM } });
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect((await sb.request('GET', '/v1/orgs/org-acme/saml')).body.items[0].certificate).toBe(PEM);
    // The same certificate: no change; another: its fingerprint, from → to, in text and JSON.
    expect((await sb.run(['orgs', 'plan', '-f', path], { env: { OKTA_CERT: PEM } })).exitCode).toBe(0);
    const changed = await sb.run(['orgs', 'plan', '-f', path, '--json', '--detailed-exitcode'], { env: { OKTA_CERT: PEM_2 } });
    expect(changed.exitCode, changed.stderr).toBe(2);
    expect(JSON.parse(changed.stdout).changes).toEqual([
      expect.objectContaining({
        kind: 'saml',
        action: 'update',
        fields: [{ field: 'certificate', from: FINGERPRINT, to: `${FINGERPRINT_2} (\${env:OKTA_CERT})` }],
      }),
    ]);
    const text = await sb.run(['orgs', 'apply', '-f', path, '--yes'], { env: { OKTA_CERT: PEM_2 } });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stderr).toContain(`certificate: "${FINGERPRINT}" → "${FINGERPRINT_2} (\${env:OKTA_CERT})"`);
    for (const out of [planned.stdout, planned.stderr, changed.stdout, text.stdout, text.stderr]) {
      expect(out).not.toContain(bodyOf(PEM).slice(0, 40));
      expect(out).not.toContain(bodyOf(PEM_2).slice(0, 40));
    }
    expect((await sb.request('GET', '/v1/orgs/org-acme/saml')).body.items[0].certificate).toBe(PEM_2);
  });

  it('certificate files: regular files in the org file’s folder only, bounded, checked as one certificate; else exit 2 naming the path and the rule, at once, nothing sent', async () => {
    const { execFileSync } = await import('node:child_process');
    const token = sb.token('admin');
    writeFileSync(join(dir, 'okta.pem'), PEM);
    mkdirSync(join(dir, 'certs'));
    writeFileSync(join(dir, 'certs', 'inside.pem'), PEM);
    symlinkSync(join(dir, 'certs', 'inside.pem'), join(dir, 'linked.pem'));
    execFileSync('mkfifo', [join(dir, 'fifo.pem')]);
    symlinkSync('/proc/self/environ', join(dir, 'environ.pem'));
    symlinkSync('/dev/zero', join(dir, 'zero.pem'));
    writeFileSync(join(dir, 'token.pem'), `DOCSCTL_TOKEN=${token}\n`);
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    writeFileSync(join(dir, 'bundle.pem'), PEM + key);
    writeFileSync(join(dir, 'big.pem'), PEM + ' '.repeat(10_000));
    const cases: [string, string][] = [
      ['/dev/zero', "it leads outside the organization file's folder (to /dev/zero): a certificate file must be in that folder or below it"],
      ['zero.pem', "it leads outside the organization file's folder (to /dev/zero)"],
      ['/proc/self/environ', "it leads outside the organization file's folder (to /proc/"],
      ['environ.pem', "it leads outside the organization file's folder (to /proc/"],
      ['missing.pem', 'cannot read it (ENOENT)'],
      ['fifo.pem', 'a FIFO: a certificate file must be a regular file'],
      ['certs', 'a folder: a certificate file must be a regular file'],
      ['token.pem', 'not a certificate'],
      ['bundle.pem', 'it holds a PRIVATE KEY block: a certificate field takes one certificate and nothing else'],
      ['big.pem', `${PEM.length + 10_000} bytes: a certificate file may have at most 10000 bytes`],
    ];
    for (const [given, rule] of cases) {
      const path = samlFile(`f-${given.replace(/\W/g, '')}.yaml`, `{ file: "${given}" }`);
      for (const cmd of [['plan'], ['apply', '--yes']]) {
        const t0 = Date.now();
        const r = await sb.run(['orgs', ...cmd, '-f', path]);
        expect(Date.now() - t0, given).toBeLessThan(15_000);
        expect(r.exitCode, `${given}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`${path}:4:26: saml[0].certificate.file: ${given}: ${rule}`);
        expect(r.stderr).not.toContain(token);
      }
    }
    // Outside the folder, a real certificate is not taken either.
    const sub = samlFile('certs/sub.yaml', '{ file: ../okta.pem }');
    const outside = await sb.run(['orgs', 'plan', '-f', sub]);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain(
      `${sub}:4:26: saml[0].certificate.file: ../okta.pem: it leads outside the organization file's folder (to ${join(dir, 'okta.pem')})`,
    );
    expect(await samlCount()).toBe(0);
    // A link inside the folder to a file inside it is followed; the fingerprint names the file.
    const ok = await sb.run(['orgs', 'plan', '-f', samlFile('ok.yaml', '{ file: linked.pem }')]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`certificate: "${FINGERPRINT} (linked.pem)"`);
  });

  it('an alias bomb is a bad file (exit 2, aliases are limited), not an internal error', async () => {
    const path = file(
      'bomb.yaml',
      'version: 1\ncollections: &a [{ title: a }]\nx: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\ny: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nz: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
    );
    const r = await sb.run(['orgs', 'plan', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${path}:3:8: aliases are limited to 100 copies of an anchored value (nested aliases multiply), and this file's make more`);
    expect(r.stderr).not.toContain('bug in docsctl');
  });

  it('reserved names as fields get no nonsense hint', async () => {
    const path = file('proto.yaml', 'version: 1\n__proto__: { a: 1 }\ncollections:\n  - title: A\n    constructor: 1\n    prototype: 2\n');
    const r = await sb.run(['orgs', 'plan', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${path}:2:1: __proto__: unknown field "__proto__" (a reserved name, never a field)`);
    expect(r.stderr).toContain(`${path}:5:5: collections[0].constructor: unknown field "constructor" (a reserved name, never a field)`);
    expect(r.stderr).toContain(`${path}:6:5: collections[0].prototype: unknown field "prototype" (a reserved name, never a field)`);
    expect(r.stderr).not.toMatch(/did you mean|\[object Object\]|native code/);
  });

  it('an org file is bounded in size, checked before it is read (DOCSCTL_ORG_FILE_MAX_BYTES raises it); /dev/zero ends at once', async () => {
    const huge = file('huge.yaml', '');
    truncateSync(huge, 50 * 1024 * 1024); // sparse: 50 MB that take no disk
    for (const path of [huge, '/dev/zero']) {
      const t0 = Date.now();
      const r = await sb.run(['orgs', 'plan', '-f', path]);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`larger than 4 MiB, the limit of an organization file (DOCSCTL_ORG_FILE_MAX_BYTES raises it)`);
    }
    const small = file('small.yaml', 'version: 1\ncollections:\n  - title: Handbook\n');
    const lowered = await sb.run(['orgs', 'plan', '-f', small], { env: { DOCSCTL_ORG_FILE_MAX_BYTES: '20' } });
    expect(lowered.exitCode).toBe(2);
    expect(lowered.stderr).toContain(`${small}: 44 bytes: larger than 20 bytes, the limit of an organization file`);
    expect((await sb.run(['orgs', 'plan', '-f', small], { env: { DOCSCTL_ORG_FILE_MAX_BYTES: '44' } })).exitCode).toBe(0);
    const bad = await sb.run(['orgs', 'plan', '-f', small], { env: { DOCSCTL_ORG_FILE_MAX_BYTES: '1k' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('DOCSCTL_ORG_FILE_MAX_BYTES: must be a whole number of bytes');
  });

  it('a second -f adds its file to the first (one organization), never replaces it: --prune keeps what the first declares', async () => {
    await applyBase();
    const before = await collectionCount();
    const a = file('a.yaml', 'version: 1\ncollections:\n  - title: Guides\n');
    const b = file('b.yaml', 'version: 1\ncollections:\n  - title: API\n    key: api\n');
    const r = await sb.run(['orgs', 'plan', '-f', a, '--file', b, '--prune', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const deleted = JSON.parse(r.stdout)
      .changes.filter((c: { action: string }) => c.action === 'delete')
      .map((c: { key: string }) => c.key);
    expect(deleted).not.toContain('guides');
    expect(deleted).not.toContain('api');
    expect(deleted).toContain('archive');
    expect(await collectionCount()).toBe(before);
  });

  it('serve --seed reads org files through the same rules: a certificate from /dev/zero or a FIFO stops it at once', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(dir, 'seed-fifo.pem')]);
    for (const given of ['/dev/zero', 'seed-fifo.pem']) {
      const path = samlFile(`seed-${given.replace(/\W/g, '')}.yaml`, `{ file: "${given}" }`);
      const t0 = Date.now();
      const r = await docsctl(['serve', '--memory', '--port', '0', '--seed', path], { PATH: process.env.PATH ?? '', HOME: dir });
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`${path}:4:26: saml[0].certificate.file: ${given}: `);
    }
  });
});
