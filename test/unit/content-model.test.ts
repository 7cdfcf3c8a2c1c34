import { describe, expect, it } from 'vitest';
import {
  blobOf,
  commitToSpace,
  contentOf,
  edit,
  editPage,
  findPage,
  findPageByPath,
  kindOf,
  newPage,
  newRevision,
  putBlob,
  revisionOf,
  SLUG_MAX,
  uniqueSlug,
  walkPages,
  type RevisionContent,
} from '../../src/server/content/index.js';
import { createSpaceRec } from '../../src/server/handlers/spaces.js';
import { families } from '../../src/server/routes.js';
import { Store } from '../../src/server/store.js';

function setup() {
  const store = new Store(undefined, families);
  const space = createSpaceRec(store, { org: 'o1', title: 'Docs' });
  return { store, space };
}

describe('revisions', () => {
  it('treats the undefined content of a new space as empty content', () => {
    const { store, space } = setup();
    const rev = revisionOf(store, space.revision);
    expect(rev.content).toBeUndefined();
    expect(contentOf(rev)).toEqual({ pages: [], files: [], variables: {} });
  });

  it('commits new content as a child revision and moves the space, leaving the parent as it was', () => {
    const { store, space } = setup();
    const first = space.revision;
    const next = edit(contentOf(revisionOf(store, first)));
    next.pages.push(newPage(store, { title: 'Intro', slug: 'intro', markdown: '# Intro\n' }));
    const rev = commitToSpace(store, space, next, 'Add intro');
    expect(space.revision).toBe(rev.id);
    expect(rev.parents).toEqual([first]);
    expect(contentOf(revisionOf(store, first)).pages).toEqual([]);

    // Editing a draft of the new revision does not touch it either; its pages cannot be changed in place.
    const again = edit(contentOf(rev));
    expect(() => {
      again.pages[0].title = 'Changed';
    }).toThrow(TypeError);
    editPage(again, again.pages[0].id)!.page.title = 'Changed';
    expect(again.pages[0].title).toBe('Changed');
    expect(contentOf(rev).pages[0].title).toBe('Intro');
  });

  it('shares what a change did not touch: a page edited copies it and the pages above it, no other', () => {
    const { store, space } = setup();
    const draft = edit(contentOf(revisionOf(store, space.revision)));
    const deep = newPage(store, { title: 'Deep', slug: 'deep' });
    const sibling = newPage(store, { title: 'Sibling', slug: 'sibling' });
    const guide = newPage(store, { title: 'Guide', slug: 'guide', pages: [newPage(store, { title: 'Install', slug: 'install', pages: [deep] }), sibling] });
    draft.pages.push(guide, newPage(store, { title: 'FAQ', slug: 'faq', layout: { width: 'wide' } }));
    const first = commitToSpace(store, space, draft, 'pages');
    const before = contentOf(first);

    const next = edit(before);
    const entry = editPage(next, deep.id)!;
    expect(entry.path).toBe('guide/install/deep');
    entry.page.markdown = 'changed';
    // The same page again: the draft's own copy, not another.
    expect(editPage(next, deep.id)!.page).toBe(entry.page);
    expect(editPage(next, 'missing')).toBeUndefined();
    const second = commitToSpace(store, space, next, 'one page');
    const after = contentOf(second);
    const pages = (c: RevisionContent) => new Map([...walkPages(c.pages)].map((e) => [e.path, e.page]));
    const [old, now] = [pages(before), pages(after)];
    // The path to the page copied; every other page the very same record.
    for (const path of ['guide', 'guide/install', 'guide/install/deep']) expect(now.get(path), path).not.toBe(old.get(path));
    for (const path of ['guide/sibling', 'faq']) expect(now.get(path), path).toBe(old.get(path));
    expect(old.get('guide/install/deep')!.markdown).toBe('');
    expect(now.get('guide/install/deep')!.markdown).toBe('changed');
    expect(entry.parent).toBe(now.get('guide/install'));
    // Recorded content is frozen, nested objects too.
    expect(Object.isFrozen(after.pages)).toBe(true);
    expect(Object.isFrozen(now.get('faq')!.layout)).toBe(true);
    expect(() => editPage(contentOf(second), deep.id)).toThrow('not a draft made by edit()');
  });

  it('records how a revision was made (edits, a merge of a change request, an update), for that revision only', () => {
    const { store, space } = setup();
    const content = contentOf(revisionOf(store, space.revision));
    expect(kindOf(commitToSpace(store, space, edit(content), 'Edit'))).toEqual({ type: 'edits' });
    const merge = commitToSpace(store, space, edit(content), 'Merge', { type: 'merge', mergedFrom: 'cr-1' });
    expect(kindOf(merge)).toEqual({ type: 'merge', mergedFrom: 'cr-1' });
    expect(kindOf(newRevision(store, space.id, [merge.id], edit(content), 'Update', { type: 'update' }))).toEqual({ type: 'update' });
    // Its content copied into another revision (a duplicated space) is that revision's plain edits.
    const copy = newRevision(store, 'other', [], edit(content));
    copy.content = structuredClone(merge.content);
    expect(kindOf(copy)).toEqual({ type: 'edits' });
  });

  it('keeps revisions that do not belong to the space pointer (a change request line)', () => {
    const { store, space } = setup();
    const side = newRevision(store, space.id, [space.revision], { pages: [], files: [], variables: { a: '1' } }, 'side');
    expect(store.data.revisions.get(side.id)).toBe(side);
    expect(space.revision).not.toBe(side.id);
  });
});

describe('the page tree', () => {
  const tree = (store: Store): RevisionContent => {
    const child = newPage(store, { title: 'Install', slug: 'install' });
    const guide = newPage(store, { title: 'Guide', slug: 'guide', pages: [child] });
    return { pages: [guide, newPage(store, { title: 'FAQ', slug: 'faq' })], files: [], variables: {} };
  };

  it('walks depth first with paths built from slugs', () => {
    const content = tree(new Store());
    expect([...walkPages(content.pages)].map((e) => [e.path, e.depth, e.parent?.slug])).toEqual([
      ['guide', 0, undefined],
      ['guide/install', 1, 'guide'],
      ['faq', 0, undefined],
    ]);
  });

  it('finds pages by id and by path, ignoring slashes around the path', () => {
    const content = tree(new Store());
    const install = findPageByPath(content, '/guide/install/');
    expect(install?.page.title).toBe('Install');
    expect(findPage(content, install!.page.id)?.path).toBe('guide/install');
    expect(findPageByPath(content, 'guide/missing')).toBeUndefined();
  });

  it('makes slugs unique among siblings', () => {
    const content = tree(new Store());
    expect(uniqueSlug(content.pages, 'faq')).toBe('faq-2');
    expect(uniqueSlug(content.pages, 'new')).toBe('new');
    // At most SLUG_MAX characters, the suffix included.
    const store = new Store();
    const long = 'a'.repeat(SLUG_MAX);
    const siblings = [newPage(store, { title: 'A', slug: long })];
    const unique = uniqueSlug(siblings, long);
    expect(unique).toBe(`${'a'.repeat(SLUG_MAX - 2)}-2`);
    expect(uniqueSlug(siblings, 'b'.repeat(SLUG_MAX + 20))).toBe('b'.repeat(SLUG_MAX));
  });
});

describe('file bytes', () => {
  it('are stored once by content and dropped with the last space using them', () => {
    const { store, space } = setup();
    const other = createSpaceRec(store, { org: 'o1' });
    const key = putBlob(store, Buffer.from('hello'));
    expect(putBlob(store, Buffer.from('hello'))).toBe(key);
    expect(Buffer.from(blobOf(store, key), 'base64').toString()).toBe('hello');
    const file = { id: 'f1', name: 'a.txt', contentType: 'text/plain', size: 5, blob: key };
    commitToSpace(store, space, { pages: [], files: [file], variables: {} }, 'file');
    commitToSpace(store, other, { pages: [], files: [file], variables: {} }, 'same file');

    store.purgeSpace(space.id);
    expect(blobOf(store, key)).not.toBe('');
    store.purgeSpace(other.id);
    expect(blobOf(store, key)).toBe('');
  });
});
