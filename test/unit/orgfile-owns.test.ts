/** What the files own (src/orgfile/owns.ts), and how files merge (src/orgfile/source.ts checkOrgFiles). */
import { describe, expect, it } from 'vitest';
import { ownership, type Owner } from '../../src/orgfile/owns.js';
import { checkOrgFiles } from '../../src/orgfile/source.js';
import type { Kind } from '../../src/orgfile/schema.js';

const live = {
  // root ─ a ─ a1 ─ a2 ; b ─ b1
  collections: [{ id: 'a' }, { id: 'a1', parent: 'a' }, { id: 'a2', parent: 'a1' }, { id: 'b' }, { id: 'b1', parent: 'b' }],
  sites: [{ id: 's1' }, { id: 's2' }],
};
const byId = (_kind: 'collection' | 'site', ref: string) => ref;
const owner = (o: Omit<Partial<Owner>, 'declares'> & { declares: Kind[] }): Owner => ({
  source: 'f.yaml',
  whole: new Set(),
  collections: [],
  sites: [],
  ...o,
  declares: new Set(o.declares),
});

describe('ownership', () => {
  it('a subtree: the collections inside it (not its root) and the spaces in it and its root, of the kinds the file declares', () => {
    const o = ownership([owner({ declares: ['collections', 'spaces'], collections: ['a'] })], live, byId);
    expect(live.collections.filter((c) => o.collection(c)).map((c) => c.id)).toEqual(['a1', 'a2']);
    expect(['a', 'a1', 'a2', 'b', 'b1'].filter((p) => o.space({ parent: p }))).toEqual(['a', 'a1', 'a2']);
    expect(o.space({})).toBe(false); // a space at the root belongs to no subtree
    expect(o.site({ id: 's1' })).toBe(false);
    expect(o.whole('members')).toBe(false);
    // Spaces only: the collections inside are not its to delete.
    const spacesOnly = ownership([owner({ declares: ['spaces'], collections: ['a'] })], live, byId);
    expect(live.collections.filter((c) => spacesOnly.collection(c))).toEqual([]);
    expect(spacesOnly.space({ parent: 'a2' })).toBe(true);
  });

  it('owners add up; a reference that resolves to nothing owns nothing; no owners: everything', () => {
    const o = ownership(
      [
        owner({ declares: ['collections'], collections: ['b', 'gone'] }),
        owner({ declares: ['sites', 'members'], sites: ['s2'], whole: new Set<Kind>(['members']) }),
      ],
      live,
      (kind, ref) => (ref === 'gone' ? undefined : byId(kind, ref)),
    );
    expect(live.collections.filter((c) => o.collection(c)).map((c) => c.id)).toEqual(['b1']);
    expect(live.sites.filter((s) => o.site(s)).map((s) => s.id)).toEqual(['s2']);
    expect(o.whole('members')).toBe(true);
    expect(o.whole('saml')).toBe(false);
    const all = ownership(undefined, live, byId);
    expect(all.collection({ id: 'a' }) && all.site({ id: 's1' }) && all.whole('openapi') && all.space({})).toBe(true);
  });

  it('a file without owns: owns the kinds it declares whole', () => {
    const c = checkOrgFiles([{ source: 'a.yaml', text: 'version: 1\ncollections: []\nmembers: []\n', baseDir: '/' }]);
    expect(c.problems).toEqual([]);
    const [o] = c.desired!.owners!;
    expect([...o.whole].sort()).toEqual(['collections', 'members']);
    const d = checkOrgFiles([{ source: 'b.yaml', text: 'version: 1\nowns: { kinds: [members] }\ncollections: []\nmembers: []\n', baseDir: '/' }]);
    expect([...d.desired!.owners![0].whole]).toEqual(['members']);
  });
});

describe('files merged', () => {
  it('a bad item is left out and reported, the others are checked on, each at its own file and index', () => {
    const c = checkOrgFiles([
      { source: 'a.yaml', text: 'version: 1\nspaces:\n  - title: A\n    emoji: 12\n  - title: B\n    parent: nope\n', baseDir: '/' },
      { source: 'b.yaml', text: 'version: 1\ncollections:\n  - title: C\nspaces:\n  - title: D\n    parent: c\n  - title: E\n    parent: cc\n', baseDir: '/' },
    ]);
    expect(c.desired).toBeUndefined();
    expect(c.problems.map((p) => `${p.where} ${p.path}`)).toEqual([
      'a.yaml:4:12 spaces[0].emoji',
      'a.yaml:6:13 spaces[1].parent',
      'b.yaml:8:13 spaces[1].parent',
    ]);
  });

  it('a reference to an item left out for its own problem is not reported again', () => {
    const c = checkOrgFiles([
      { source: 'a.yaml', text: 'version: 1\ncollections:\n  - title: Guides\n    colour: red\nspaces:\n  - title: S\n    parent: guides\n', baseDir: '/' },
    ]);
    expect(c.problems.map((p) => p.path)).toEqual(['collections[0].colour']);
  });
});
