import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpaceRec } from '../../src/server/store.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

const DAY = 86_400;

/** The sandbox's own record of a space (to set up what the API cannot, and to inspect). */
function rec(id: string): SpaceRec | undefined {
  return sb.server.store.data.spaces.get(id);
}
/** The ordered children of a container (an organization's root or a collection). */
function children(container: string): string[] {
  return [...(sb.server.store.data.children.get(container) ?? [])];
}
async function create(args: string[] = [], as?: string) {
  return sb.json(['spaces', 'create', ...args], as ? { as } : {});
}

describe('spaces: create, get, update, list', () => {
  it('creates, gets and updates a space; --json is the API’s Space object', async () => {
    const created = await create(['--title', 'Guide', '--emoji', '📘', '--language', 'fr']);
    expect(created).toMatchObject({
      object: 'space',
      title: 'Guide',
      emoji: '📘',
      language: 'fr',
      organization: 'org-acme',
      visibility: 'private',
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
    expect(created.permissions).toMatchObject({ view: true, admin: true, edit: true });
    expect(created.urls.location).toBe(`${sb.server.url}/v1/spaces/${created.id}`);
    expect(await sb.json(['spaces', 'get', created.id])).toEqual(created);

    const updated = await sb.json([
      'spaces',
      'update',
      created.id,
      '--title',
      'Guides',
      '--emoji',
      '📗',
      '--language',
      'de',
      '--default-level',
      'comment',
      '--require-reviewers',
      'u-review,u-edit',
    ]);
    expect(updated).toMatchObject({
      title: 'Guides',
      emoji: '📗',
      language: 'de',
      defaultLevel: 'comment',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-review', 'u-edit'] }] },
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const back = await sb.json(['spaces', 'update', created.id, '--default-level', 'null', '--merge-rules', 'inherit']);
    expect(back).toMatchObject({ defaultLevel: null, mergeRules: { type: 'inherit' } });

    // The PATCH body is not strict (the service's further one-of group is not shown): unknown fields are ignored.
    const loose = await sb.request('PATCH', `/v1/spaces/${created.id}`, { title: 'Loose', visibility: 'public' });
    expect(loose.status).toBe(200);
    expect(loose.body).toMatchObject({ title: 'Loose', visibility: 'private' });
  });

  it('takes what the official document allows: its 39 languages, an icon or no emoji, default level inherit, every merge rule', async () => {
    const created = await create(['--title', 'Tradução', '--language', 'pt']);
    expect(created.language).toBe('pt');
    for (const language of ['zh-tw', 'yue', 'sl']) {
      expect((await sb.json(['spaces', 'update', created.id, '--language', language])).language).toBe(language);
    }

    const withIcon = await sb.json(['spaces', 'update', created.id, '--icon', 'https://example.com/logo.png']);
    expect(withIcon).toMatchObject({ emoji: '', urls: { icon: 'https://example.com/logo.png' } });
    const withEmoji = await sb.json(['spaces', 'update', created.id, '--emoji', '📘']);
    expect(withEmoji.emoji).toBe('📘');
    expect(withEmoji.urls.icon).toBeUndefined();
    const bare = await sb.json(['spaces', 'update', created.id, '--emoji', 'null']);
    expect(bare.emoji).toBe('');
    const both = await sb.run(['spaces', 'update', created.id, '--emoji', '📘', '--icon', 'https://example.com/a.png']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--icon: give an emoji or an icon, not both');
    const notUrl = await sb.run(['spaces', 'update', created.id, '--icon', 'logo.png']);
    expect(notUrl.exitCode).toBe(2);

    // inherit: the space takes its collection's level, as null does (no level of its own).
    await sb.json(['collections', 'update', 'col-handbook', '--default-level', 'comment']);
    const inherit = await sb.json(['spaces', 'update', 'sp-welcome', '--default-level', 'inherit']);
    expect(inherit.defaultLevel).toBe('inherit');
    const asRead = await sb.json(['spaces', 'get', 'sp-welcome'], { as: 'read' });
    expect(asRead.permissions).toMatchObject({ comment: true, edit: false });
    const collection = await sb.json(['collections', 'update', 'col-handbook', '--default-level', 'inherit']);
    expect(collection.defaultLevel).toBe('inherit');
    expect((await sb.json(['spaces', 'get', 'sp-welcome'], { as: 'read' })).permissions.comment).toBe(false);

    const rules = [
      { rule: 'require_one_of_specific_reviewers', users: ['u-review'] },
      { rule: 'allow_bypass', users: [] },
      { rule: 'require_change_request_description' },
      { rule: 'require_author_to_merge' },
      { rule: 'custom', expression: 'changeRequest.subject != ""', message: 'Give it a subject' },
    ];
    const ruled = await sb.request('PATCH', `/v1/spaces/${created.id}`, { mergeRules: { type: 'rules', rules } });
    expect(ruled.status).toBe(200);
    expect(ruled.body.mergeRules).toEqual({ type: 'rules', rules });
    const none = await sb.request('PATCH', `/v1/spaces/${created.id}`, { mergeRules: { type: 'none' } });
    expect(none.body.mergeRules).toEqual({ type: 'none' });

    // Creation from a template: its pages are the new space's content; an unknown one changes nothing.
    const templated = await sb.json(['spaces', 'create', '--title', 'Handbook', '--template', 'getting-started']);
    const pages = await sb.json(['content', 'pages', templated.id]);
    expect(pages.length).toBeGreaterThan(0);
    const spacesBefore = sb.server.store.data.spaces.size;
    const unknown = await sb.run(['spaces', 'create', '--title', 'Nope', '--template', 'no-such-template']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('template.id: unknown template "no-such-template"');
    expect(sb.server.store.data.spaces.size).toBe(spacesBefore);

    // Creation: an empty space is what the sandbox makes anyway; a computed source it cannot make.
    const empty = await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Empty', empty: true });
    expect(empty.status).toBe(201);
    const computed = await sb.request('POST', '/v1/orgs/org-acme/spaces', { computedSource: { type: 'integration:x:y', props: {} } });
    expect(computed).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'computedSource: content from a computed source (an integration) is not supported by the sandbox' } },
    });
  });

  it('lists the organization’s spaces and a collection’s, as TSV rows in the documented columns', async () => {
    const root = await create(['--title', 'Root space']);
    const r = await sb.run(['spaces', 'list']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const welcome = rec('sp-welcome')!;
    expect(r.stdout.split('\n')).toEqual([
      `sp-welcome\tWelcome\tin-collection\tcol-handbook\t${welcome.updatedAt}`,
      `${root.id}\tRoot space\tprivate\t\t${root.updatedAt}`,
    ]);
    const inCol = await sb.json(['spaces', 'list', '--parent', 'col-handbook']);
    expect(inCol.map((s: { id: string }) => s.id)).toEqual(['sp-welcome']);
    const picked = await sb.json(['spaces', 'list', '--fields', 'id,title']);
    expect(picked).toEqual([
      { id: 'sp-welcome', title: 'Welcome' },
      { id: root.id, title: 'Root space' },
    ]);
    const one = await sb.run(['spaces', 'get', 'sp-welcome', '--fields', 'id,emoji,parent']);
    expect(one.stdout).toBe('id\tsp-welcome\nemoji\t👋\nparent\tcol-handbook');
  });

  it('rejects bad input before sending (exit 2, naming the flag); the server rejects the same with 400; nothing changes', async () => {
    const before = structuredClone(rec('sp-welcome'));
    const cases: [string[], RegExp][] = [
      [['--title', 't'.repeat(51)], /--title: must be at most 50 characters/],
      [['--emoji', 'e'.repeat(51)], /--emoji: must be at most 50 characters/],
      [['--language', 'klingon'], /--language.*klingon.*invalid/],
      [['--edit-mode', 'frozen'], /--edit-mode.*frozen.*invalid/],
      [['--icon', 'not a url'], /--icon: /],
      [[], /nothing to update/],
    ];
    for (const [flags, message] of cases) {
      const r = await sb.run(['spaces', 'update', 'sp-welcome', ...flags]);
      expect(r.exitCode, flags.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const create51 = await sb.run(['spaces', 'create', '--title', 't'.repeat(51)]);
    expect(create51.exitCode).toBe(2);

    const server: [unknown, string][] = [
      [{ title: 't'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ emoji: 'e'.repeat(51) }, 'emoji: must be at most 50 characters'],
      [{ language: 'klingon' }, 'language: must be one of'],
      [{ editMode: 'frozen' }, 'editMode: must be one of "live", "locked"'],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['u-nobody'] }] } },
        'mergeRules.rules.0.users.0: u-nobody is not a member of organization org-acme',
      ],
    ];
    for (const [body, message] of server) {
      const res = await sb.request('PATCH', '/v1/spaces/sp-welcome', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect(rec('sp-welcome')).toEqual(before);
  });

  it('lets edit+ change title, emoji and language, and only admins edit mode, default level and merge rules', async () => {
    const edited = await sb.json(['spaces', 'update', 'sp-welcome', '--title', 'Hello'], { as: 'edit' });
    expect(edited.title).toBe('Hello');
    expect(edited.permissions).toMatchObject({ edit: true, admin: false });

    const asRead = await sb.run(['spaces', 'update', 'sp-welcome', '--title', 'Nope'], { as: 'read' });
    expect(asRead.exitCode).toBe(5);
    expect(asRead.stderr).toContain('changing title needs the edit role or above on the space; you have read');

    const lockByEditor = await sb.run(['spaces', 'update', 'sp-welcome', '--edit-mode', 'locked'], { as: 'create' });
    expect(lockByEditor.exitCode).toBe(5);
    expect(lockByEditor.stderr).toContain('changing editMode needs the admin role on the space; you have create');
    expect(rec('sp-welcome')!.editMode).toBe('live');

    const guest = await sb.run(['spaces', 'get', 'sp-welcome'], { as: 'guest' });
    expect(guest.exitCode).toBe(5);
    const outsider = await sb.run(['spaces', 'get', 'sp-welcome'], { as: 'outsider' });
    expect(outsider.exitCode).toBe(4);
  });

  it('a locked space takes no title change, even from an admin, until an admin unlocks it (in the same request too)', async () => {
    const locked = await sb.json(['spaces', 'update', 'sp-welcome', '--edit-mode', 'locked']);
    expect(locked.editMode).toBe('locked');
    expect(locked.permissions.edit).toBe(false);

    const rename = await sb.run(['spaces', 'update', 'sp-welcome', '--title', 'Renamed']);
    expect(rename.exitCode).toBe(5);
    expect(rename.stderr).toContain('space sp-welcome is locked');
    expect(rec('sp-welcome')!.title).toBe('Welcome');

    const unlockAndRename = await sb.json(['spaces', 'update', 'sp-welcome', '--edit-mode', 'live', '--title', 'Renamed']);
    expect(unlockAndRename).toMatchObject({ editMode: 'live', title: 'Renamed' });
  });

  it('shows a share-link space to anyone with its key, as a reader', async () => {
    rec('sp-welcome')!.visibility = 'share-link';
    const admin = await sb.json(['spaces', 'get', 'sp-welcome']);
    const key = new URL(admin.urls.published).searchParams.get('shareKey');
    expect(key).toBe(rec('sp-welcome')!.shareKey);

    const shared = await sb.json(['spaces', 'get', 'sp-welcome', '--share-key', key!], { as: 'outsider' });
    expect(shared).toMatchObject({ id: 'sp-welcome', title: 'Welcome' });
    expect(shared.permissions).toMatchObject({ view: true, access: true, comment: false, edit: false, admin: false });
    expect(shared.urls.published).not.toContain('shareKey');

    const wrong = await sb.run(['spaces', 'get', 'sp-welcome', '--share-key', 'not-the-key'], { as: 'outsider' });
    expect(wrong.exitCode).toBe(4);
    // The API has no way to change visibility: set it in the store, and say so (Store.changed()).
    rec('sp-welcome')!.visibility = 'private';
    sb.server.store.changed();
    const notShared = await sb.run(['spaces', 'get', 'sp-welcome', '--share-key', key!], { as: 'outsider' });
    expect(notShared.exitCode).toBe(4);
  });
});

describe('spaces: delete, restore and the 7-day window', () => {
  it('deletes with --yes (204 also when missing): hidden from lists and get, out of its container; refused without --yes', async () => {
    const refused = await sb.run(['spaces', 'delete', 'sp-welcome']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    expect(rec('sp-welcome')!.deletedAt).toBeUndefined();

    const ok = await sb.run(['spaces', 'delete', 'sp-welcome', '--yes']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toContain('deleted space "Welcome" (sp-welcome)');
    expect(rec('sp-welcome')!.deletedAt).toBe(new Date(sb.server.store.data.trash.get('sp-welcome')!).toISOString());
    expect(children('col-handbook')).toEqual([]);

    expect((await sb.run(['spaces', 'get', 'sp-welcome'])).exitCode).toBe(4);
    expect(await sb.json(['spaces', 'list'])).toEqual([]);
    expect(await sb.json(['spaces', 'list', '--parent', 'col-handbook'])).toEqual([]);
    expect((await sb.run(['spaces', 'update', 'sp-welcome', '--title', 'x'])).exitCode).toBe(4);

    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    expect((await sb.request('DELETE', '/v1/spaces/no-such-space')).status).toBe(204);

    const asRead = await sb.run(['spaces', 'delete', (await create(['--title', 'Scratch'])).id, '--yes'], { as: 'read' });
    expect(asRead.exitCode).toBe(5);
    expect(asRead.stderr).toContain('deleting a space needs the admin role on the space; you have read');
  });

  it('lists deleted spaces with the time left, and restores on day 6 at the end of its collection', async () => {
    const other = await create(['--title', 'Other', '--parent', 'col-handbook']);
    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);

    const trash = await sb.json(['spaces', 'list', '--deleted']);
    expect(trash).toHaveLength(1);
    const deletedAt = Date.parse(trash[0].deletedAt);
    expect(trash[0]).toMatchObject({ id: 'sp-welcome', object: 'space', parent: 'col-handbook' });
    expect(trash[0].trash.restorableUntil).toBe(new Date(deletedAt + 7 * DAY * 1000).toISOString());
    expect(trash[0].trash.secondsLeft).toBeGreaterThan(7 * DAY - 60);
    expect(trash[0].trash.secondsLeft).toBeLessThanOrEqual(7 * DAY);

    expect((await sb.request('POST', '/_sandbox/clock', { advance: '6d' })).status).toBe(200);
    const tsv = await sb.run(['spaces', 'list', '--deleted']);
    expect(tsv.exitCode).toBe(0);
    const [row, ...more] = tsv.stdout.split('\n');
    expect(more).toEqual([]);
    const cells = row.split('\t');
    expect(cells.slice(0, 5)).toEqual(['sp-welcome', 'Welcome', 'col-handbook', trash[0].deletedAt, trash[0].trash.restorableUntil]);
    expect(['1d 0h', '23h 59m']).toContain(cells[5]);
    // Only those who may restore it see it.
    expect(await sb.json(['spaces', 'list', '--deleted'], { as: 'edit' })).toEqual([]);
    expect((await sb.run(['spaces', 'restore', 'sp-welcome'], { as: 'edit' })).exitCode).toBe(4);

    const restored = await sb.json(['spaces', 'restore', 'sp-welcome']);
    expect(restored).toMatchObject({ id: 'sp-welcome', parent: 'col-handbook', visibility: 'in-collection' });
    expect(restored.deletedAt).toBeUndefined();
    expect(children('col-handbook')).toEqual([other.id, 'sp-welcome']);
    expect(sb.server.store.data.trash.has('sp-welcome')).toBe(false);
    expect((await sb.json(['spaces', 'get', 'sp-welcome'])).id).toBe('sp-welcome');

    const again = await sb.run(['spaces', 'restore', 'sp-welcome']);
    expect(again.exitCode).toBe(6);
    expect(again.stderr).toContain('space sp-welcome is not deleted');
  });

  it('after 7 days the space is gone for good: restore on day 8 answers not found', async () => {
    const revision = rec('sp-welcome')!.revision;
    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    expect((await sb.request('POST', '/_sandbox/clock', { advance: '8d' })).status).toBe(200);
    const r = await sb.run(['spaces', 'restore', 'sp-welcome']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no space sp-welcome');
    expect(rec('sp-welcome')).toBeUndefined();
    expect(sb.server.store.data.revisions.has(revision)).toBe(false);
    expect(await sb.json(['spaces', 'list', '--deleted'])).toEqual([]);
  });

  it('restores at the organization’s root (private) when its collection is gone', async () => {
    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    const root = await create(['--title', 'Root']);
    expect((await sb.run(['collections', 'delete', 'col-handbook', '--yes'])).exitCode).toBe(0);
    const restored = await sb.json(['spaces', 'restore', 'sp-welcome']);
    expect(restored.parent).toBeUndefined();
    expect(restored.visibility).toBe('private');
    expect(children('org-acme')).toEqual([root.id, 'sp-welcome']);
  });
});

describe('spaces: duplicate', () => {
  it('copies the space with its content, right after the source, as "<title> (copy)"', async () => {
    const after = await create(['--title', 'After', '--parent', 'col-handbook']);
    const content = { pages: [{ id: 'p1', title: 'Intro', markdown: '# Hi' }], files: [], variables: { v: '1' } };
    sb.server.store.data.revisions.get(rec('sp-welcome')!.revision)!.content = content;

    const r = await sb.run(['spaces', 'duplicate', 'sp-welcome', '--json'], { as: 'create' });
    expect(r.exitCode).toBe(0);
    const copy = JSON.parse(r.stdout);
    expect(r.stderr).toBe(`duplicated space sp-welcome as ${copy.id}`);
    expect(copy).toMatchObject({ object: 'space', title: 'Welcome (copy)', emoji: '👋', parent: 'col-handbook', visibility: 'in-collection' });
    expect(copy.id).not.toBe('sp-welcome');
    expect(copy.revision).not.toBe(rec('sp-welcome')!.revision);
    expect(children('col-handbook')).toEqual(['sp-welcome', copy.id, after.id]);

    const copied = sb.server.store.data.revisions.get(copy.revision)!;
    expect(copied).toMatchObject({ space: copy.id, parents: [] });
    expect(copied.content).toEqual(content);
    expect(copied.content).not.toBe(content);

    const long = await create(['--title', 'L'.repeat(50)]);
    const longCopy = await sb.json(['spaces', 'duplicate', long.id]);
    expect(longCopy.title).toBe(`${'L'.repeat(43)} (copy)`);
    expect(longCopy.title).toHaveLength(50);

    const asEdit = await sb.run(['spaces', 'duplicate', 'sp-welcome'], { as: 'edit' });
    expect(asEdit.exitCode).toBe(5);
    expect(asEdit.stderr).toContain('duplicating a space needs the create role or above; you have edit');
  });
});

describe('spaces: move', () => {
  it('moves into a collection before/after a sibling, reorders, and back to the root', async () => {
    const a = await create(['--title', 'A']);
    const b = await create(['--title', 'B']);

    const intoCol = await sb.json(['spaces', 'move', a.id, '--parent', 'col-handbook', '--before', 'sp-welcome']);
    expect(intoCol.parent).toBe('col-handbook');
    expect(children('col-handbook')).toEqual([a.id, 'sp-welcome']);
    expect(children('org-acme')).toEqual(['col-handbook', b.id]);

    await sb.json(['spaces', 'move', a.id, '--after', 'sp-welcome']);
    expect(children('col-handbook')).toEqual(['sp-welcome', a.id]);

    const toRoot = await sb.json(['spaces', 'move', 'sp-welcome', '--root', '--before', b.id]);
    expect(toRoot.parent).toBeUndefined();
    expect(toRoot.visibility).toBe('private');
    expect(children('org-acme')).toEqual(['col-handbook', 'sp-welcome', b.id]);
    expect(children('col-handbook')).toEqual([a.id]);

    const appended = await sb.json(['spaces', 'move', b.id, '--parent', 'col-handbook']);
    expect(appended.parent).toBe('col-handbook');
    expect(children('col-handbook')).toEqual([a.id, b.id]);
  });

  it('places a space next to a collection, or between two neighbours, as the official document allows', async () => {
    const a = await create(['--title', 'A']);
    const b = await create(['--title', 'B']);
    expect(children('org-acme')).toEqual(['col-handbook', a.id, b.id]);

    await sb.json(['spaces', 'move', b.id, '--before-collection', 'col-handbook']);
    expect(children('org-acme')).toEqual([b.id, 'col-handbook', a.id]);

    const c = await create(['--title', 'C']);
    await sb.json(['spaces', 'move', c.id, '--after-collection', 'col-handbook', '--before', a.id]);
    expect(children('org-acme')).toEqual([b.id, 'col-handbook', c.id, a.id]);

    const apart = await sb.run(['spaces', 'move', c.id, '--after', b.id, '--before', a.id]);
    expect(apart.exitCode).toBe(1);
    expect(apart.stderr).toContain(`position: ${b.id} and ${a.id} are not next to each other in the target organization root`);
    expect(children('org-acme')).toEqual([b.id, 'col-handbook', c.id, a.id]);
  });

  it('maps failures to exit codes: 400 → 1, 404 → 4, 409 → 6, 403 → 5, malformed position → 2 (nothing sent)', async () => {
    const a = await create(['--title', 'A']);
    const before = structuredClone([...sb.server.store.data.children]);

    const selfAnchor = await sb.run(['spaces', 'move', a.id, '--parent', 'col-handbook', '--before', a.id]);
    expect(selfAnchor.exitCode).toBe(1);
    expect(selfAnchor.stderr).toContain('position.before: a space cannot be placed relative to itself');
    const badAnchor = await sb.run(['spaces', 'move', a.id, '--before', 'sp-welcome']);
    expect(badAnchor.exitCode).toBe(1);
    expect(badAnchor.stderr).toContain('position.before: space sp-welcome is not in the target organization root');
    const badCollection = await sb.run(['spaces', 'move', a.id, '--parent', 'col-nope']);
    expect(badCollection.exitCode).toBe(1);
    expect(badCollection.stderr).toContain('parent: no collection col-nope in organization org-acme');

    const missing = await sb.run(['spaces', 'move', 'sp-nope', '--root']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain('no space sp-nope');

    const noop = await sb.run(['spaces', 'move', 'sp-welcome', '--parent', 'col-handbook']);
    expect(noop.exitCode).toBe(6);
    expect(noop.stderr).toContain('nothing would change');
    const collectionAsSpace = await sb.run(['spaces', 'move', a.id, '--after', 'col-handbook']);
    expect(collectionAsSpace.exitCode).toBe(1); // a collection is not a space to place it by
    expect(collectionAsSpace.stderr).toContain('position.after: space col-handbook is not in the target organization root');

    const asCreate = await sb.run(['spaces', 'move', a.id, '--parent', 'col-handbook'], { as: 'create' });
    expect(asCreate.exitCode).toBe(5);
    expect(asCreate.stderr).toContain('moving a space needs the admin role on the space; you have create');

    const bothKinds = await sb.run(['spaces', 'move', a.id, '--after', 'sp-welcome', '--after-collection', 'col-handbook']);
    expect(bothKinds.exitCode).toBe(2);
    expect(bothKinds.stderr).toContain('--after and --after-collection cannot be used together');
    const empty = await sb.run(['spaces', 'move', a.id, '--before', '']);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--before: must not be empty');
    const nowhere = await sb.run(['spaces', 'move', a.id]);
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.stderr).toContain('nowhere to move');
    const rootAndParent = await sb.run(['spaces', 'move', a.id, '--root', '--parent', 'col-handbook']);
    expect(rootAndParent.exitCode).toBe(2);

    const server = await sb.request('POST', `/v1/spaces/${a.id}/move`, {
      position: { before: { type: 'space', space: 'x' }, after: { type: 'space', space: 'y' } },
    });
    expect(server).toEqual({ status: 400, body: { error: { code: 400, message: 'position.before: space x is not in the target organization root' } } });
    const badType = await sb.request('POST', `/v1/spaces/${a.id}/move`, { position: { before: { type: 'site', site: 'x' } } });
    expect(badType.status).toBe(400);
    expect(badType.body.error.message).toMatch(/^position\.before\.type: /);
    expect([...sb.server.store.data.children]).toEqual(before);
  });
});

describe('spaces: transfer', () => {
  it('transfers to another organization, at its root or into one of its collections', async () => {
    const r = await sb.json(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--yes']);
    expect(r).toMatchObject({ id: 'sp-welcome', organization: 'org-globex', visibility: 'private' });
    expect(r.parent).toBeUndefined();
    expect(children('col-handbook')).toEqual([]);
    expect(children('org-globex')).toEqual(['sp-welcome']);
    expect((await sb.json(['spaces', 'list'])).map((s: { id: string }) => s.id)).toEqual([]);
    // the outsider administers Globex, so now sees it
    expect((await sb.json(['spaces', 'get', 'sp-welcome'], { as: 'outsider' })).organization).toBe('org-globex');

    const col = await sb.request('POST', '/v1/orgs/org-globex/collections', { title: 'Imports' });
    const into = await sb.json(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--parent', col.body.id, '--yes']);
    expect(into).toMatchObject({ organization: 'org-globex', parent: col.body.id });
    expect(children(col.body.id)).toEqual(['sp-welcome']);
    expect(children('org-globex')).toEqual([col.body.id]);

    const back = await sb.json(['spaces', 'transfer', 'sp-welcome', '--to', 'org-acme', '--parent', 'col-handbook', '--yes']);
    expect(back).toMatchObject({ organization: 'org-acme', parent: 'col-handbook' });
  });

  it('maps failures to exit codes: no-op and locked → 6, unknown org or space → 4, not admin there → 5, bad parent → 1', async () => {
    const noop = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-acme', '--parent', 'col-handbook', '--yes']);
    expect(noop.exitCode).toBe(6);
    expect(noop.stderr).toContain('nothing would change');

    await sb.json(['spaces', 'update', 'sp-welcome', '--edit-mode', 'locked']);
    const locked = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--yes']);
    expect(locked.exitCode).toBe(6);
    expect(locked.stderr).toContain('space sp-welcome is locked and cannot be moved');
    await sb.json(['spaces', 'update', 'sp-welcome', '--edit-mode', 'live']);

    const unknownOrg = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-nope', '--yes']);
    expect(unknownOrg.exitCode).toBe(4);
    expect(unknownOrg.stderr).toContain('no organization org-nope');
    const unknownSpace = await sb.run(['spaces', 'transfer', 'sp-nope', '--to', 'org-globex', '--yes']);
    expect(unknownSpace.exitCode).toBe(4);
    const badParent = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--parent', 'col-handbook', '--yes']);
    expect(badParent.exitCode).toBe(1);
    expect(badParent.stderr).toContain('parent: no collection col-handbook in organization org-globex');

    sb.server.store.member('org-globex', 'u-admin')!.role = 'create';
    const notAdminThere = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--yes']);
    expect(notAdminThere.exitCode).toBe(5);
    expect(notAdminThere.stderr).toContain('transferring into organization org-globex needs the admin role or above; you have create');
    const asCreate = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex', '--yes'], { as: 'create' });
    expect(asCreate.exitCode).toBe(5);

    const noTo = await sb.run(['spaces', 'transfer', 'sp-welcome', '--yes']);
    expect(noTo.exitCode).toBe(2);
    expect(noTo.stderr).toContain('--to: is required');
    const unconfirmed = await sb.run(['spaces', 'transfer', 'sp-welcome', '--to', 'org-globex']);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes');

    expect(rec('sp-welcome')).toMatchObject({ org: 'org-acme', parent: 'col-handbook' });
    expect(children('col-handbook')).toEqual(['sp-welcome']);
  });
});

describe('issue 15: spaces', () => {
  it('spaces create needs a title: missing or blank is a usage error naming --title (exit 2), nothing created', async () => {
    const before = sb.server.store.data.spaces.size;
    const missing = await sb.run(['spaces', 'create', '--emoji', '📘']);
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toContain('missing --title');
    const blank = await sb.run(['spaces', 'create', '--title', '']);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain('--title: must not be blank');
    expect(sb.server.store.data.spaces.size).toBe(before);
  });

  it('--parent is the collection in create and list; --collection still works in both (hidden), not with --parent', async () => {
    const viaAlias = await create(['--title', 'Alias', '--collection', 'col-handbook']);
    expect(viaAlias.parent).toBe('col-handbook');
    const byParent = await sb.json(['spaces', 'list', '--parent', 'col-handbook']);
    const byCollection = await sb.json(['spaces', 'list', '--collection', 'col-handbook']);
    expect(byParent.map((s: { id: string }) => s.id)).toEqual(['sp-welcome', viaAlias.id]);
    expect(byCollection).toEqual(byParent);
    const both = await sb.run(['spaces', 'list', '--parent', 'col-handbook', '--collection', 'col-handbook']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--parent and --collection cannot be used together');
    const help = (await sb.run(['spaces', 'list', '--help'])).stdout;
    expect(help).toContain('--parent <collection>');
    expect(help).not.toContain('--collection');
  });

  it('deleting an already-deleted space says so, exit 0, and sends no delete; a space that never was is not found', async () => {
    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    const deletedAt = rec('sp-welcome')!.deletedAt;
    const again = await sb.run(['spaces', 'delete', 'sp-welcome', '--yes']);
    expect(again).toMatchObject({ exitCode: 0, stdout: '' });
    expect(again.stderr).toMatch(
      /^space "Welcome" \(sp-welcome\) is already deleted: nothing to do; restore it with docsctl spaces restore sp-welcome \(until \S+\)$/,
    );
    // without --yes too, off a terminal: nothing would change, so nothing to confirm
    expect((await sb.run(['spaces', 'delete', 'sp-welcome'])).exitCode).toBe(0);
    expect(rec('sp-welcome')!.deletedAt).toBe(deletedAt);

    const never = await sb.run(['spaces', 'delete', 'sp-never', '--yes']);
    expect(never.exitCode).toBe(4);
    expect(never.stderr).toContain('no space sp-never: it is neither live nor among the deleted spaces of organization org-acme');
    const outsider = await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'], { as: 'outsider' });
    expect(outsider.exitCode).toBe(4);
  });

  it('restoring says where the space went: into its collection, or at the root when its collection is gone', async () => {
    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    const back = await sb.run(['spaces', 'restore', 'sp-welcome']);
    expect(back.exitCode).toBe(0);
    expect(back.stderr).toBe('restored space "Welcome" (sp-welcome) into collection col-handbook');

    expect((await sb.run(['spaces', 'delete', 'sp-welcome', '--yes'])).exitCode).toBe(0);
    expect((await sb.run(['collections', 'delete', 'col-handbook', '--yes'])).exitCode).toBe(0);
    const moved = await sb.run(['spaces', 'restore', 'sp-welcome', '--json']);
    expect(moved.exitCode).toBe(0);
    expect(JSON.parse(moved.stdout).parent).toBeUndefined();
    expect(moved.stderr).toBe('restored space "Welcome" (sp-welcome) at the organization’s root: its collection col-handbook is gone');
  });
});

describe('issue 15: spaces delete against a service that answers 204 for both and lists no deleted spaces', () => {
  let service: http.Server;
  let url = '';
  const requests: string[] = [];
  beforeAll(async () => {
    service = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url === '/v1/spaces/sp-gone') return send(404, { error: { code: 404, message: 'Not found' } });
      // It ignores deleted=true and lists its live spaces (which have no `trash`).
      if (req.method === 'GET' && req.url?.startsWith('/v1/orgs/org-acme/spaces')) return send(200, { items: [liveSpace], count: 1 });
      if (req.method === 'DELETE') return send(204);
      send(500, { error: { code: 500, message: 'unexpected' } });
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => service.close(() => r())));
  let liveSpace: unknown;

  it('says the space is not there (already deleted, or never was), exit 0, and sends no delete', async () => {
    liveSpace = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    const r = await sb.run(['spaces', 'delete', 'sp-gone', '--yes'], { env: { DOCSCTL_API_URL: url } });
    expect(r).toMatchObject({ exitCode: 0, stdout: '' });
    expect(r.stderr).toBe('space sp-gone is not there: already deleted, or it never existed (the service does not say which); nothing to do');
    expect(requests.filter((q) => q.startsWith('DELETE'))).toEqual([]);
  });
});
