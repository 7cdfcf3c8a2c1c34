/** `orgs export --update FILE` (issue 26): the file rewritten from the organization, its keys, comments, order and ${env:} kept; `moved:` notes. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const PEM = readFileSync(resolve(import.meta.dirname, '../fixtures/saml-idp.pem'), 'utf8');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docsctl-update-'));
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** An organization written by hand: keys from titles, no ids. */
const BASE = `version: 1
collections:
  - title: Guides
  - title: API
    key: api
  - title: Handbook
spaces:
  - title: Welcome
    parent: handbook
  - title: Getting started
    parent: guides
  - title: Reference
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
`;

async function ok(args: string[], env: Record<string, string> = {}) {
  const r = await sb.run(args, { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}

/** `orgs plan --json --prune --detailed-exitcode`: the changes as `action kind key`. */
async function planned(path: string, env: Record<string, string> = {}) {
  const r = await sb.run(['orgs', 'plan', '-f', path, '--json', '--prune', '--detailed-exitcode'], { env });
  expect([0, 2], r.stderr).toContain(r.exitCode);
  const plan = JSON.parse(r.stdout);
  return { exitCode: r.exitCode, changes: plan.changes.map((c: { action: string; kind: string; key: string }) => `${c.action} ${c.kind} ${c.key}`).sort() };
}

const spaceId = async (title: string) =>
  (await sb.request('GET', '/v1/orgs/org-acme/spaces')).body.items.find((s: { title: string }) => s.title === title).id as string;

/** The lines of `after` that are not those of `before`, and the reverse. */
function diff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return { removed: a.filter((l) => !b.includes(l)), added: b.filter((l) => !a.includes(l)) };
}

describe('orgs export --update', () => {
  it('after a rename in the app, keeps keys, comments, order and ${env:}: only the changed line differs, and plan is clean', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    await ok(['orgs', 'apply', '-f', file('saml.yaml', 'version: 1\nsaml:\n  - label: Okta\n    certificate: ${env:OKTA_CERT}\n'), '--yes'], {
      OKTA_CERT: PEM,
    });
    // The team's file: exported once, then edited by hand (a comment, the certificate from CI's secrets).
    const doc = parseDocument((await ok(['orgs', 'export'])).stdout);
    doc.setIn(['saml', 0, 'certificate'], doc.createNode('${env:OKTA_CERT}'));
    const spaces = doc.get('spaces') as { items: { get(k: string): unknown; commentBefore?: string }[] };
    spaces.items.find((s) => s.get('key') === 'getting-started')!.commentBefore = ' the entry point of the guides';
    const before = doc.toString({ lineWidth: 0 });
    const path = file('org.yaml', before);
    expect((await planned(path, { OKTA_CERT: PEM })).exitCode).toBe(0);

    expect((await sb.request('PATCH', `/v1/spaces/${await spaceId('Getting started')}`, { title: 'Start here' })).status).toBe(200);
    // Drift detection: --check says so (exit 1) and writes nothing.
    const check = await sb.run(['orgs', 'export', '--update', path, '--check']);
    expect(check.exitCode, check.stderr).toBe(1);
    expect(check.stderr).toContain('~ space getting-started: title');
    expect(readFileSync(path, 'utf8')).toBe(before);

    // No OKTA_CERT here: the reference is kept, not needed.
    const updated = await ok(['orgs', 'export', '--update', path]);
    expect(updated.stdout).toBe('');
    expect(updated.stderr).toContain(`wrote ${path}: 0 items added, 0 removed, 1 changed`);
    expect(updated.stderr).toContain('~ space getting-started: title');
    expect(updated.stderr).not.toContain('plan would still change');
    const after = readFileSync(path, 'utf8');
    expect(diff(before, after)).toEqual({ removed: ['    title: Getting started'], added: ['    title: Start here'] });
    expect(after).toContain('# the entry point of the guides\n  - key: getting-started');
    expect(after).toContain('certificate: ${env:OKTA_CERT}');
    expect(after.split('\n').length).toBe(before.split('\n').length);
    expect(await planned(path, { OKTA_CERT: PEM })).toEqual({ exitCode: 0, changes: [] });

    // Up to date: nothing written, --check exits 0.
    const again = await ok(['orgs', 'export', '--update', path, '--check']);
    expect(again.stderr).toContain('up to date');
    expect(readFileSync(path, 'utf8')).toBe(after);
  });

  it('items added and removed in the app are added and removed; a title-derived key whose title changed is written, so references hold', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    const path = file('org.yaml', `# by hand\n${BASE}`);
    // Once: the ids are added (with them a rename in the app still matches), nothing else.
    const first = await ok(['orgs', 'export', '--update', path]);
    expect(first.stderr).toMatch(/0 items added, 0 removed, \d+ changed/);
    expect(diff(`# by hand\n${BASE}`, readFileSync(path, 'utf8')).removed).toEqual([]);
    expect((await sb.request('PATCH', `/v1/spaces/${await spaceId('Getting started')}`, { title: 'Start here' })).status).toBe(200);
    expect((await sb.request('DELETE', `/v1/spaces/${await spaceId('Welcome')}`)).status).toBe(204);
    expect((await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Changelog' })).status).toBe(201);
    const r = await ok(['orgs', 'export', '--update', path]);
    expect(r.stderr).toContain('+ space changelog');
    expect(r.stderr).toContain('- space welcome');
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('# by hand\n')).toBe(true);
    const data = parse(text);
    const started = data.spaces.find((s: { title: string }) => s.title === 'Start here');
    expect(started).toMatchObject({ key: 'getting-started', parent: 'guides', id: expect.any(String) });
    expect(data.spaces.map((s: { title: string }) => s.title)).toEqual(['Start here', 'Reference', 'Changelog']);
    expect(text).toMatch(/- key: getting-started\n {4}title: Start here\n {4}id: \S+\n {4}parent: guides\n/);
    // Fields the file left out stay out (not managed).
    expect(started.emoji).toBeUndefined();
    expect(data.sites[0].sections[0].siteSpaces[0].space).toBe('getting-started');
    expect(await planned(path)).toEqual({ exitCode: 0, changes: [] });
  });

  it('a site’s structure follows the app: a section renamed and moved first keeps its key, its comment and its site spaces', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    const text = `${(await ok(['orgs', 'export'])).stdout}\n`.replace('      - key: api\n', '      # the reference\n      - key: api\n');
    const path = file('org.yaml', text);
    const site = parse(text).sites[0];
    const [guides, api] = site.sections;
    const sections = `/v1/orgs/org-acme/sites/${site.id}/sections`;
    expect((await sb.request('PATCH', `${sections}/${api.id}`, { title: 'API reference' })).status).toBe(200);
    expect((await sb.request('POST', `${sections}/${api.id}/move`, { position: { before: { type: 'site-section', siteSection: guides.id } } })).status).toBe(
      200,
    );
    expect((await planned(path)).changes).toEqual(['move section api', 'update section api']);
    const r = await ok(['orgs', 'export', '--update', path]);
    expect(r.stderr).toContain('~ site public-docs: sections');
    const after = readFileSync(path, 'utf8');
    expect(parse(after).sites[0].sections.map((x: { key: string }) => x.key)).toEqual(['api', 'guides']);
    expect(diff(text, after)).toEqual({ removed: ['        title: API'], added: ['        title: API reference'] });
    expect(after).toMatch(/sections:\n {6}# the reference\n {6}- key: api\n[\s\S]*- key: guides\n/);
    expect(await planned(path)).toEqual({ exitCode: 0, changes: [] });
  });

  it('many changes made elsewhere at once: the file follows, keeps its comments, and plans clean with --prune', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    const exported = `${(await ok(['orgs', 'export'])).stdout}\n`;
    const ours = file('ours.yaml', exported.replace('collections:\n', 'collections:\n  # top-level collections\n'));
    // Someone else changes the organization with their own copy of the file.
    const theirs = parse(exported);
    theirs.collections.find((c: { key: string }) => c.key === 'guides').title = 'Tutorials';
    theirs.spaces.find((x: { key: string }) => x.key === 'reference').parent = 'guides';
    theirs.spaces.push({ key: 'faq', title: 'FAQ', parent: 'handbook' });
    theirs.members.find((m: { key: string }) => m.key === 'rex-reader').role = 'edit';
    const site = theirs.sites[0];
    site.sections.push({ group: true, title: 'More', sections: [{ title: 'Help', path: 'help', siteSpaces: [{ space: 'faq', path: 'faq' }] }] });
    site.sections[0].siteSpaces.push({ space: 'welcome', path: 'welcome' });
    await ok(['orgs', 'apply', '-f', file('theirs.yaml', JSON.stringify(theirs)), '--yes']);

    const r = await ok(['orgs', 'export', '--update', ours]);
    expect(r.stderr).toContain('1 item added, 0 removed, 4 changed');
    expect(r.stderr).toContain('+ space faq');
    expect(r.stderr).toContain('~ collection guides: title');
    expect(r.stderr).toContain('~ space reference: parent');
    expect(r.stderr).toContain('~ member rex-reader: role');
    expect(r.stderr).toContain('~ site public-docs: sections');
    expect(r.stderr).not.toContain('plan would still change');
    const after = readFileSync(ours, 'utf8');
    expect(after).toContain('collections:\n  # top-level collections\n  - key: handbook\n');
    // Keys kept: the renamed collection is still `guides`, and what refers to it still says so.
    expect(parse(after).spaces.find((x: { key: string }) => x.key === 'getting-started').parent).toBe('guides');
    expect(await planned(ours)).toEqual({ exitCode: 0, changes: [] });
    // And a fresh export would have renamed it: the diff --update spares.
    expect(parse((await ok(['orgs', 'export'])).stdout).collections.map((c: { key: string }) => c.key)).toContain('tutorials');
  });

  it('a moved: note makes a key and title changed together a rename: plan updates, export --update keeps the new key', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    const renamed = BASE.replace('  - title: Getting started\n', '  - title: Start here\n    key: start-here\n').replace(
      'space: getting-started',
      'space: start-here',
    );
    // Without the note: the old space deleted and a new one created (its content lost).
    expect((await planned(file('no-note.yaml', renamed))).changes).toEqual(expect.arrayContaining(['create space start-here', 'delete space getting-started']));
    const path = file('moved.yaml', `${renamed}moved:\n  - { kind: spaces, from: getting-started, to: start-here }\n`);
    expect((await planned(path)).changes).toEqual(['update space start-here']);

    // Export --update matches the same way: the key stays, the title is the app's, the id is added.
    const exported = file('export.yaml', readFileSync(path, 'utf8'));
    const r = await ok(['orgs', 'export', '--update', exported]);
    expect(r.stderr).toMatch(/: 0 items added, 0 removed, \d+ changed\n/);
    expect(r.stderr).toContain('~ space start-here: id, title\n');
    const data = parse(readFileSync(exported, 'utf8'));
    expect(data.spaces[1]).toMatchObject({ key: 'start-here', title: 'Getting started', id: await spaceId('Getting started') });
    expect(data.moved).toEqual([{ kind: 'spaces', from: 'getting-started', to: 'start-here' }]);

    const applied = await ok(['orgs', 'apply', '-f', path, '--yes', '--prune']);
    expect(applied.stderr).toContain('Applied');
    expect(await spaceId('Start here')).toBe(data.spaces[1].id);
    expect(await planned(path)).toEqual({ exitCode: 0, changes: [] });
  });

  it('a moved: note that names no key of the file, or a key still there, is a bad file', async () => {
    const bad = file(
      'bad.yaml',
      `${BASE}moved:\n  - { kind: spaces, from: welcome, to: start-here }\n  - { kind: sites, from: old, to: public-docs }\n  - { kind: spaces, from: reference, to: welcome }\n`,
    );
    const r = await sb.run(['orgs', 'plan', '-f', bad]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${bad}:27:40: moved[0].to: no item of spaces has the key "start-here" in this file`);
    expect(r.stderr).not.toContain('moved[1]');
    expect(r.stderr).toContain(`${bad}:29:27: moved[2].from: "reference" is still a key of spaces in this file`);
  });

  it('a file that does not parse, or breaks the schema, is refused (exit 2, at its place) and nothing is written', async () => {
    await ok(['orgs', 'apply', '-f', file('base.yaml', BASE), '--yes']);
    const broken = 'version: 1\nspaces:\n  - title: [unclosed\n';
    const path = file('broken.yaml', broken);
    const r = await sb.run(['orgs', 'export', '--update', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${path}:\\d+:\\d+: `));
    expect(r.stderr).toContain('nothing was written');
    const wrong = file('wrong.yaml', 'version: 1\nspaces:\n  - title: Welcome\n    colour: red\n');
    const w = await sb.run(['orgs', 'export', '--update', wrong]);
    expect(w.exitCode).toBe(2);
    expect(w.stderr).toContain(`${wrong}:4:5: spaces[0].colour: unknown field "colour"`);
    expect(readFileSync(path, 'utf8')).toBe(broken);
    expect(readFileSync(wrong, 'utf8')).toBe('version: 1\nspaces:\n  - title: Welcome\n    colour: red\n');
    expect(readdirSync(dir).sort()).toEqual(['base.yaml', 'broken.yaml', 'wrong.yaml']);
    expect((await sb.run(['orgs', 'export', '--check'])).exitCode).toBe(2);
    expect((await sb.run(['orgs', 'export', '--update', wrong, '--out', 'x.yaml'])).exitCode).toBe(2);
  });
});
