/**
 * Change requests end to end: their own content (import, pages, files, links), update from the
 * space, merge (with conflicts, roles and merge rules), and the PDF export at a signed URL.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitToSpace, contentOf, edit, editPage, findPageByPath, revisionOf, type RevisionContent } from '../../src/server/content/index.js';
import { commitToChangeRequest, crState } from '../../src/server/handlers/change-requests.js';
import { main } from '../../src/main.js';
import { AppDispatcher, sourceManifest, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

const html = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

/** A small website: a start page linking to a guide with a subpage, and a link to a page that does not exist. */
const SITE: Record<string, string> = {
  '/': html('Acme Docs', '<h1>Acme Docs</h1><p>Read the <a href="/guide/">guide</a>.</p>'),
  '/guide/': html('Guide', '<h1>Guide</h1><p>Start with <a href="install.html">the installation</a>. See <a href="/gone">the old page</a>.</p>'),
  '/guide/install.html': html('Install', '<h1>Install</h1><p>Run the Acme installer.</p>'),
  // Not linked from the others: a start page of its own, with an image and a broken link of its own.
  '/brand': html(
    'Brand',
    '<h1>Brand</h1><p><img src="/logo.png" alt="Logo"></p><p>See the <a href="/guide/">guide</a> and <a href="/nowhere">the press kit</a>.</p>',
  ),
};
/** A PNG signature and IHDR chunk of a 3x2 image. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]),
]);

let site: http.Server;
let siteUrl: string;
let dir: string;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const page = SITE[req.url ?? ''];
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (page === undefined) res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'docsctl-cr-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const CR = '/v1/spaces/sp-welcome/change-requests';
const space = async () => (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
const paths = (rows: { path: string }[]) => rows.map((p) => p.path);
const spacePaths = async () => paths(await sb.json(['content', 'pages', 'sp-welcome']));
const crPaths = async (n: number) => paths(await sb.json(['cr', 'pages', 'sp-welcome', String(n)]));

async function applyTemplate(id: string) {
  expect((await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id })).status).toBe(204);
}

/**
 * The API has no endpoint that edits an existing page (content changes through imports, templates
 * and merges; the service's editor and git sync are outside it), so edits to the same page on both
 * sides are made through the content model, as the editor would make them.
 */
function editAt(content: RevisionContent, path: string, markdown: string): RevisionContent {
  const next = edit(content);
  const entry = findPageByPath(next, path);
  if (!entry) throw new Error(`no page ${path}`);
  editPage(next, entry.page.id)!.page.markdown = markdown;
  return next;
}

function editInSpace(path: string, markdown: string) {
  const store = sb.server.store;
  const s = store.data.spaces.get('sp-welcome')!;
  commitToSpace(store, s, editAt(contentOf(revisionOf(store, s.revision)), path, markdown), `Edit ${path}`);
}

function editInChangeRequest(id: string, path: string, markdown: string) {
  const store = sb.server.store;
  const cr = crState(store).byId.get(id)!;
  commitToChangeRequest(store, cr, editAt(contentOf(revisionOf(store, cr.revision)), path, markdown), `Edit ${path}`);
}

const setRules = (rules: unknown[]) => sb.request('PATCH', '/v1/spaces/sp-welcome', { mergeRules: { type: 'rules', rules } });
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;
const markdownOf = async (args: string[]) => (await sb.run([...args, '--markdown'])).stdout;

describe('the review story', () => {
  it('create, import into the change request, discuss, update from the space, merge: the space changes only at the merge', { timeout: 240_000 }, async () => {
    await applyTemplate('getting-started');
    const before = await space();
    const spacePages = await spacePaths();
    expect(spacePages).toEqual(['getting-started', 'getting-started/installation', 'getting-started/quickstart', 'faq']);

    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Import the Acme site'], { as: 'edit' });
    expect(cr).toMatchObject({ number: 1, revision: before.revision, revisionInitial: before.revision, outdated: false });

    // Import into the change request: a new revision of its own line; the space does not move.
    const imported = await sb.run(['cr', 'import', 'sp-welcome', '1', `${siteUrl}/`, '--json'], { as: 'edit' });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const result = JSON.parse(imported.stdout);
    expect(result).toEqual({ revision: expect.any(String), importedResources: 3, totalResources: 4 });
    expect(imported.stderr).toBe(`imported 3 of 4 resources found into change request 1 of space sp-welcome (revision ${result.revision})`);
    expect((await space()).revision).toBe(before.revision);
    expect(await spacePaths()).toEqual(spacePages);
    expect(await crPaths(1)).toEqual([...spacePages, 'acme-docs', 'guide', 'guide/install']);
    const content = await sb.json(['cr', 'content', 'sp-welcome', '1']);
    expect(content).toMatchObject({ id: result.revision, parents: [before.revision], git: { message: `Import from ${siteUrl}/` } });
    expect(content.urls.app).toBe(`${sb.server.url}/app/s/sp-welcome/~/changes/1`);
    expect(await markdownOf(['cr', 'page', 'sp-welcome', '1', 'guide/install'])).toContain('Run the Acme installer.');
    const missing = await sb.run(['content', 'page', 'sp-welcome', 'guide/install']);
    expect(missing.exitCode).toBe(4);
    const tsv = await sb.run(['cr', 'get', 'sp-welcome', '1', '--fields', 'revision,outdated']);
    expect(tsv.stdout).toBe(`revision\t${result.revision}\noutdated\tfalse`);

    // Discussion: a comment about a page, a reply, a reaction, resolved.
    const comment = await sb.json(['comments', 'post', 'sp-welcome', '--cr', '1', '--page-id', 'faq', '-m', 'Should the FAQ link to the guide?'], {
      as: 'review',
    });
    expect(comment.target.page).toMatchObject({ path: 'faq', outdated: false });
    const reply = await sb.json(['comments', 'reply', 'sp-welcome', comment.id, '--cr', '1', '-m', 'Yes, after the merge.'], { as: 'edit' });
    expect(reply.object).toBe('comment-reply');
    const reacted = await sb.json(['comments', 'react', 'sp-welcome', comment.id, '👍', '--cr', '1']);
    expect(reacted.reactions).toEqual([
      { emoji: '👍', count: 1, users: [{ user: expect.objectContaining({ id: 'u-admin' }), reactedAt: expect.any(String) }] },
    ]);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).comments).toBe(1);
    const resolved = await sb.json(['comments', 'resolve', 'sp-welcome', comment.id, '--cr', '1'], { as: 'review' });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: 'u-review' }, replies: 1 });
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).comments).toBe(0);
    expect((await space()).comments).toBe(0);

    // The space moves on: the change request is outdated until it is updated from it.
    await applyTemplate('api-reference');
    const moved = await space();
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).outdated).toBe(true);
    const update = await sb.run(['cr', 'update', 'sp-welcome', '1', '--json'], { as: 'edit' });
    expect(update.exitCode, update.stderr).toBe(0);
    const updated = JSON.parse(update.stdout);
    expect(updated.result).toBe('update');
    expect(update.stderr).toBe(`change request 1 is up to date with space sp-welcome: revision ${updated.revision}`);
    const afterUpdate = await sb.json(['cr', 'get', 'sp-welcome', '1']);
    expect(afterUpdate).toMatchObject({ revision: updated.revision, revisionMergedAncestor: moved.revision, outdated: false });
    const updatedContent = await sb.json(['cr', 'content', 'sp-welcome', '1']);
    expect(updatedContent).toMatchObject({ parents: [result.revision, moved.revision], type: 'update' });
    const apiPages = ['api-reference', 'api-reference/authentication', 'api-reference/endpoints', 'api-reference/errors'];
    // The space's new pages come after the page they follow there; the change request's own stay after them.
    expect(await crPaths(1)).toEqual([...spacePages, ...apiPages, 'acme-docs', 'guide', 'guide/install']);
    expect(await spacePaths()).toEqual([...spacePages, ...apiPages]);
    // Nothing newer in the space: updating again changes nothing.
    expect(await sb.json(['cr', 'update', 'sp-welcome', '1'])).toEqual({ revision: updated.revision, result: 'update' });

    // Merge: the change request's content becomes the space's new revision.
    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--status', 'open'], { as: 'edit' });
    expect((await space()).changeRequestsOpen).toBe(1);
    const merge = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(merge.exitCode, merge.stderr).toBe(0);
    const after = await space();
    expect(merge.stdout).toBe(`revision\t${after.revision}\nresult\tmerge`);
    expect(merge.stderr).toBe(`merged change request 1 into space sp-welcome: revision ${after.revision}`);
    expect(after).toMatchObject({ changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    const spaceContent = await sb.json(['content', 'show', 'sp-welcome']);
    expect(spaceContent).toMatchObject({ id: after.revision, parents: [moved.revision], git: { message: 'Merge change request #1: Import the Acme site' } });
    // A merge revision, naming the change request it merged.
    expect(spaceContent).toMatchObject({
      type: 'merge',
      mergedFrom: { object: 'change-request', id: cr.id, number: 1, status: 'merged', mergedBy: { id: 'u-review' } },
    });
    const shown = Object.fromEntries((await sb.run(['content', 'show', 'sp-welcome'])).stdout.split('\n').map((l) => l.split('\t')));
    expect(shown).toMatchObject({ type: 'merge', mergedFrom: '#1' });
    expect(await spacePaths()).toEqual(await crPaths(1));
    expect(await markdownOf(['content', 'page', 'sp-welcome', 'guide/install'])).toContain('Run the Acme installer.');
    const merged = await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' });
    expect(merged).toMatchObject({
      status: 'merged',
      revisionMerged: after.revision,
      outdated: false,
      mergedBy: { id: 'u-review' },
      mergedAt: spaceContent.createdAt,
    });
    const lines = Object.fromEntries((await sb.run(['cr', 'get', 'sp-welcome', '1'])).stdout.split('\n').map((l) => l.split('\t')));
    expect(lines).toMatchObject({ mergedBy: 'u-review', mergedAt: merged.mergedAt });
    expect(merged.permissions).toMatchObject({ edit: false, merge: false });

    // Final: neither merged again, nor written to.
    const again = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain(`change request 1 of space sp-welcome is already merged (revision ${after.revision})`);
    const late = await sb.run(['cr', 'import', 'sp-welcome', '1', `${siteUrl}/`]);
    expect(late.exitCode).toBe(1);
    expect(late.stderr).toContain('is merged: importing content into a change request is no longer possible');
    expect((await space()).revision).toBe(after.revision);
  });

  it('reads a change request’s files, links (with the broken ones it introduced) and evaluated pages', async () => {
    await applyTemplate('getting-started');
    const cr = (await sb.request('POST', CR, { subject: 'Links' })).body;
    expect((await sb.request('POST', `${CR}/1/content/import`, { url: `${siteUrl}/`, source: 'website' })).status).toBe(201);
    const { pages } = (await sb.request('GET', `${CR}/1/content/pages`)).body;
    const guide = pages.find((p: { path: string }) => p.path === 'guide');
    expect(guide.urls.app).toBe(`${sb.server.url}/app/s/sp-welcome/~/changes/1/guide`);

    const links = (await sb.request('GET', `${CR}/${cr.id}/content/page/${guide.id}/links`)).body;
    expect(links.items.map((l: { status: string }) => l.status).sort()).toEqual(['broken', 'ok']);
    expect(links.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 1 } });

    // Variables: evaluated=true and deterministic-only replace them; dereferenced is accepted.
    const faq = pages.find((p: { path: string }) => p.path === 'getting-started').id;
    const raw = (await sb.request('GET', `${CR}/1/content/page/${faq}?format=markdown`)).body.markdown;
    expect(raw).toContain('{{ space.vars.product }}');
    for (const mode of ['true', 'deterministic-only']) {
      const page = (await sb.request('GET', `${CR}/1/content/page/${faq}?format=markdown&evaluated=${mode}&dereferenced=reusable-contents`)).body;
      expect(page.markdown).toContain('Your product');
      expect(page.markdown).not.toContain('{{');
    }
    const bad = await sb.request('GET', `${CR}/1/content/page/${faq}?evaluated=maybe`);
    expect(bad).toEqual({ status: 400, body: { error: { code: 400, message: 'evaluated: must be one of "true", "false", "deterministic-only"' } } });
    const nowhere = await sb.request('GET', `${CR}/1/content/page/nope`);
    expect(nowhere).toEqual({ status: 404, body: { error: { code: 404, message: 'no page nope in change request 1 of space sp-welcome' } } });

    const files = (await sb.request('GET', `${CR}/1/content/files`)).body;
    expect(files).toEqual({ count: 0, items: [] });
    expect((await sb.request('GET', `${CR}/1/content/files/nope/backlinks`)).status).toBe(404);
  });

  it('cr files, file, links and backlinks read the change request’s own content, as their content twins read a space', async () => {
    await sb.request('POST', CR, { subject: 'Brand' });
    const imported = await sb.run(['cr', 'import', 'sp-welcome', '1', `${siteUrl}/brand`]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(await sb.json(['content', 'files', 'sp-welcome'])).toEqual([]);

    // Files: the list, one by name or id, as the API answers them.
    const api = (await sb.request('GET', `${CR}/1/content/files`)).body.items;
    expect(api.map((f: { name: string }) => f.name)).toEqual(['logo.png']);
    const logo = api[0];
    expect(await sb.json(['cr', 'files', 'sp-welcome', '1'])).toEqual(api);
    expect((await sb.run(['cr', 'files', 'sp-welcome', '#1'])).stdout).toBe(`${logo.id}\tlogo.png\timage/png\t${logo.size}\t3x2`);
    const one = (await sb.request('GET', `${CR}/1/content/files/${logo.id}`)).body;
    expect(await sb.json(['cr', 'file', 'sp-welcome', '1', 'logo.png'])).toEqual(one);
    expect(await sb.json(['cr', 'file', 'sp-welcome', '1', logo.id])).toEqual(one);
    const none = await sb.run(['cr', 'file', 'sp-welcome', '1', 'nope.png']);
    expect(none.exitCode).toBe(4);
    expect(none.stderr).toBe(
      'error: no file "nope.png" in change request 1 of space sp-welcome (by id or name)\nhint: list its files: docsctl cr files sp-welcome 1',
    );
    expect((await sb.run(['content', 'file', 'sp-welcome', 'logo.png'])).exitCode).toBe(4);

    // Backlinks of a file: the pages linking to it, by path.
    const backlinks = (await sb.request('GET', `${CR}/1/content/files/${logo.id}/backlinks`)).body.items;
    expect(await sb.json(['cr', 'backlinks', 'sp-welcome', '1', '--file', 'logo.png'])).toEqual(backlinks);
    const brand = (await sb.json(['cr', 'pages', 'sp-welcome', '1'])).find((p: { path: string }) => p.path === 'brand');
    expect((await sb.run(['cr', 'backlinks', 'sp-welcome', '1', '--file', logo.id, '--fields', 'from,page'])).stdout).toBe(`/brand\t${brand.id}`);
    const noFile = await sb.run(['cr', 'backlinks', 'sp-welcome', '1']);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toContain('missing --file');

    // Links of a page: stats on stderr, targets by path, --broken and --fail-on-broken as content links.
    const links = await sb.run(['cr', 'links', 'sp-welcome', '1', '--page-id', 'brand']);
    expect(links.exitCode, links.stderr).toBe(0);
    expect(links.stderr).toBe('3 links, 1 broken');
    expect(links.stdout.split('\n').sort()).toEqual([`broken\t/nowhere\t/brand`, `ok\t/guide\t/brand`, `ok\tfile:${logo.id}\t/brand`].sort());
    const apiLinks = (await sb.request('GET', `${CR}/1/content/page/${brand.id}/links`)).body.items;
    expect(await sb.json(['cr', 'links', 'sp-welcome', '1', '--page-id', brand.id])).toEqual(apiLinks);
    const broken = await sb.run(['cr', 'links', 'sp-welcome', '1', '--page-id', 'brand', '--broken']);
    expect(broken.stdout).toBe(`broken\t/nowhere\t/brand`);
    expect(broken.stderr).toBe('3 links, 1 broken; showing 1 broken');
    const ci = await sb.run(['cr', 'links', 'sp-welcome', '1', '--page-id', 'brand', '--fail-on-broken', '--status', 'ok']);
    expect(ci.exitCode).toBe(1);
    expect(ci.stdout.split('\n')).toHaveLength(2);
    expect(ci.stderr).toContain(`error: 1 broken link in page ${brand.id} of change request 1`);
    const noPage = await sb.run(['cr', 'links', 'sp-welcome', '1']);
    expect(noPage.exitCode).toBe(2);
    expect(noPage.stderr).toContain('missing --page-id');
    expect((await sb.run(['cr', 'links', 'sp-welcome', '1', '--page-id', 'nope'])).stderr).toContain('no page "nope" in change request 1 of space sp-welcome');
  });

  it('a change request created from a template holds it; the space does not', async () => {
    const cr = await sb.request('POST', CR, { subject: 'Start', template: { id: 'getting-started' } });
    expect(cr.status).toBe(201);
    expect(cr.body.revision).not.toBe(cr.body.revisionInitial);
    expect(await crPaths(1)).toEqual(['getting-started', 'getting-started/installation', 'getting-started/quickstart', 'faq']);
    expect(await spacePaths()).toEqual([]);
    const unknown = await sb.request('POST', CR, { template: { id: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^id: unknown template "nope"/);
    expect((await space()).changeRequests).toBe(1);
  });
});

describe('conflicts', () => {
  it('merge and update answer conflicts naming the page both changed, and change nothing (exit 6)', async () => {
    await applyTemplate('getting-started');
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'FAQ rewrite']);
    editInChangeRequest(cr.id, 'faq', '# FAQ\n\nRewritten in the change request.\n');
    editInSpace('faq', '# FAQ\n\nEdited live in the space.\n');
    const spaceBefore = await space();
    const crBefore = await sb.json(['cr', 'get', 'sp-welcome', '1']);
    expect(crBefore.outdated).toBe(true);

    const merge = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes']);
    expect(merge.exitCode).toBe(6);
    expect(merge.stdout).toBe('');
    const faqId = (await sb.json(['content', 'pages', 'sp-welcome'])).find((p: { path: string }) => p.path === 'faq').id;
    expect(merge.stderr).toBe(
      'error: change request 1 was not merged: space sp-welcome and the change request both changed 1 page:\n' +
        `  faq  FAQ  ${faqId}\n` +
        'hint: nothing was changed; make the two versions of these pages agree, then try again',
    );
    const api = await sb.request('POST', `${CR}/1/merge`);
    expect(api).toEqual({ status: 200, body: { revision: spaceBefore.revision, result: 'conflicts', conflicts: [{ id: faqId, title: 'FAQ', path: 'faq' }] } });

    const update = await sb.run(['cr', 'update', 'sp-welcome', '1']);
    expect(update.exitCode).toBe(6);
    expect(update.stderr).toContain('change request 1 was not updated: space sp-welcome and the change request both changed 1 page:\n  faq  FAQ');

    expect(await space()).toEqual(spaceBefore);
    expect(await sb.json(['cr', 'get', 'sp-welcome', '1'])).toEqual(crBefore);
    expect(await markdownOf(['content', 'page', 'sp-welcome', 'faq'])).toContain('Edited live in the space.');
    expect(await markdownOf(['cr', 'page', 'sp-welcome', '1', 'faq'])).toContain('Rewritten in the change request.');
  });

  it('changes to different pages merge: each side keeps its own', async () => {
    await applyTemplate('getting-started');
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    editInChangeRequest(cr.id, 'faq', '# FAQ\n\nFrom the change request.\n');
    editInSpace('getting-started/quickstart', '# Quickstart\n\nFrom the space.\n');
    const base = (await space()).revision;
    const merged = await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(merged.result).toBe('merge');
    expect((await sb.json(['content', 'show', 'sp-welcome'])).parents).toEqual([base]);
    expect(await markdownOf(['content', 'page', 'sp-welcome', 'faq'])).toContain('From the change request.');
    expect(await markdownOf(['content', 'page', 'sp-welcome', 'getting-started/quickstart'])).toContain('From the space.');
  });

  it('marks every open change request outdated when another one is merged', async () => {
    await applyTemplate('getting-started');
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    const first = await sb.json(['cr', 'get', 'sp-welcome', '2']);
    expect(first.outdated).toBe(false);
    await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes']);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '2'])).outdated).toBe(true);
    // With no change of its own, updating moves it to the space's revision.
    const updated = await sb.json(['cr', 'update', 'sp-welcome', '2']);
    expect(updated).toEqual({ revision: (await space()).revision, result: 'update' });
  });
});

describe('who may merge', () => {
  it('needs the review role: comment and edit members get exit 5 and nothing changes', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft'], { as: 'edit' });
    const before = await space();
    for (const as of ['comment', 'edit']) {
      const r = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as });
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain('merging a change request needs the review role or above on space sp-welcome');
    }
    const read = await sb.run(['cr', 'update', 'sp-welcome', '1'], { as: 'read' });
    expect(read.exitCode).toBe(5);
    expect(read.stderr).toContain('updating a change request needs the edit role or above on space sp-welcome');
    expect((await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'outsider' })).exitCode).toBe(4);
    expect(await space()).toEqual(before);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).status).toBe('draft');
    // Without --yes and without a terminal, nothing is sent.
    const unconfirmed = await sb.run(['cr', 'merge', 'sp-welcome', '1'], { as: 'review' });
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('Merge change request "Draft" (#1) into space sp-welcome?');
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes', '--json'], { as: 'review' })).result).toBe('merge');
  });

  it('enforces mergeRules require_specific_reviewers: only the listed users merge, and permissions say so', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    const rules = await sb.request('PATCH', '/v1/spaces/sp-welcome', {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-create'] }] },
    });
    expect(rules.status).toBe(200);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(false);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'create' })).permissions.merge).toBe(true);
    for (const as of ['review', 'admin']) {
      const r = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as });
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain('space sp-welcome requires a review by u-create to merge (mergeRules require_specific_reviewers)');
    }
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).status).toBe('draft');
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'create' })).result).toBe('merge');
  });

  it('enforces the rules on the change request itself: a subject, a description, up to date', async () => {
    await applyTemplate('getting-started');
    // Untitled, as the API allows (the CLI insists on a subject)
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', {}, 'edit')).status).toBe(201);
    await applyTemplate('api-reference'); // the change request is now outdated
    expect(
      (
        await setRules([
          { rule: 'require_change_request_subject' },
          { rule: 'require_change_request_description' },
          { rule: 'require_up_to_date_change_request' },
        ])
      ).status,
    ).toBe(200);
    const before = await space();
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(false);
    const all = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(all.exitCode).toBe(5);
    expect(all.stderr).toContain(
      'change request 1 has no subject (mergeRules require_change_request_subject): give it one (docsctl cr edit sp-welcome 1 --subject TEXT); ' +
        'change request 1 has no description (mergeRules require_change_request_description): give it one (docsctl cr edit sp-welcome 1 --description TEXT); ' +
        'change request 1 is not up to date with space sp-welcome (mergeRules require_up_to_date_change_request): update it first (docsctl cr update sp-welcome 1)',
    );
    expect(await space()).toEqual(before);

    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--subject', 'API pages', '--description', 'Adds the API reference.'], { as: 'edit' });
    const outdated = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(outdated.exitCode).toBe(5);
    expect(outdated.stderr).not.toContain('no subject');
    expect(outdated.stderr).toContain('(mergeRules require_up_to_date_change_request)');
    // A description with no text is none.
    await sb.request('PATCH', `${CR}/1`, {
      description: {
        object: 'document',
        data: {},
        nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: ' ', marks: [] }] }] }],
      },
    });
    expect((await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' })).stderr).toContain('has no description');
    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--description', 'Adds the API reference.']);

    await sb.json(['cr', 'update', 'sp-welcome', '1'], { as: 'edit' });
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(true);
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' })).result).toBe('merge');
  });

  it('enforces the review rules: the merge is the review, and the author’s own is none', async () => {
    // require_at_least_one_approved_review: the author (u-review) may not merge; another reviewer may.
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Mine'], { as: 'review' });
    await setRules([{ rule: 'require_at_least_one_approved_review' }, { rule: 'require_all_reviews_approved' }]);
    const own = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(own.exitCode).toBe(5);
    expect(own.stderr).toContain(
      'space sp-welcome requires an approved review to merge (mergeRules require_at_least_one_approved_review): the merge is the review, and the author (u-review) does not review their own change request, so someone else must merge',
    );
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'review' })).permissions.merge).toBe(false);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'admin' })).permissions.merge).toBe(true);
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'admin' })).result).toBe('merge');

    // require_author_to_merge: only the author.
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Theirs'], { as: 'review' });
    await setRules([{ rule: 'require_author_to_merge' }]);
    const other = await sb.run(['cr', 'merge', 'sp-welcome', '2', '--yes'], { as: 'admin' });
    expect(other.exitCode).toBe(5);
    expect(other.stderr).toContain('only the author of change request 2 (u-review) may merge it (mergeRules require_author_to_merge)');
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '2', '--yes'], { as: 'review' })).result).toBe('merge');

    // require_one_of_specific_reviewers: one of the users listed; require_specific_reviewers with two: nobody.
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Third']);
    await setRules([{ rule: 'require_one_of_specific_reviewers', users: ['u-create', 'u-review'] }]);
    const admin = await sb.run(['cr', 'merge', 'sp-welcome', '3', '--yes'], { as: 'admin' });
    expect(admin.stderr).toContain('space sp-welcome requires a review by one of u-create, u-review to merge (mergeRules require_one_of_specific_reviewers)');
    await setRules([{ rule: 'require_specific_reviewers', users: ['u-create', 'u-review'] }]);
    for (const as of ['create', 'review']) {
      const r = await sb.run(['cr', 'merge', 'sp-welcome', '3', '--yes'], { as });
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain(
        'space sp-welcome requires a review by u-create and u-review to merge (mergeRules require_specific_reviewers): the merge is the only review in the sandbox',
      );
    }
    await setRules([{ rule: 'require_one_of_specific_reviewers', users: ['u-create', 'u-review'] }]);
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '3', '--yes'], { as: 'create' })).result).toBe('merge');
  });

  it('never meets an agent review or a custom rule; users allowed to bypass the rules merge anyway; none means no rules', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Agent']);
    await setRules([
      { rule: 'require_agent_review' },
      { rule: 'custom', expression: 'changeRequest.subject.startsWith("DOC-")', message: 'Subjects start with DOC-' },
      { rule: 'allow_bypass', users: ['u-create'] },
    ]);
    const r = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'review' });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('space sp-welcome requires a review by the agent to merge (mergeRules require_agent_review): the sandbox runs no agents');
    expect(r.stderr).toContain(
      'Subjects start with DOC- (mergeRules custom): the sandbox cannot evaluate its expression (changeRequest.subject.startsWith("DOC-")), so only a user the rules allow to bypass them (allow_bypass) may merge',
    );
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'], { as: 'create' })).permissions.merge).toBe(true);
    expect((await sb.json(['cr', 'merge', 'sp-welcome', '1', '--yes'], { as: 'create' })).result).toBe('merge');

    // `none` and `inherit` (the organization has no rules in the sandbox): the review role suffices.
    for (const type of ['none', 'inherit']) {
      const n = (await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft'], { as: 'review' })).number;
      expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { mergeRules: { type } })).status).toBe(200);
      expect((await sb.json(['cr', 'merge', 'sp-welcome', String(n), '--yes'], { as: 'review' })).result).toBe('merge');
    }
  });

  it('an archived change request is reopened before it is merged; a locked space takes no merge', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--status', 'archived']);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).permissions.merge).toBe(false);
    const archived = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes']);
    expect(archived.exitCode).toBe(1);
    expect(archived.stderr).toContain('change request 1 of space sp-welcome is archived: reopen it (status open) to merge it');
    await sb.json(['cr', 'edit', 'sp-welcome', '1', '--status', 'open']);
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { editMode: 'locked' })).status).toBe(200);
    const locked = await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes']);
    expect(locked.exitCode).toBe(5);
    expect(locked.stderr).toContain('space sp-welcome is locked');
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).status).toBe('open');
  });
});

/** Check the file structure of a PDF: header, cross-reference table, trailer, catalog and page tree. Its page count. */
function checkPdf(buf: Buffer): { pages: number; text: string } {
  const raw = buf.toString('latin1');
  expect(raw.startsWith('%PDF-1.')).toBe(true);
  const tail = /startxref\n(\d+)\n%%EOF\n?$/.exec(raw);
  expect(tail, 'startxref and %%EOF at the end').not.toBeNull();
  const xref = Number(tail![1]);
  const head = /^xref\n0 (\d+)\n/.exec(raw.slice(xref));
  expect(head, 'startxref points at the xref table').not.toBeNull();
  const count = Number(head![1]);
  const objects = new Map<number, string>();
  for (let i = 1; i < count; i++) {
    const entry = raw.slice(xref + head![0].length + 20 * i, xref + head![0].length + 20 * (i + 1));
    const offset = Number(entry.slice(0, 10));
    expect(raw.startsWith(`${i} 0 obj\n`, offset), `object ${i} at its xref offset`).toBe(true);
    objects.set(i, raw.slice(offset, raw.indexOf('endobj', offset)));
  }
  const trailer = raw.slice(raw.lastIndexOf('trailer'));
  expect(trailer).toContain(`/Size ${count}`);
  const root = objects.get(Number(/\/Root (\d+) 0 R/.exec(trailer)![1]))!;
  expect(root).toContain('/Type /Catalog');
  const tree = objects.get(Number(/\/Pages (\d+) 0 R/.exec(root)![1]))!;
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(tree)![1].matchAll(/(\d+) 0 R/g)].map((m) => objects.get(Number(m[1]))!);
  expect(tree).toContain(`/Count ${kids.length}`);
  for (const kid of kids) expect(kid).toContain('/Type /Page');
  const text = [...raw.matchAll(/\((.*?)\) Tj/g)].map((m) => m[1]).join(' ');
  return { pages: kids.length, text };
}

describe('pdf', () => {
  it('answers a signed URL that serves the change request as a PDF, without a token; --out saves it', async () => {
    await applyTemplate('getting-started');
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Docs review']);
    const printed = await sb.json(['cr', 'pdf', 'sp-welcome', '1']);
    expect(printed.url).toMatch(new RegExp(`^${sb.server.url}/downloads/[\\w-]+\\.[\\w-]+/change-request-1\\.pdf$`));

    // The URL is its own authorization: no bearer token needed.
    const res = await fetch(printed.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="change-request-1.pdf"');
    const bytes = Buffer.from(await res.arrayBuffer());
    const pdf = checkPdf(bytes);
    expect(pdf.pages).toBe(5); // a cover, then one page per page of the change request
    for (const title of ['Welcome: change request #1 - Docs review', 'Getting started', 'Installation', 'Quickstart', 'FAQ']) expect(pdf.text).toContain(title);

    const file = join(dir, 'review.pdf');
    const saved = await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--out', file, '--json'], { as: 'read' });
    expect(saved.exitCode, saved.stderr).toBe(0);
    const written = readFileSync(file);
    expect(written.subarray(0, 5).toString()).toBe('%PDF-');
    expect(checkPdf(written).pages).toBe(5);
    expect(JSON.parse(saved.stdout)).toEqual({ url: expect.stringContaining('/downloads/'), file, size: written.length });
    expect(saved.stderr).toBe(`saved the PDF of change request 1 to ${file} (${written.length} bytes)`);

    // One page, with or without its subpages.
    const onePage = join(dir, 'one.pdf');
    expect((await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--page-id', 'getting-started', '--only', '--out', onePage])).exitCode).toBe(0);
    expect(checkPdf(readFileSync(onePage)).pages).toBe(2);
    const subtree = await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--page-id', 'getting-started', '--out', '-']);
    expect(subtree.exitCode).toBe(0);
    expect(subtree.stdout.startsWith('%PDF-1.4')).toBe(true);
  });

  it('--out -: writes nothing once the reader of stdout has gone (| head), and exits 0 as other commands do', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Docs review']);
    const written: Buffer[] = [];
    const stdout = Object.assign(
      new Writable({
        write(chunk, _enc, done) {
          written.push(Buffer.from(chunk));
          done();
        },
      }),
      { isTTY: false },
    );
    const stderr = Object.assign(new Writable({ write: (_chunk, _enc, done) => done() }), { isTTY: false });
    const code = await main(
      ['cr', 'pdf', 'sp-welcome', '1', '--out', '-'],
      {
        stdout,
        stderr,
        stdin: Object.assign(new PassThrough().end(), { isTTY: false }),
        stdinIsTTY: false,
        env: { ...sb.env(), PATH: process.env.PATH ?? '' },
        stdoutClosed: () => true,
        dispatcher: new AppDispatcher(sb.server.app, new URL(sb.server.url).origin),
      },
      await sourceManifest(),
    );
    expect(code).toBe(0);
    expect(Buffer.concat(written).length).toBe(0);
  });

  it('refuses a forged or expired link (404), and bad flags before sending (exit 2)', async () => {
    await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    const { url } = await sb.json(['cr', 'pdf', 'sp-welcome', '1']);
    // The same claims with another signature.
    const forged = url.replace(/\.([\w-])(?=[\w-]*\/change-request-1\.pdf$)/, (_m: string, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    expect(forged).not.toBe(url);
    const bad = await fetch(forged);
    expect(bad.status).toBe(404);
    expect(await errorOf(bad)).toBe('no such download: the link is not one this sandbox made');
    expect((await fetch(url)).status).toBe(200);
    await sb.request('POST', '/_sandbox/clock', { advance: '61m' });
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(await errorOf(expired)).toMatch(/^this download link expired at .*: ask for a new one$/);

    const only = await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--only']);
    expect(only.exitCode).toBe(2);
    expect(only.stderr).toContain('--only needs --page-id');
    const nodir = await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--out', join(dir, 'no', 'such', 'x.pdf')]);
    expect(nodir.exitCode).toBe(2);
    expect(nodir.stderr).toContain('--out: no directory');
    const page = await sb.run(['cr', 'pdf', 'sp-welcome', '1', '--page-id', 'nowhere']);
    expect(page.exitCode).toBe(4);
    expect(page.stderr).toContain('no page "nowhere" in change request 1 of space sp-welcome');
    const api = await sb.request('GET', `${CR}/1/pdf?only=true`);
    expect(api).toEqual({ status: 400, body: { error: { code: 400, message: 'page: only=true needs a page' } } });
  });
});

describe('bad input on change request content', () => {
  it('refuses a URL that is not http(s) before sending, and a site that cannot be read with 400; nothing changes', async () => {
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Draft']);
    const ftp = await sb.run(['cr', 'import', 'sp-welcome', '1', 'ftp://127.0.0.1/docs']);
    expect(ftp.exitCode).toBe(2);
    expect(ftp.stderr).toContain('<url>: must be an absolute http:// or https:// URL');
    const gone = await sb.run(['cr', 'import', 'sp-welcome', '1', `${siteUrl}/nowhere`]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toContain('url: the import failed, nothing was changed');
    const reader = await sb.run(['cr', 'import', 'sp-welcome', '1', `${siteUrl}/`], { as: 'read' });
    expect(reader.exitCode).toBe(5);
    expect(await sb.json(['cr', 'get', 'sp-welcome', '1'])).toEqual(cr);
  });
});
