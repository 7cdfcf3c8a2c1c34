import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox, type RunOptions } from '../helpers/inprocess.js';

const sb = useSandbox();
const ORG = '/v1/orgs/org-acme';

async function newSpace(title: string): Promise<string> {
  const r = await sb.request('POST', `${ORG}/spaces`, { title });
  expect(r.status).toBe(201);
  return r.body.id;
}

async function newSite(body: Record<string, unknown> = {}): Promise<any> {
  const r = await sb.request('POST', `${ORG}/sites`, { title: 'Docs', ...body });
  expect(r.status).toBe(201);
  return r.body;
}

/** Ids of a published structure, nested as it is: sections and groups with their children. */
function shape(nodes: any[]): unknown[] {
  return nodes.map((n) =>
    n.object === 'site-section-group'
      ? { group: n.id, children: shape(n.children) }
      : n.object === 'site-section'
        ? { section: n.id, siteSpaces: n.siteSpaces.map((ss: any) => ss.id) }
        : n.id,
  );
}

const state = async () => (await sb.request('GET', '/_sandbox/state')).body;

/**
 * docsctl with the ids after `--`: the sandbox's random ids may begin with "-", which commander
 * would read as an option. Flags (whose values may be ids) come before.
 */
function argv(command: string, ids: string[], flags: string[]): string[] {
  return [...command.split(' '), ...flags, ...(ids.length ? ['--', ...ids] : [])];
}
const run = (command: string, ids: string[] = [], flags: string[] = [], opts: RunOptions = {}) => sb.run(argv(command, ids, flags), opts);
async function json(command: string, ids: string[] = [], flags: string[] = [], opts: RunOptions = {}): Promise<any> {
  const r = await run(command, ids, ['--json', ...flags], opts);
  if (r.exitCode !== 0) throw new Error(`docsctl ${command} exited ${r.exitCode}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('sites', () => {
  it('creates, gets, updates, lists and deletes sites', async () => {
    const created = await json('sites create', [], ['--title', 'Developer docs', '--space', 'sp-welcome']);
    expect(created).toMatchObject({
      object: 'site',
      title: 'Developer docs',
      type: 'basic',
      appliedType: 'basic',
      visibility: 'public',
      published: false,
      siteSpaces: 1,
      agentsContext: 'included',
      adaptiveContent: { enabled: false },
      defaultLevel: 'inherit',
      features: [],
    });
    expect(created.urls.location).toBe(`${sb.server.url}${ORG}/sites/${created.id}`);
    expect(created.urls.preview).toBe(`${sb.server.url}/app/o/org-acme/sites/${created.id}/preview`);

    const other = await json('sites create', [], ['--title', 'Handbook', '--type', 'premium', '--visibility', 'unlisted']);
    expect(other).toMatchObject({ type: 'premium', appliedType: 'premium', visibility: 'unlisted', siteSpaces: 0 });
    expect(other.features).toEqual([{ id: 'sites-advanced-customization', plan: 'premium', frozen: false }]);

    const updated = await json(
      'sites update',
      [created.id],
      ['--title', 'Dev docs', '--visibility', 'share-link', '--basename', 'docs', '--agents-context', 'excluded', '--adaptive-content', 'true'],
    );
    expect(updated).toMatchObject({
      title: 'Dev docs',
      visibility: 'share-link',
      basename: 'docs',
      agentsContext: 'excluded',
      adaptiveContent: { enabled: true },
    });
    // a basic site using premium and ultimate settings lists those features, with the plan they belong to
    expect(updated.features.map((f: any) => `${f.id}@${f.plan}`)).toEqual(['sites-share-links@premium', 'sites-adaptive-content@ultimate']);
    expect(updated.urls.published).toMatch(new RegExp(`^${sb.server.url}/s/${created.id}/docs\\?shareKey=[\\w-]+$`));

    const proxied = await json('sites update', [created.id], ['--proxy', 'acme.example/docs']);
    expect(proxied.proxy).toEqual({ origin: 'acme.example/docs', target: `${sb.server.url}/s/${created.id}` });
    expect(proxied.urls.published).toMatch(/^https:\/\/acme\.example\/docs\?shareKey=/);
    expect(proxied.features.map((f: any) => f.id)).toContain('sites-custom-subdirectory');
    const unproxied = await json('sites update', [created.id], ['--proxy', 'null']);
    expect(unproxied.proxy).toBeUndefined();
    expect(unproxied.features.map((f: any) => f.id)).not.toContain('sites-custom-subdirectory');

    expect(await json('sites get', [created.id])).toEqual(unproxied);
    expect((await json('sites list', [])).map((s: any) => s.id)).toEqual([created.id, other.id]);
    expect((await json('sites list', [], ['--space', 'sp-welcome'])).map((s: any) => s.id)).toEqual([created.id]);
    expect((await json('sites list', [], ['--title', 'HAND'])).map((s: any) => s.id)).toEqual([other.id]);

    const published = await json('sites publish', [created.id]);
    expect(published.published).toBe(true);
    expect((await json('sites list', [], ['--published', 'true'])).map((s: any) => s.id)).toEqual([created.id]);
    expect((await json('sites list', [], ['--published', 'false'])).map((s: any) => s.id)).toEqual([other.id]);
    expect((await json('sites unpublish', [created.id])).published).toBe(false);

    const tsv = await run('sites list', [], ['--fields', 'id,title,published']);
    expect(tsv.stdout).toBe(`${created.id}\tDev docs\tfalse\n${other.id}\tHandbook\tfalse`);

    const refused = await run('sites delete', [created.id]);
    expect(refused.exitCode).toBe(2);
    const del = await run('sites delete', [created.id], ['--yes']);
    expect(del).toMatchObject({ exitCode: 0, stdout: '', stderr: `deleted site ${created.id}` });
    expect((await sb.request('GET', `${ORG}/sites/${created.id}`)).status).toBe(404);
    expect((await sb.request('DELETE', `${ORG}/sites/${created.id}`)).status).toBe(204);
    // its structure went with it; the space stayed
    const sites = (await state()).data.slices.$map.find(([k]: [string]) => k === 'sites')[1];
    expect(sites.siteSpaces.$map).toEqual([]);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(200);
  });

  it('builds sections, a group and site spaces, moves them every way, and publishes exactly that order', async () => {
    const [a, b, c, d, e, f] = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta'].map(newSpace));
    const site = await newSite();
    const add = async (space: string, title: string) => json('sites sections add', [site.id], ['--space', space, '--title', title]);
    const s1 = await add(a, 'One');
    const s2 = await add(b, 'Two');
    const s3 = await add(c, 'Three');
    expect([s1.default, s2.default, s3.default]).toEqual([true, false, false]);
    expect(s1).toMatchObject({ path: 'one', siteSpaces: [{ path: 'alpha', default: true, section: s1.id, space: { id: a } }] });
    const [ssA, ssB, ssC] = [s1, s2, s3].map((s) => s.siteSpaces[0].id);

    const ssD = (await json('sites spaces add', [site.id], ['--space', d])).id; // default section: One
    const ssE = (await json('sites spaces add', [site.id], ['--space', e, '--section', s2.id])).id;
    const ssF = (await json('sites spaces add', [site.id], ['--space', f, '--section', s3.id])).id;

    const group = await json('sites section-groups add', [site.id], ['--title', 'Products', '--section', s2.id, '--section', s3.id]);
    expect(group.children.map((ch: any) => ch.id)).toEqual([s2.id, s3.id]);
    const published = async () => (await json('sites published', [site.id])).structure;
    expect(shape((await published()).structure)).toEqual([
      { section: s1.id, siteSpaces: [ssA, ssD] },
      {
        group: group.id,
        children: [
          { section: s2.id, siteSpaces: [ssB, ssE] },
          { section: s3.id, siteSpaces: [ssC, ssF] },
        ],
      },
    ]);

    // a section up, inside its group
    await json('sites sections move', [site.id, s3.id], ['--before', s2.id]);
    // the group up, at the root
    await json('sites section-groups move', [site.id, group.id], ['--before', s1.id]);
    // a section into the group, between its two sections
    const joined = await json('sites sections move', [site.id, s1.id], ['--after', s3.id]);
    expect(joined.sectionGroup).toBe(group.id);
    // and out again, after the group
    const left = await json('sites sections move', [site.id, s1.id], ['--after', group.id]);
    expect(left.sectionGroup).toBeUndefined();
    // site spaces: up within a section, down into another section, then up there
    await json('sites spaces move', [site.id, ssD], ['--before', ssA]);
    const crossed = await json('sites spaces move', [site.id, ssF], ['--after', ssE]);
    expect(crossed.section).toBe(s2.id);
    await json('sites spaces move', [site.id, ssF], ['--before', ssB]);
    await json('sites spaces move', [site.id, ssB], ['--after', ssE]);

    const structure = await published();
    expect(structure.type).toBe('sections');
    expect(shape(structure.structure)).toEqual([
      {
        group: group.id,
        children: [
          { section: s3.id, siteSpaces: [ssC] },
          { section: s2.id, siteSpaces: [ssF, ssE, ssB] },
        ],
      },
      { section: s1.id, siteSpaces: [ssD, ssA] },
    ]);
    // every list returns the same order
    expect((await json('sites sections list', [site.id])).map((s: any) => s.id)).toEqual([s3.id, s2.id, s1.id]);
    expect((await json('sites spaces list', [site.id])).map((s: any) => s.id)).toEqual([ssC, ssF, ssE, ssB, ssD, ssA]);
    const groups = await json('sites section-groups list', [site.id]);
    expect(groups.map((g: any) => [g.id, g.children.map((ch: any) => ch.id)])).toEqual([[group.id, [s3.id, s2.id]]]);
    // defaults did not move with the items: One is still the default section, each section keeps its default
    const byId = Object.fromEntries((await json('sites spaces list', [site.id])).map((s: any) => [s.id, s.default]));
    expect(byId).toEqual({ [ssC]: true, [ssF]: false, [ssE]: false, [ssB]: true, [ssD]: false, [ssA]: true });
    expect((await json('sites get', [site.id])).siteSpaces).toBe(6);

    // a nested group, and the TSV of the sections list in its documented columns
    const inner = await json('sites section-groups add', [site.id], ['--title', 'Inner', '--parent', group.id, '--section', s2.id]);
    expect(inner.sectionGroup).toBe(group.id);
    expect(shape((await published()).structure)).toEqual([
      {
        group: group.id,
        children: [
          { section: s3.id, siteSpaces: [ssC] },
          { group: inner.id, children: [{ section: s2.id, siteSpaces: [ssF, ssE, ssB] }] },
        ],
      },
      { section: s1.id, siteSpaces: [ssD, ssA] },
    ]);
    const tsv = await run('sites sections list', [site.id]);
    // (the site was never published: every section is a draft)
    expect(tsv.stdout.split('\n')).toEqual([
      `${s3.id}\tThree\tthree\tfalse\t${group.id}\t${ssC}\t\t\ttrue`,
      `${s2.id}\tTwo\ttwo\tfalse\t${inner.id}\t${ssF},${ssE},${ssB}\t\t\ttrue`,
      `${s1.id}\tOne\tone\ttrue\t\t${ssD},${ssA}\t\t\ttrue`,
    ]);
  });

  it('keeps one default section and one default site space per section through changes and deletes', async () => {
    const [a, b, c, d] = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map(newSpace));
    const site = await newSite({ spaces: [a, b] });
    const root = await json('sites spaces list', [site.id]);
    expect(root.map((s: any) => [s.space.id, s.default, s.section])).toEqual([
      [a, true, undefined],
      [b, false, undefined],
    ]);
    expect((await json('sites published', [site.id])).structure.type).toBe('siteSpaces');

    // the default goes to the next one when the default goes
    await run('sites spaces remove', [site.id, root[0].id], ['--yes']);
    expect((await json('sites spaces list', [site.id], ['--default', 'true'])).map((s: any) => s.id)).toEqual([root[1].id]);

    // the first section of a site with site spaces takes them into a section of their own
    const second = await json('sites sections add', [site.id], ['--space', c]);
    const sections = await json('sites sections list', [site.id]);
    expect(sections.map((s: any) => [s.title, s.default, s.siteSpaces.map((ss: any) => ss.id)])).toEqual([
      ['Beta', true, [root[1].id]],
      ['Gamma', false, [second.siteSpaces[0].id]],
    ]);
    const defaults = await json('sites spaces list', [site.id], ['--default', 'true']);
    expect(defaults.map((s: any) => s.id)).toEqual([root[1].id, second.siteSpaces[0].id]);
    expect(await json('sites spaces list', [site.id], ['--default', 'false'])).toEqual([]);

    // the default section, and a section's default site space, change on request
    const switched = await json('sites update', [site.id], ['--default-site-section', second.id]);
    expect(switched.urls.published).toBe(`${sb.server.url}/s/${site.id}`);
    const listed = await json('sites sections list', [site.id]);
    expect(listed.map((s: any) => s.default)).toEqual([false, true]);
    expect(listed[1].urls.published).toBe(`${sb.server.url}/s/${site.id}`);
    expect(listed[0].urls.published).toBe(`${sb.server.url}/s/${site.id}/beta`);
    const ssD = await json('sites spaces add', [site.id], ['--space', d]);
    expect(ssD).toMatchObject({ section: second.id, default: false, urls: { published: `${sb.server.url}/s/${site.id}/delta` } });
    await json('sites update', [site.id], ['--default-site-space', ssD.id]);
    expect((await json('sites sections list', [site.id]))[1].siteSpaces.map((ss: any) => ss.default)).toEqual([false, true]);
    // a site space outside the default section cannot be the site's default
    const wrong = await run('sites update', [site.id], ['--default-site-space', root[1].id]);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toContain(`defaultSiteSpace: site space ${root[1].id} is not in the default section ${second.id}`);
    const notHere = await run('sites sections update', [site.id, listed[0].id], ['--default-site-space', ssD.id]);
    expect(notHere.exitCode).toBe(1);
    expect(notHere.stderr).toContain(`defaultSiteSpace: no site space ${ssD.id} in section ${listed[0].id}`);

    // deleting the default site space, then the default section, hands the defaults on
    await run('sites spaces remove', [site.id, ssD.id], ['--yes']);
    expect((await json('sites sections list', [site.id]))[1].siteSpaces.map((ss: any) => ss.default)).toEqual([true]);
    await run('sites sections remove', [site.id, second.id], ['--yes']);
    const left = await json('sites sections list', [site.id]);
    expect(left.map((s: any) => [s.id, s.default])).toEqual([[listed[0].id, true]]);
    expect((await json('sites get', [site.id])).siteSpaces).toBe(1);
    // its site spaces went with it; a missing section answers 204 too
    expect((await sb.request('DELETE', `${ORG}/sites/${site.id}/sections/${second.id}`)).status).toBe(204);
    await run('sites sections remove', [site.id, listed[0].id], ['--yes']);
    const empty = await json('sites published', [site.id]);
    expect(empty.structure).toEqual({ type: 'siteSpaces', structure: [] });
    expect(empty.site.siteSpaces).toBe(0);
  });

  it('removes groups in place, takes sections out of groups, and drops site spaces of purged spaces', async () => {
    const spaces = await Promise.all(['A', 'B', 'C', 'D'].map((t) => newSpace(`Space ${t}`)));
    const site = await newSite();
    const ids: string[] = [];
    for (const space of spaces) ids.push((await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: space })).body.id);
    const [s1, s2, s3, s4] = ids;
    const g = (await sb.request('POST', `${ORG}/sites/${site.id}/section-groups`, { title: 'G', sections: [s2, s3] })).body;
    const order = async () =>
      shape((await sb.request('GET', `${ORG}/sites/${site.id}/published`)).body.structure.structure).map(
        (n: any) => n.section ?? { group: n.group, children: n.children.map((ch: any) => ch.section) },
      );
    expect(await order()).toEqual([s1, { group: g.id, children: [s2, s3] }, s4]);

    // taking a section out puts it just after the group; 204 also when it is not in the group
    const out = await run('sites section-groups remove-section', [site.id, g.id, s2]);
    expect(out.exitCode).toBe(0);
    expect(await order()).toEqual([s1, { group: g.id, children: [s3] }, s2, s4]);
    expect((await sb.request('DELETE', `${ORG}/sites/${site.id}/section-groups/${g.id}/sections/${s2}`)).status).toBe(204);
    expect((await sb.request('DELETE', `${ORG}/sites/${site.id}/section-groups/${g.id}/sections/nope`)).status).toBe(204);
    expect((await sb.request('DELETE', `${ORG}/sites/${site.id}/section-groups/nope/sections/${s2}`)).status).toBe(404);

    // adding appends to the group; adding again changes nothing
    const added = await json('sites section-groups add-section', [site.id, g.id, s1]);
    expect(added.children.map((ch: any) => ch.id)).toEqual([s3, s1]);
    expect((await json('sites section-groups add-section', [site.id, g.id, s1])).children.map((ch: any) => ch.id)).toEqual([s3, s1]);
    const unknown = await run('sites section-groups add-section', [site.id, g.id, 'nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain(`sectionId: no section nope in site ${site.id}`);

    // deleting the group puts its sections back in its place, in order
    await json('sites section-groups update', [site.id, g.id], ['--title', 'Renamed', '--icon', 'layers']);
    await run('sites section-groups remove', [site.id, g.id], ['--yes']);
    expect(await order()).toEqual([s3, s1, s2, s4]);
    expect(await json('sites section-groups list', [site.id])).toEqual([]);

    // a space deleted for good leaves the site; while only deleted, the published site leaves it out
    expect((await sb.request('DELETE', `/v1/spaces/${spaces[0]}`)).status).toBe(204);
    const during = (await sb.request('GET', `${ORG}/sites/${site.id}/published`)).body.structure.structure;
    expect(during.find((s: any) => s.id === s1).siteSpaces).toEqual([]);
    expect((await sb.request('GET', `${ORG}/sites/${site.id}/site-spaces`)).body.count).toBe(4);
    expect((await sb.request('POST', '/_sandbox/clock', { advance: '8d' })).status).toBe(200);
    const after = (await sb.request('GET', `${ORG}/sites/${site.id}/site-spaces`)).body;
    expect(after.items.map((ss: any) => ss.space.id)).toEqual([spaces[2], spaces[1], spaces[3]]);
    expect((await sb.request('GET', `${ORG}/sites/${site.id}`)).body.siteSpaces).toBe(3);
  });

  it('opens a share-link site to visitors with its key only, and to members always', async () => {
    const site = await newSite({ visibility: 'share-link', spaces: ['sp-welcome'] });
    const key = new URL(site.urls.published).searchParams.get('shareKey')!;
    expect(key).toMatch(/^[\w-]{20}$/);
    // only admins see the key
    const asReader = await json('sites get', [site.id], [], { as: 'read' });
    expect(asReader.urls.published).toBe(`${sb.server.url}/s/${site.id}`);

    // unpublished: members may look, visitors not even with the key
    expect((await run('sites published', [site.id], [], { as: 'read' })).exitCode).toBe(0);
    const early = await run('sites published', [site.id], ['--share-key', key], { as: 'outsider' });
    expect(early.exitCode).toBe(4);
    expect(early.stderr).toContain(`no site ${site.id}`);
    await run('sites publish', [site.id]);

    const withKey = await json('sites published', [site.id], ['--share-key', key], { as: 'outsider' });
    expect(withKey.site.urls.published).toBe(`${sb.server.url}/s/${site.id}?shareKey=${key}`);
    expect(withKey.structure.structure.map((ss: any) => ss.space.id)).toEqual(['sp-welcome']);
    expect(withKey.structure.structure[0].urls.published).toContain(`?shareKey=${key}`);
    for (const [command, flags, as] of [
      ['sites published', [], 'outsider'],
      ['sites published', ['--share-key', 'wrong'], 'outsider'],
      ['sites published', [], 'guest'],
      ['sites published', ['--share-key', 'wrong'], 'read'],
      ['sites spaces list', [], 'outsider'],
    ] as const) {
      const r = await run(command, [site.id], [...flags], { as });
      expect(r.exitCode, `${command} ${flags.join(' ')} as ${as}`).toBe(4);
    }
    const member = await json('sites published', [site.id], [], { as: 'read' });
    expect(member.site.urls.published).toBe(`${sb.server.url}/s/${site.id}`);
    // the lists that take a shareKey follow the same rule
    const sections = await sb.request('GET', `${ORG}/sites/${site.id}/site-spaces?shareKey=${key}`, undefined, 'outsider');
    expect(sections.status).toBe(200);
    expect(sections.body.items[0].space.permissions.view).toBe(false);
    expect((await sb.request('GET', `${ORG}/sites/${site.id}/sections?shareKey=${key}`, undefined, 'outsider')).body).toEqual({ count: 0, items: [] });
    // but nothing else
    expect((await sb.request('GET', `${ORG}/sites/${site.id}`, undefined, 'outsider')).status).toBe(404);

    // a public site needs no key; a visitor-auth site is closed to visitors
    await json('sites update', [site.id], ['--visibility', 'public']);
    expect((await run('sites published', [site.id], [], { as: 'outsider' })).exitCode).toBe(0);
    expect((await json('sites published', [site.id], ['--share-key', 'ignored'], { as: 'outsider' })).site.urls.published).toBe(
      `${sb.server.url}/s/${site.id}`,
    );
    await json('sites update', [site.id], ['--visibility', 'visitor-auth']);
    expect((await run('sites published', [site.id], [], { as: 'outsider' })).exitCode).toBe(4);
  });

  it('keeps the adaptive schema: accepted and rejected files, and the conditions it offers', async () => {
    const site = await newSite();
    const initial = await json('sites schema get', [site.id]);
    expect(initial.jsonSchema.properties.unsigned).toEqual({
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: {},
      additionalProperties: false,
    });
    expect(initial.updatedAt).toBe(site.createdAt);
    expect(await json('sites schema conditions', [site.id])).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), 'docsctl-schema-'));
    const file = (name: string, value: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
      return path;
    };
    const good = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        unsigned: {
          type: 'object',
          description: 'Unsigned claims of the site visitor.',
          properties: { beta: { type: 'boolean', description: 'Beta testers' }, staff: { type: 'boolean', description: '' } },
          additionalProperties: false,
        },
        paid: { type: 'boolean', description: '' },
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        seats: { type: 'number', description: '' },
      },
      additionalProperties: false,
    };
    const saved = await json('sites schema set', [site.id, file('good.json', good)]);
    expect(saved).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: good });
    const conditions = await run('sites schema conditions', [site.id]);
    expect(conditions.stdout.split('\n')).toEqual([
      'visitor.claims.unsigned.beta === true\tVisitors whose unsigned claim beta is true: Beta testers',
      'visitor.claims.unsigned.staff === true\tVisitors whose unsigned claim staff is true',
      'visitor.claims.paid === true\tVisitors whose claim paid is true',
      'visitor.claims.plan === "free"\tVisitors whose claim plan is "free": Plan',
      'visitor.claims.plan === "pro"\tVisitors whose claim plan is "pro": Plan',
      'visitor.claims.seats !== undefined\tVisitors whose claim seats is set',
    ]);
    // a schema without unsigned claims is the document's too
    const signedOnly = { type: 'object', properties: { paid: { type: 'boolean', description: 'Paying' } }, additionalProperties: false };
    expect((await json('sites schema set', [site.id, file('signed.json', signedOnly)])).jsonSchema).toEqual(signedOnly);
    expect((await run('sites schema conditions', [site.id])).stdout).toBe('visitor.claims.paid === true\tVisitors whose claim paid is true: Paying');
    const stdin = await json('sites schema set', [site.id, '-'], [], { input: JSON.stringify(good) });
    expect(stdin.jsonSchema).toEqual(good);

    const open = structuredClone(good);
    open.properties.unsigned.additionalProperties = true as false;
    const rejected: [string, unknown, string][] = [
      ['open.json', open, 'properties.unsigned.additionalProperties: must be one of false'],
      ['nodescription.json', { ...good, properties: { ...good.properties, plan: { type: 'string' } } }, 'properties.plan.description: is required'],
      [
        'integer.json',
        { ...good, properties: { ...good.properties, n: { type: 'integer', description: 'N' } } },
        'properties.n.type: does not match any allowed form',
      ],
      ['open-top.json', { type: 'object', properties: {} }, 'additionalProperties: is required'],
      [
        'draft-https.json',
        { ...good, $schema: 'https://json-schema.org/draft-07/schema#' },
        '$schema: must be one of "http://json-schema.org/draft-07/schema#"',
      ],
      ['array.json', [], '(the schema): must be an object'],
      ['broken.json', '{"type": ', 'not valid JSON'],
    ];
    for (const [name, value, message] of rejected) {
      const path = file(name, value);
      const r = await run('sites schema set', [site.id, path]);
      expect(r.exitCode, name).toBe(2);
      expect(r.stderr, name).toContain(`${path}: ${message}`);
    }
    const missing = await run('sites schema set', [site.id, join(dir, 'none.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('cannot read it (ENOENT)');

    // the server refuses the same with 400 naming the field, and keeps what it had
    const put = (jsonSchema: unknown) => sb.request('PUT', `${ORG}/sites/${site.id}/adaptive-schema`, { jsonSchema });
    expect((await put(open)).body).toEqual({ error: { code: 400, message: 'jsonSchema.properties.unsigned.additionalProperties: must be one of false' } });
    expect((await put({ ...good, $schema: 'http://json-schema.org/draft-04/schema#' })).body.error.message).toMatch(/^jsonSchema\.\$schema: must be one of/);
    const extra = structuredClone(good) as any;
    extra.properties.unsigned.properties.beta.default = false;
    expect((await put(extra)).body.error.message).toBe('jsonSchema.properties.unsigned.properties.beta: unknown field "default"');
    expect((await put('text')).status).toBe(400);
    expect((await sb.request('GET', `${ORG}/sites/${site.id}/adaptive-schema`)).body).toEqual(stdin);

    // reading needs read, writing needs admin
    expect((await run('sites schema conditions', [site.id], [], { as: 'read' })).exitCode).toBe(0);
    const denied = await run('sites schema set', [site.id, file('good2.json', good)], [], { as: 'create' });
    expect(denied.exitCode).toBe(5);
    expect(denied.stderr).toContain('needs the admin role or above; you have create');

    // any claim name the document takes, with a condition that can name it
    const dashed = structuredClone(good) as any;
    dashed.properties.unsigned.properties = { 'beta-tester': { type: 'boolean', description: '' } };
    await json('sites schema set', [site.id, file('dashed.json', dashed)]);
    expect((await run('sites schema conditions', [site.id])).stdout.split('\n')[0]).toBe(
      'visitor.claims.unsigned["beta-tester"] === true\tVisitors whose unsigned claim beta-tester is true',
    );
  });

  it('rejects invalid positions (exit 2 before sending, 1 from the server) and unknown items (exit 4), changing nothing', async () => {
    const [a, b, c, d] = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map(newSpace));
    const site = await newSite();
    const s1 = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: a })).body;
    const s2 = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: b })).body;
    const s3 = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: d })).body;
    // the top level: s1, g (holding s2), s3
    const g = (await sb.request('POST', `${ORG}/sites/${site.id}/section-groups`, { title: 'G', sections: [s2.id] })).body;
    const other = await newSite({ spaces: [c] });
    const otherSection = (await sb.request('POST', `${ORG}/sites/${other.id}/sections`, { spaceId: c })).body;
    const before = await state();

    const local: [string, string, string[], string][] = [
      ['sites sections move', s1.id, ['--before', s2.id, '--last'], '--last and --before cannot be used together'],
      ['sites sections move', s1.id, [], 'nowhere to move'],
      ['sites section-groups move', g.id, ['--before', s1.id, '--before-group', g.id], '--before and --before-group cannot be used together'],
      ['sites sections move', s1.id, ['--before', ''], '--before: must not be empty'],
      ['sites section-groups move', g.id, ['--after', ''], '--after: must not be empty'],
      ['sites spaces move', s1.siteSpaces[0].id, [], 'nowhere to move'],
    ];
    for (const [command, item, flags, message] of local) {
      const r = await run(command, [site.id, item], flags);
      expect(r.exitCode, `${command} ${flags.join(' ')}`).toBe(2);
      expect(r.stderr).toContain(message);
    }

    const server: [string, string, string[], string][] = [
      ['sites sections move', s1.id, ['--before', 'nope'], `position.before.siteSection: no section or section group nope in site ${site.id}`],
      [
        'sites sections move',
        s1.id,
        ['--after', otherSection.id],
        `position.after.siteSection: no section or section group ${otherSection.id} in site ${site.id}`,
      ],
      ['sites sections move', s1.id, ['--after', s1.id], 'position.after.siteSection: a section cannot be placed relative to itself'],
      [
        'sites section-groups move',
        g.id,
        ['--before', s2.id],
        'position.before.id: a section group cannot be placed relative to itself or to an item inside it',
      ],
      [
        'sites section-groups move',
        g.id,
        ['--before', otherSection.id],
        `position.before.id: no section or section group ${otherSection.id} in site ${site.id}`,
      ],
      [
        'sites spaces move',
        s1.siteSpaces[0].id,
        ['--after', otherSection.siteSpaces[0].id],
        `position.after.siteSpace: no site space ${otherSection.siteSpaces[0].id} in site ${site.id}`,
      ],
      // between two neighbours: they must be next to each other, in one list
      ['sites sections move', s3.id, ['--after', g.id, '--before', s1.id], `position: ${g.id} and ${s1.id} are not next to each other`],
      ['sites sections move', s3.id, ['--after', s2.id, '--before', s1.id], `position: ${s2.id} and ${s1.id} are not next to each other`],
      [
        'sites spaces move',
        s3.siteSpaces[0].id,
        ['--after', s1.siteSpaces[0].id, '--before', s2.siteSpaces[0].id],
        `position: ${s1.siteSpaces[0].id} and ${s2.siteSpaces[0].id} are not next to each other`,
      ],
      // a group names a group with site-section-group
      ['sites section-groups move', g.id, ['--before-group', s1.id], `position.before.id: no section group ${s1.id} in site ${site.id}`],
    ];
    for (const [command, item, flags, message] of server) {
      const r = await run(command, [site.id, item], flags);
      expect(r.exitCode, `${command} ${flags.join(' ')}`).toBe(1);
      expect(r.stderr).toContain(message);
    }

    const unknown: [string, string[], string[]][] = [
      ['sites sections move', [site.id, 'nope'], ['--before', s1.id]],
      ['sites section-groups move', [site.id, 'nope'], ['--before', s1.id]],
      ['sites spaces move', [site.id, 'nope'], ['--before', s1.siteSpaces[0].id]],
      ['sites sections move', ['no-site', s1.id], ['--before', s2.id]],
    ];
    for (const [command, ids, flags] of unknown) {
      const r = await run(command, ids, flags);
      expect(r.exitCode, `${command} ${ids.join(' ')}`).toBe(4);
    }
    expect((await run('sites sections move', [site.id, 'nope'], ['--before', s1.id])).stderr).toContain(`no section nope in site ${site.id}`);

    // the server's own checks of a malformed position
    const move = (body: unknown) => sb.request('POST', `${ORG}/sites/${site.id}/sections/${s1.id}/move`, body);
    const both = { position: { before: { type: 'site-section', siteSection: s2.id }, after: { type: 'site-section', siteSection: s2.id } } };
    expect((await move(both)).body.error.message).toBe(`position: ${s2.id} and ${s2.id} are not next to each other`);
    expect((await move({ position: { before: { type: 'space', siteSection: s2.id } } })).body.error.message).toBe(
      'position.before.type: must be one of "site-section"',
    );
    expect(await state()).toEqual(before);
    // a position with neither side leaves it where it is
    const stays = await move({ position: {} });
    expect(stays.status).toBe(200);
    expect(stays.body.id).toBe(s1.id);
    expect(await state()).toEqual(before);
  });

  it('moves with the official document’s every position: between two neighbours, next to a group, to the end', async () => {
    const spaces = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon'].map(newSpace));
    const site = await newSite();
    const sections: any[] = [];
    for (const space of spaces.slice(0, 4)) sections.push((await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: space })).body);
    const [a, b, c, d] = sections.map((x) => x.id);
    const top = async () => (await json('sites published', [site.id])).structure.structure.map((n: any) => n.id);
    expect(await top()).toEqual([a, b, c, d]);

    // a group takes the place of its first section; another group goes next to it, relative to a group
    const g1 = await json('sites section-groups add', [site.id], ['--title', 'First', '--section', b]);
    const g2 = await json('sites section-groups add', [site.id], ['--title', 'Second', '--section', d]);
    expect(await top()).toEqual([a, g1.id, c, g2.id]);
    await json('sites section-groups move', [site.id, g2.id], ['--before-group', g1.id]);
    expect(await top()).toEqual([a, g2.id, g1.id, c]);
    await json('sites section-groups move', [site.id, g1.id], ['--after', c]);
    expect(await top()).toEqual([a, g2.id, c, g1.id]);
    // between two neighbours, a section or a group
    await json('sites sections move', [site.id, a], ['--after', c, '--before', g1.id]);
    expect(await top()).toEqual([g2.id, c, a, g1.id]);
    await json('sites section-groups move', [site.id, g1.id], ['--after-group', g2.id, '--before', c]);
    expect(await top()).toEqual([g2.id, g1.id, c, a]);
    // into a group between its two children
    await json('sites sections move', [site.id, b], ['--after', d]);
    const joined = await json('sites sections move', [site.id, c], ['--after', d, '--before', b]);
    expect(joined.sectionGroup).toBe(g2.id);
    expect((await json('sites section-groups list', [site.id])).map((g: any) => [g.id, g.children.map((ch: any) => ch.id)])).toEqual([
      [g2.id, [d, c, b]],
      [g1.id, []],
    ]);
    // --last: a section leaves its group for the end of the site; a group goes to the end too
    const last = await json('sites sections move', [site.id, c], ['--last']);
    expect(last.sectionGroup).toBeUndefined();
    expect(await top()).toEqual([g2.id, g1.id, a, c]);
    await json('sites section-groups move', [site.id, g2.id], ['--last']);
    expect(await top()).toEqual([g1.id, a, c, g2.id]);

    // site spaces: between two neighbours, and to the end of their own section
    const extra: string[] = [];
    for (const space of [spaces[4], 'sp-welcome']) extra.push((await json('sites spaces add', [site.id], ['--space', space, '--section', a])).id);
    const first = sections[0].siteSpaces[0].id;
    const ssOf = async () => (await json('sites sections list', [site.id])).find((x: any) => x.id === a).siteSpaces.map((ss: any) => ss.id);
    expect(await ssOf()).toEqual([first, ...extra]);
    await json('sites spaces move', [site.id, extra[1]], ['--after', first, '--before', extra[0]]);
    expect(await ssOf()).toEqual([first, extra[1], extra[0]]);
    await json('sites spaces move', [site.id, first], ['--last']);
    expect(await ssOf()).toEqual([extra[1], extra[0], first]);
  });

  it('keeps new items drafts until the site is published, shows drafts to members only, and flips them on publish', async () => {
    const [a, b, c, d] = await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map(newSpace));
    const site = await json('sites create', [], ['--title', 'Drafts', '--space', a]);
    const s1 = await json('sites sections add', [site.id], ['--space', b]);
    const g = await json('sites section-groups add', [site.id], ['--title', 'G']);
    // never published: every item is a draft
    const drafts = async () => {
      const sections = await json('sites sections list', [site.id]);
      const siteSpaces = await json('sites spaces list', [site.id]);
      const groups = await json('sites section-groups list', [site.id]);
      return Object.fromEntries([...sections, ...siteSpaces, ...groups].map((x: any) => [x.id, x.draft]));
    };
    const ssA = (await json('sites spaces list', [site.id]))[0].id;
    const first = (await json('sites sections list', [site.id]))[0].id; // made from the site's own site spaces
    expect(await drafts()).toEqual({ [first]: true, [s1.id]: true, [ssA]: true, [s1.siteSpaces[0].id]: true, [g.id]: true });

    // publishing makes every item live
    await json('sites publish', [site.id]);
    expect(Object.values(await drafts()).every((draft) => draft === false)).toBe(true);

    // on a published site a new item is live, unless it is added as a draft
    const live = await json('sites sections add', [site.id], ['--space', c]);
    expect(live.draft).toBe(false);
    const hidden = await json('sites sections add', [site.id], ['--space', d, '--draft']);
    expect(hidden).toMatchObject({ draft: true, siteSpaces: [{ draft: true }] });
    const ssDraft = await json('sites spaces add', [site.id], ['--space', d, '--section', live.id, '--draft']);
    expect(ssDraft.draft).toBe(true);
    await json('sites section-groups update', [site.id, g.id], ['--draft', 'true']);
    await json('sites section-groups add-section', [site.id, g.id, s1.id]);

    // visitors see no draft, nor what is inside a draft group; members see them all, marked
    const asVisitor = await json('sites published', [site.id], [], { as: 'outsider' });
    expect(asVisitor.structure.structure.map((n: any) => n.id)).toEqual([first, live.id]);
    expect(asVisitor.structure.structure[1].siteSpaces.map((ss: any) => ss.id)).toEqual([live.siteSpaces[0].id]);
    expect((await json('sites sections list', [site.id], [], { as: 'outsider' })).map((x: any) => x.id)).toEqual([first, live.id]);
    expect((await json('sites spaces list', [site.id], [], { as: 'outsider' })).map((x: any) => x.id)).toEqual([ssA, live.siteSpaces[0].id]);
    const asMember = await json('sites published', [site.id], [], { as: 'read' });
    expect(shape(asMember.structure.structure)).toEqual([
      { section: first, siteSpaces: [ssA] },
      { group: g.id, children: [{ section: s1.id, siteSpaces: [s1.siteSpaces[0].id] }] },
      { section: live.id, siteSpaces: [live.siteSpaces[0].id, ssDraft.id] },
      { section: hidden.id, siteSpaces: [hidden.siteSpaces[0].id] },
    ]);
    expect(asMember.structure.structure[1].draft).toBe(true);

    // an item made live by update shows to visitors at once
    await json('sites section-groups update', [site.id, g.id], ['--draft', 'false']);
    await json('sites sections update', [site.id, hidden.id], ['--draft', 'false']);
    await json('sites spaces update', [site.id, hidden.siteSpaces[0].id], ['--draft', 'false']);
    expect((await json('sites sections list', [site.id], [], { as: 'outsider' })).map((x: any) => x.id)).toEqual([first, s1.id, live.id, hidden.id]);
    expect((await json('sites spaces list', [site.id], [], { as: 'outsider' })).map((x: any) => x.id)).not.toContain(ssDraft.id);

    // unpublished again: what is added is a draft until the next publish, which publishes it
    await json('sites unpublish', [site.id]);
    const later = await json('sites spaces add', [site.id], ['--space', a, '--section', live.id]);
    expect(later.draft).toBe(true);
    expect((await json('sites sections list', [site.id])).find((x: any) => x.id === live.id).draft).toBe(false);
    await json('sites publish', [site.id]);
    const after = await json('sites spaces list', [site.id], [], { as: 'outsider' });
    expect(after.map((x: any) => x.id)).toEqual(expect.arrayContaining([later.id, ssDraft.id]));
  });

  it('follows the site’s type: the six types, appliedType, features and advanced customization; lists by type', async () => {
    const made: Record<string, any> = {};
    for (const type of ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium']) {
      made[type] = await json('sites create', [], ['--title', `A ${type} site`, '--type', type, '--space', 'sp-welcome']);
      expect(made[type]).toMatchObject({ type, appliedType: type });
    }
    const advanced = Object.fromEntries(
      Object.entries(made).map(([type, site]) => [type, site.features.some((f: any) => f.id === 'sites-advanced-customization')]),
    );
    expect(advanced).toEqual({ basic: false, premium: true, ultimate: true, sponsored: true, 'legacy-basic': false, 'legacy-premium': true });
    for (const [type, site] of Object.entries(made)) {
      const [ss] = await json('sites spaces list', [site.id]);
      expect(ss.hasAdvancedCustomizationFeature, type).toBe(advanced[type]);
      const profile = await json('sites published', [site.id]);
      expect(profile.customizations.site.advancedCustomization.enabled, type).toBe(advanced[type]);
    }
    // settings in use add their features
    await json('sites sections add', [made.basic.id], ['--space', 'sp-welcome']);
    await json('sites spaces add', [made.basic.id], ['--space', 'sp-welcome']);
    expect((await json('sites get', [made.basic.id])).features.map((f: any) => f.id)).toEqual(['sites-multivariant-site', 'sites-sections']);

    const listed = await json('sites list', [], ['--type', 'sponsored', '--type', 'legacy-basic']);
    expect(listed.map((s: any) => s.id)).toEqual([made.sponsored.id, made['legacy-basic'].id]);
    const bad = await run('sites list', [], ['--type', 'gold']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--type');
  });

  it('raises members’ roles on a site with its default level, and gives each caller its permissions', async () => {
    const site = await json('sites create', [], ['--title', 'Levels', '--space', 'sp-welcome']);
    const all = {
      view: true,
      access: true,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: true,
    };
    expect(site.permissions).toEqual(all);
    expect((await json('sites get', [site.id], [], { as: 'read' })).permissions).toEqual({
      ...all,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      editAdaptiveSchema: false,
    });
    expect((await json('sites get', [site.id], [], { as: 'edit' })).permissions).toMatchObject({ edit: true, create: false, admin: false });
    expect((await run('sites get', [site.id], [], { as: 'guest' })).exitCode).toBe(5);
    expect((await run('sites sections add', [site.id], ['--space', 'sp-welcome'], { as: 'edit' })).exitCode).toBe(5);

    // admin for every member: an editor manages the structure; a guest is not raised
    const raised = await json('sites update', [site.id], ['--default-level', 'admin']);
    expect(raised.defaultLevel).toBe('admin');
    expect((await json('sites get', [site.id], [], { as: 'edit' })).permissions).toEqual(all);
    const byEditor = await run('sites sections add', [site.id], ['--space', 'sp-welcome', '--json'], { as: 'edit' });
    expect(byEditor.exitCode).toBe(0);
    expect((await run('sites get', [site.id], [], { as: 'guest' })).exitCode).toBe(5);
    // a site's level does not give the organization's create role: no new space
    const noSpace = await run('sites sections add', [site.id], ['--new-space', '--title', 'Fresh'], { as: 'edit' });
    expect(noSpace.exitCode).toBe(5);
    expect(noSpace.stderr).toContain('creating a space (spaceId null) needs the create role or above; you have edit');

    // read for every member: still nothing for a guest
    await json('sites update', [site.id], ['--default-level', 'read']);
    expect((await run('sites get', [site.id], [], { as: 'guest' })).exitCode).toBe(5);
    // inherit: members keep their own role; none: only admins (and grants) reach the site
    for (const level of ['inherit', 'null']) {
      const back = await json('sites update', [site.id], ['--default-level', level]);
      expect(back.defaultLevel).toBe(level === 'null' ? null : level);
      expect((await run('sites sections add', [site.id], ['--space', 'sp-welcome'], { as: 'edit' })).exitCode).toBe(5);
      expect((await run('sites get', [site.id], [], { as: 'guest' })).exitCode).toBe(5);
    }
    // each member's booleans say what the sandbox lets them do, with and without a raising level
    const schema = { type: 'object', properties: {}, additionalProperties: false };
    const base = `${ORG}/sites/${site.id}`;
    const tries: Record<string, (as: string) => Promise<number>> = {
      access: async (as) => (await sb.request('GET', base, undefined, as)).status,
      viewAdaptiveSchema: async (as) => (await sb.request('GET', `${base}/adaptive-schema`, undefined, as)).status,
      editAdaptiveSchema: async (as) => (await sb.request('PUT', `${base}/adaptive-schema`, { jsonSchema: schema }, as)).status,
      admin: async (as) => (await sb.request('PATCH', base, { title: 'Levels' }, as)).status,
      create: async (as) => (await sb.request('POST', `${base}/section-groups`, { title: `By ${as}` }, as)).status,
    };
    for (const level of ['null', 'comment', 'admin']) {
      await json('sites update', [site.id], ['--default-level', level]);
      for (const as of ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest']) {
        const got = await sb.request('GET', base, undefined, as);
        const permissions = got.status === 200 ? got.body.permissions : {};
        for (const [flag, attempt] of Object.entries(tries)) {
          expect((await attempt(as)) < 300, `${flag} of ${as} with default level ${level}`).toBe(permissions[flag] === true);
        }
      }
    }
    await json('sites update', [site.id], ['--default-level', 'null']);

    // a visitor views the published site, and nothing more
    await json('sites publish', [site.id]);
    const visitor = await json('sites published', [site.id], [], { as: 'outsider' });
    expect(visitor.site.permissions).toEqual({
      view: true,
      access: false,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: false,
      editAdaptiveSchema: false,
    });
  });

  it('takes the official document’s new inputs end to end: new spaces, templates, home pages, titles, groups, free paths and icons', async () => {
    const site = await newSite();
    const g = await json('sites section-groups add', [site.id], ['--title', 'G']);
    // a section with a new space built from a template, straight into a group
    const made = await json(
      'sites sections add',
      [site.id],
      ['--new-space', '--template', 'getting-started', '--title', 'Getting started', '--group', g.id, '--icon', 'Rocket Ship'],
    );
    expect(made).toMatchObject({ title: 'Getting started', sectionGroup: g.id, icon: 'Rocket Ship', siteSpaces: [{ title: 'Getting started' }] });
    const newSpaceId = made.siteSpaces[0].space.id;
    expect((await sb.request('GET', `/v1/spaces/${newSpaceId}`)).body).toMatchObject({ title: 'Getting started' });
    // its pages, read from the sandbox's state (the content family's answers are not this file's to check)
    const dump = await state();
    const revisionId = dump.data.spaces.$map.find(([id]: [string]) => id === newSpaceId)[1].revision;
    const pages = dump.data.revisions.$map.find(([id]: [string]) => id === revisionId)[1].content.pages;
    expect(pages.map((p: any) => p.title)).toEqual(['Getting started', 'FAQ']);
    const page = pages[1].id;

    // a site space with its own title and home page; the page goes when the space changes
    const ss = await json('sites spaces add', [site.id], ['--space', newSpaceId, '--section', made.id, '--title', 'Version 2', '--page-id', page]);
    expect(ss).toMatchObject({ title: 'Version 2', pageId: page, space: { id: newSpaceId } });
    expect((await json('sites spaces update', [site.id, ss.id], ['--page-id', 'null'])).pageId).toBeUndefined();
    expect((await json('sites spaces update', [site.id, ss.id], ['--page-id', page])).pageId).toBe(page);
    const moved = await json('sites spaces update', [site.id, ss.id], ['--space', 'sp-welcome']);
    expect(moved.pageId).toBeUndefined();
    expect(moved.title).toBe('Version 2');
    const wrongPage = await run('sites spaces update', [site.id, ss.id], ['--page-id', page]);
    expect(wrongPage.exitCode).toBe(1);
    expect(wrongPage.stderr).toContain(`pageId: no page ${page} in space sp-welcome`);

    // a new site space's new space takes its title
    const fresh = await json('sites spaces add', [site.id], ['--new-space', '--title', 'Changelog', '--section', made.id]);
    expect(fresh).toMatchObject({ title: 'Changelog', space: { title: 'Changelog' } });
    // a space's title is at most 50 characters: the new space gets the first 50, the site space keeps it whole
    const long = 'A changelog of every release, month by month, since the first one';
    const longer = await json('sites spaces add', [site.id], ['--new-space', '--title', long, '--section', made.id]);
    expect(longer).toMatchObject({ title: long, space: { title: long.slice(0, 50) } });
    await run('sites spaces remove', [site.id, longer.id], ['--yes']);

    // free paths (carried encoded in URLs), an empty condition, any icon name
    const other = await json('sites sections add', [site.id], ['--space', 'sp-welcome', '--title', 'Other']);
    const edited = await json('sites sections update', [site.id, other.id], ['--path', 'Guides & Tips', '--condition', '', '--icon', 'ü']);
    expect(edited).toMatchObject({ path: 'Guides & Tips', condition: '', icon: 'ü' });
    expect(edited.urls.published).toBe(`${sb.server.url}/s/${site.id}/Guides%20%26%20Tips`);
    const ssPath = await json('sites spaces update', [site.id, other.siteSpaces[0].id], ['--path', 'v1/legacy']);
    expect(ssPath.path).toBe('v1/legacy');

    // sections and groups move into groups and back with their updates
    const intoGroup = await json('sites sections update', [site.id, other.id], ['--group', g.id]);
    expect(intoGroup.sectionGroup).toBe(g.id);
    const g2 = await json('sites section-groups add', [site.id], ['--title', 'Inner']);
    expect((await json('sites section-groups update', [site.id, g2.id], ['--parent', g.id])).sectionGroup).toBe(g.id);
    expect(shape((await json('sites published', [site.id])).structure.structure)).toEqual([
      {
        group: g.id,
        children: [
          { section: made.id, siteSpaces: [made.siteSpaces[0].id, ss.id, fresh.id] },
          { section: other.id, siteSpaces: [other.siteSpaces[0].id] },
          { group: g2.id, children: [] },
        ],
      },
    ]);
    const groupView = (await json('sites section-groups list', [site.id]))[0];
    expect(groupView.sections.map((x: any) => x.id)).toEqual([made.id, other.id]);
    expect((await json('sites sections update', [site.id, other.id], ['--group', 'null'])).sectionGroup).toBeUndefined();
    expect((await json('sites section-groups update', [site.id, g2.id], ['--parent', 'null'])).sectionGroup).toBeUndefined();
    expect((await json('sites published', [site.id])).structure.structure.map((n: any) => n.id)).toEqual([g.id, other.id, g2.id]);

    // null title and icon on create mean none given; localized titles and descriptions are kept
    const plain = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: 'sp-welcome', title: null, icon: null })).body;
    expect(plain.title).toBe('Welcome');
    expect(plain.icon).toBeUndefined();
    const localized = await sb.request('PATCH', `${ORG}/sites/${site.id}/sections/${plain.id}`, {
      localizedTitle: { fr: 'Bienvenue' },
      localizedDescription: { de: 'Willkommen' },
    });
    expect(localized.body).toMatchObject({ localizedTitle: { fr: 'Bienvenue' }, localizedDescription: { de: 'Willkommen' } });
    expect((await sb.request('PATCH', `${ORG}/sites/${site.id}/section-groups/${g.id}`, { localizedTitle: { ja: 'グループ' } })).body.localizedTitle).toEqual({
      ja: 'グループ',
    });
  });

  it('publishes a profile with the default customization, in the default space’s language, and no scripts', async () => {
    const site = await newSite({ title: 'Handbook', spaces: ['sp-welcome'] });
    const profile = await json('sites published', [site.id]);
    expect(profile.scripts).toEqual([]);
    expect(profile.customizations.siteSpaces).toEqual({});
    expect(profile.customizations.site).toMatchObject({ title: 'Handbook', internationalization: { locale: 'en' }, favicon: {}, ai: { mode: 'none' } });
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { language: 'fr' })).status).toBe(200);
    await json('sites update', [site.id], ['--title', 'Manuel']);
    expect((await json('sites published', [site.id])).customizations.site).toMatchObject({ title: 'Manuel', internationalization: { locale: 'fr' } });
  });

  it('rejects bad input at and past the limits, naming the flag or field and the rule, changing nothing', async () => {
    const site = await newSite();
    const usage = async (command: string, ids: string[], flags: string[], message: string | RegExp) => {
      const r = await run(command, ids, flags);
      expect(r.exitCode, `${command} ${flags.join(' ')}`).toBe(2);
      if (typeof message === 'string') expect(r.stderr).toContain(message);
      else expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    };
    const label = (n: number) => 'a'.repeat(n);
    const proxy512 = `example.com/${label(500)}`;
    expect(proxy512).toHaveLength(512);
    const section = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: 'sp-welcome' })).body;
    const group = (await sb.request('POST', `${ORG}/sites/${site.id}/section-groups`, { title: 'G' })).body;
    const ss = section.siteSpaces[0];
    const before = await state();

    await usage('sites create', [], ['--title', 'x'], '--title: must be at least 2 characters');
    await usage('sites create', [], ['--title', label(129)], '--title: must be at most 128 characters');
    await usage('sites create', [], ['--visibility', 'private'], /--visibility.*private.*invalid/);
    await usage('sites create', [], ['--type', 'gold'], /--type.*gold.*invalid/);
    await usage('sites update', [site.id], ['--agents-context', 'maybe'], /--agents-context.*maybe.*invalid/);
    await usage('sites update', [site.id], ['--default-level', 'owner'], /--default-level.*owner.*invalid/);
    await usage('sites update', [site.id], ['--basename', ''], '--basename: must not be empty');
    await usage('sites update', [site.id], ['--basename', label(101)], '--basename: must be at most 100 characters');
    await usage('sites update', [site.id], ['--hostname', 'docs.acme.example'], "unknown option '--hostname'");
    await usage('sites update', [site.id], ['--proxy', 'example.com'], '--proxy: must match the pattern');
    await usage('sites update', [site.id], ['--proxy', 'example.c/docs'], '--proxy: must match the pattern');
    await usage('sites update', [site.id], ['--proxy', `${proxy512}a`], '--proxy: must be at most 512 characters');
    await usage('sites update', [site.id], [], 'nothing to update');
    await usage('sites sections add', [site.id], [], '--space: is required');
    await usage('sites sections add', [site.id], ['--space', 'sp-welcome', '--new-space'], '--space and --new-space cannot be used together');
    await usage('sites sections add', [site.id], ['--space', 'sp-welcome', '--template', 'getting-started'], '--template needs --new-space');
    await usage('sites sections add', [site.id], ['--space', 'sp-welcome', '--title', 'x'], '--title: must be at least 2 characters');
    await usage('sites sections add', [site.id], ['--space', 'sp-welcome', '--icon', label(51)], '--icon: must be at most 50 characters');
    await usage('sites sections update', [site.id, section.id], ['--title', 'x'], '--title: must be at least 2 characters');
    await usage('sites sections update', [site.id, section.id], ['--description', label(257)], '--description: must be at most 256 characters');
    await usage('sites sections update', [site.id, section.id], ['--condition', label(1025)], '--condition: must be at most 1024 characters');
    await usage('sites sections update', [site.id, section.id], ['--path', label(101)], '--path: must be at most 100 characters');
    await usage('sites sections update', [site.id, section.id], ['--draft', 'maybe'], /--draft.*maybe.*invalid/);
    await usage('sites section-groups add', [site.id], [], '--title: is required');
    await usage('sites section-groups add', [site.id], ['--title', label(101)], '--title: must be at most 100 characters');
    await usage('sites section-groups update', [site.id, group.id], ['--title', ''], '--title: must not be empty');
    await usage('sites spaces add', [site.id], ['--space', 'sp-welcome', '--title', label(129)], '--title: must be at most 128 characters');
    await usage('sites spaces update', [site.id, ss.id], ['--path', ''], '--path: must not be empty');
    expect(await state()).toEqual(before);

    // the server says the same with 400, naming the field
    const patch = (body: unknown) => sb.request('PATCH', `${ORG}/sites/${site.id}`, body);
    expect((await sb.request('POST', `${ORG}/sites`, { title: label(129) })).body.error.message).toBe('title: must be at most 128 characters');
    expect((await patch({ visibility: 'private' })).body.error.message).toBe('visibility: must be one of "public", "unlisted", "share-link", "visitor-auth"');
    expect((await patch({ agentsContext: 'maybe' })).body.error.message).toBe('agentsContext: must be one of "excluded", "included"');
    expect((await patch({ defaultLevel: 'owner' })).body.error.message).toMatch(/^defaultLevel: must be one of "admin", .*"inherit"$/);
    expect((await patch({ hostname: 'docs.acme.example' })).body.error.message).toBe('body: unknown field "hostname"');
    expect((await patch({ proxy: 'example.com' })).body.error.message).toMatch(/^proxy: must match the pattern/);
    expect((await patch({ basename: '' })).body.error.message).toBe('basename: must not be empty');
    expect((await patch({ basename: null })).body.error.message).toBe('basename: must be a string');
    expect((await patch({ title: 'ok', unknown: 1 })).body.error.message).toBe('body: unknown field "unknown"');
    // a field of the official body that the sandbox cannot model is refused, saying so
    expect((await patch({ styleguide: 'sp-welcome' })).body.error.message).toMatch(/^styleguide: the sandbox has no style guide spaces/);
    expect((await patch({ styleguide: null })).status).toBe(200);
    const sectionsUrl = `${ORG}/sites/${site.id}/sections`;
    expect((await sb.request('POST', sectionsUrl, { spaceId: 'sp-welcome', template: { id: 'getting-started' } })).body.error.message).toBe(
      'template: only for a new space (spaceId null)',
    );
    expect((await sb.request('POST', sectionsUrl, { spaceId: null, template: { id: 'nope' } })).body.error.message).toBe(
      'template.id: unknown template "nope"; known templates: getting-started, api-reference',
    );
    expect((await sb.request('POST', sectionsUrl, { spaceId: null, pageId: 'pg' })).body.error.message).toBe(
      'pageId: a new space (spaceId null) has no pages yet',
    );
    expect((await sb.request('POST', sectionsUrl, { spaceId: 'sp-welcome', pageId: 'nope' })).body.error.message).toBe(
      'pageId: no page nope in space sp-welcome',
    );
    expect((await sb.request('POST', sectionsUrl, { spaceId: 'sp-welcome', siteSectionGroupId: 'nope' })).body.error.message).toBe(
      `siteSectionGroupId: no section group nope in site ${site.id}`,
    );
    expect((await sb.request('PATCH', `${sectionsUrl}/${section.id}`, { localizedTitle: { xx: 'Hi' } })).body.error.message).toBe(
      'localizedTitle: unknown field "xx"',
    );
    expect((await sb.request('PATCH', `${ORG}/sites/${site.id}/section-groups/${group.id}`, { parentSectionGroupId: group.id })).body.error.message).toBe(
      'parentSectionGroupId: a section group cannot be moved into itself or into a group inside it',
    );
    expect((await sb.request('POST', `${ORG}/sites/${site.id}/section-groups`, {})).body.error.message).toBe('title: is required');
    expect(await state()).toEqual(before);

    // exactly at the limits it is accepted
    const edge = await json('sites update', [site.id], ['--title', label(128), '--basename', label(100), '--proxy', proxy512]);
    expect(edge).toMatchObject({ title: label(128), basename: label(100), proxy: { origin: proxy512 } });
    expect((await json('sites update', [site.id], ['--title', 'ab'])).title).toBe('ab');
    const sectionEdge = await json(
      'sites sections update',
      [site.id, section.id],
      ['--title', 'ab', '--description', label(256), '--condition', label(1024), '--icon', label(50), '--path', label(100)],
    );
    expect(sectionEdge).toMatchObject({ title: 'ab', description: label(256), condition: label(1024), icon: label(50), path: label(100) });
    expect((await json('sites section-groups update', [site.id, group.id], ['--title', label(100)])).title).toBe(label(100));
    expect((await json('sites section-groups update', [site.id, group.id], ['--title', 'G'])).title).toBe('G');

    // spaces must be of the organization, alive, and listed once
    const create = (spaces: string[]) => sb.request('POST', `${ORG}/sites`, { title: 'New', spaces });
    expect((await create(['nope'])).body.error.message).toBe('spaces[0]: no space nope in this organization');
    expect((await create(['sp-welcome', 'sp-welcome'])).body.error.message).toBe('spaces[1]: space sp-welcome is listed twice');
    const globex = (await sb.request('POST', '/v1/orgs/org-globex/spaces', { title: 'Theirs' })).body.id;
    expect((await create([globex])).body.error.message).toBe(`spaces[0]: no space ${globex} in this organization`);
    const addForeign = await run('sites spaces add', [site.id], ['--space', globex]);
    expect(addForeign.exitCode).toBe(1);
    expect(addForeign.stderr).toContain(`spaceId: no space ${globex} in this organization`);
  });

  it('keeps paths unique within a section', async () => {
    const [a, b] = await Promise.all(['Guide', 'Guide'].map(newSpace));
    const site = await newSite({ spaces: [a, b] });
    const [x, y] = await json('sites spaces list', [site.id]);
    expect([x.path, y.path]).toEqual(['guide', 'guide-2']);
    const clash = await run('sites spaces update', [site.id, y.id], ['--path', 'guide']);
    expect(clash.exitCode).toBe(1);
    expect(clash.stderr).toContain(`path: "guide" is already the path of site space ${x.id}`);
    const changed = await json(
      'sites spaces update',
      [site.id, y.id],
      ['--path', 'v2', '--hidden', 'true', '--condition', 'visitor.claims.unsigned.beta === true'],
    );
    expect(changed).toMatchObject({
      path: 'v2',
      hidden: true,
      condition: 'visitor.claims.unsigned.beta === true',
      urls: { published: `${sb.server.url}/s/${site.id}/v2` },
    });
    const cleared = await json('sites spaces update', [site.id, y.id], ['--condition', 'null', '--hidden', 'false', '--space', 'sp-welcome']);
    expect(cleared).toMatchObject({ hidden: false, space: { id: 'sp-welcome' }, title: 'Welcome' });
    expect(cleared.condition).toBeUndefined();

    const s1 = (await sb.request('POST', `${ORG}/sites/${site.id}/sections`, { spaceId: a, title: 'Docs' })).body;
    const sections = (await sb.request('GET', `${ORG}/sites/${site.id}/sections`)).body.items;
    expect(sections.map((s: any) => s.path)).toEqual(['guide', 'docs']);
    const dup = await run('sites sections update', [site.id, s1.id], ['--path', 'guide']);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toContain('paths are unique within a site');
    // moving a site space next to one with the same path in another section is refused
    const moveClash = await run('sites spaces move', [site.id, s1.siteSpaces[0].id], ['--after', x.id]);
    expect(moveClash.exitCode).toBe(1);
    expect(moveClash.stderr).toContain('already has the path "guide"');
  });

  it('lets readers view, creators create, and only admins change structure', async () => {
    const site = await newSite({ spaces: ['sp-welcome'] });
    expect((await run('sites list', [], [], { as: 'read' })).exitCode).toBe(0);
    expect((await run('sites sections list', [site.id], [], { as: 'read' })).exitCode).toBe(0);
    expect((await run('sites section-groups list', [site.id], [], { as: 'read' })).exitCode).toBe(0);
    const guest = await run('sites list', [], [], { as: 'guest' });
    expect(guest.exitCode).toBe(5);
    expect(guest.stderr).toContain('listing sites needs the read role or above; you have guest access');
    expect((await run('sites get', [site.id], [], { as: 'outsider' })).exitCode).toBe(4);
    expect((await run('sites create', [], ['--title', 'Mine'], { as: 'read' })).exitCode).toBe(5);

    const mine = await json('sites create', [], ['--title', 'Mine', '--space', 'sp-welcome'], { as: 'create' });
    expect(mine.urls.published).toBe(`${sb.server.url}/s/${mine.id}`);
    for (const [command, flags] of [
      ['sites update', ['--title', 'Ours']],
      ['sites publish', []],
      ['sites sections add', ['--space', 'sp-welcome']],
      ['sites spaces add', ['--space', 'sp-welcome']],
      ['sites section-groups add', ['--title', 'G']],
      ['sites delete', ['--yes']],
    ] as const) {
      const r = await run(command, [mine.id], [...flags], { as: 'create' });
      expect(r.exitCode, command).toBe(5);
      expect(r.stderr).toContain('needs the admin role or above; you have create');
    }
    expect((await sb.request('GET', `${ORG}/sites/${mine.id}`)).body).toMatchObject({ title: 'Mine', published: false, siteSpaces: 1 });
  });
});

describe('issue 15: sites', () => {
  it('sites create needs a title: missing or blank is a usage error naming --title (exit 2), nothing created', async () => {
    const before = (await sb.request('GET', `${ORG}/sites`)).body.count;
    const missing = await run('sites create', [], ['--visibility', 'unlisted']);
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toContain('missing --title');
    const blank = await run('sites create', [], ['--title', '  ']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('--title: must not be blank');
    expect((await sb.request('GET', `${ORG}/sites`)).body.count).toBe(before);
  });

  it('the page of a site space is --page-id; the old --page still works, saying it is deprecated', async () => {
    const site = await newSite({ spaces: ['sp-welcome'] });
    const ss = (await sb.request('GET', `${ORG}/sites/${site.id}/site-spaces`)).body.items[0];
    const old = await run('sites spaces update', [site.id, ss.id], ['--page', 'null', '--json']);
    expect(old.exitCode).toBe(0);
    expect(old.stderr).toContain('warning: --page is deprecated here, use --page-id');
    const both = await run('sites spaces update', [site.id, ss.id], ['--page', 'null', '--page-id', 'null']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--page-id and --page cannot be used together');
    expect((await run('sites spaces update', [], ['--help'])).stdout).not.toMatch(/--page </);
  });

  it('removing and deleting name the item by title and id', async () => {
    const site = await newSite({ spaces: ['sp-welcome'] });
    const del = await run('sites delete', [site.id]);
    expect(del.exitCode).toBe(2);
    expect(del.stderr).toContain(`Delete site ${JSON.stringify(site.title)} (${site.id})? Its structure goes with it; its spaces are not deleted.`);
    const ss = (await sb.request('GET', `${ORG}/sites/${site.id}/site-spaces`)).body.items[0];
    const rm = await run('sites spaces remove', [site.id, ss.id]);
    expect(rm.exitCode).toBe(2);
    expect(rm.stderr).toContain(`Remove site space ${JSON.stringify(ss.title)} (${ss.id}) from site ${site.id}? Its space is not deleted.`);
  });
});

describe('sites publish against a service that asks for a checkout (the official document’s other answer)', () => {
  /** The sandbox behind a proxy that answers every publish as the official document allows: `{type: "checkout", sessionId}`. */
  let proxy: http.Server;
  let proxyUrl: string;
  beforeAll(async () => {
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (req.method === 'POST' && /\/sites\/[^/]+\/publish$/.test(req.url ?? '')) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'checkout', sessionId: 'cs_test_a1B2' }));
          return;
        }
        const body = Buffer.concat(chunks);
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
          string,
          string
        >;
        const answer = await fetch(sb.server.url + req.url, { method: req.method, headers, ...(body.length ? { body } : {}) });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((done) => proxy.close(done));
  });

  it('says the site was not published and a checkout is needed, exit 6, in table, TSV and JSON output; stdout stays empty', async () => {
    const site = await newSite({ spaces: ['sp-welcome'] });
    const modes: [string, string[], Record<string, string>][] = [
      ['table', [], { DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1' }],
      ['tsv', [], {}],
      ['json', ['--json'], {}],
      ['jq', ['--jq', '.published'], {}],
    ];
    for (const [mode, flags, env] of modes) {
      const r = await run('sites publish', [site.id], flags, { env: { DOCSCTL_API_URL: proxyUrl, ...env } });
      expect(r.exitCode, `${mode}: ${r.stderr}`).toBe(6);
      expect(r.stdout, mode).toBe('');
      const message = mode === 'json' ? JSON.parse(r.stderr).error.message : r.stderr;
      expect(message, mode).toContain(`site ${site.id} was not published`);
      expect(message, mode).toContain('checkout');
      expect(message, mode).toContain('cs_test_a1B2');
      expect(r.stderr, mode).not.toContain('malformed');
    }
    const asJson = await run('sites publish', [site.id], ['--json'], { env: { DOCSCTL_API_URL: proxyUrl } });
    expect(JSON.parse(asJson.stderr).error).toMatchObject({ status: null, exitCode: 6 });
    expect((await sb.request('GET', `${ORG}/sites/${site.id}`)).body.published).toBe(false);
  });

  it('orgs apply stops at a publish answered by a checkout, saying the site was not published (exit 6)', async () => {
    const site = await newSite({ spaces: ['sp-welcome'] });
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-checkout-'));
    const file = join(dir, 'org.yaml');
    writeFileSync(file, `version: 1\norganization: org-acme\nsites:\n  - key: docs\n    id: ${site.id}\n    title: Docs\n    published: true\n`);
    const r = await sb.run(['orgs', 'apply', '-f', file, '--yes'], { env: { DOCSCTL_API_URL: proxyUrl } });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain(`apply stopped: site ${site.id} was not published: the service asks for a checkout first`);
    expect(r.stderr).not.toContain('Applied:');
    expect((await sb.request('GET', `${ORG}/sites/${site.id}`)).body.published).toBe(false);
  });
});
