import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atLeast, collectionRole, maxRole, spacePermissions, spaceRole } from '../../src/server/access.js';
import { parseDuration } from '../../src/server/clock.js';
import { HttpError } from '../../src/server/errors.js';
import { paginate, scopeOf } from '../../src/server/paginate.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { Store } from '../../src/server/store.js';
import { newId } from '../../src/server/ids.js';
import { describeIssue } from '../../src/contract/issues.js';
import { z } from 'zod';
import { ROLES } from '../../src/contract/op.js';

describe('cursor pagination', () => {
  const items = Array.from({ length: 25 }, (_, i) => ({ id: `i${i}` }));
  const key = (x: { id: string }) => x.id;

  it('walks every item exactly once, whatever the page size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), (limit) => {
        const seen: string[] = [];
        let page: string | undefined;
        for (let guard = 0; guard < 100; guard++) {
          const p = paginate(items, { limit, ...(page ? { page } : {}) }, key, 's');
          expect(p.count).toBe(25);
          seen.push(...p.items.map(key));
          if (!p.next) break;
          page = p.next.page;
        }
        expect(seen).toEqual(items.map(key));
      }),
    );
  });

  it('resumes after the last item served when items were inserted or removed before it', () => {
    const list = [...items];
    const p1 = paginate(list, { limit: 10 }, key, 's');
    list.splice(2, 1); // an earlier item disappears
    list.unshift({ id: 'new' }); // and a new one arrives at the front
    const p2 = paginate(list, { limit: 10, page: p1.next!.page }, key, 's');
    expect(p2.items[0].id).toBe('i10');
  });

  it('refuses a cursor of another list, or garbage', () => {
    const p = paginate(items, { limit: 5 }, key, scopeOf('a'));
    expect(() => paginate(items, { page: p.next!.page }, key, scopeOf('b'))).toThrow(HttpError);
    expect(() => paginate(items, { page: 'not-a-cursor' }, key, 's')).toThrow(/page: invalid cursor/);
  });

  it('limit 0 gives an empty page with the count', () => {
    expect(paginate(items, { limit: 0 }, key, 's')).toEqual({ items: [], count: 25 });
  });
});

describe('permissions', () => {
  it('ranks roles and takes the higher', () => {
    expect(maxRole('read', 'edit')).toBe('edit');
    expect(maxRole(null, 'comment')).toBe('comment');
    expect(atLeast(null, 'read')).toBe(false);
    for (const r of ROLES) expect(atLeast(r, 'read')).toBe(true);
  });

  it('a space’s role follows the documented model: a default level of a role sets it for every non-admin (lowers too), guests take none; locked spaces are not editable', () => {
    const store = new Store();
    loadSeed(store, defaultSeed());
    const space = store.data.spaces.get('sp-welcome')!;
    expect(spaceRole(store, 'u-guest', space)).toBeNull();
    expect(spaceRole(store, 'u-read', space)).toBe('read');
    store.data.collections.get('col-handbook')!.defaultLevel = 'comment';
    expect(spaceRole(store, 'u-read', space)).toBe('comment');
    // Before: a default level only raised a role; now it is the role of every non-admin, the editor's too.
    expect(spaceRole(store, 'u-edit', space)).toBe('comment');
    // A guest takes no default level.
    expect(spaceRole(store, 'u-guest', space)).toBeNull();
    expect(spaceRole(store, 'u-admin', space)).toBe('admin');
    expect(collectionRole(store, 'u-read', store.data.collections.get('col-handbook')!)).toBe('comment');
    const p = spacePermissions('edit', space);
    expect(p).toMatchObject({ view: true, comment: true, edit: true, merge: false, admin: false });
    expect(spacePermissions('edit', { editMode: 'locked' }).edit).toBe(false);
    expect(spacePermissions('review', space)).toMatchObject({ merge: true, review: true, admin: false });
    expect(Object.values(spacePermissions(null, space)).every((v) => v === false)).toBe(true);
  });
});

describe('sandbox clock and state', () => {
  it('parses durations', () => {
    expect(parseDuration('8d')).toBe(8 * 86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('8d!')).toBeNull();
  });

  it('exports and loads the whole state, Maps included, and refuses a malformed document unchanged', () => {
    const a = new Store();
    loadSeed(a, defaultSeed('admin-token-1'));
    a.clock.advance(1000);
    const text = a.exportState();
    const b = new Store();
    b.importState(text);
    expect(b.exportState()).toBe(text);
    expect(b.userByToken('admin-token-1')?.id).toBe('u-admin');
    expect(() => b.importState('{"version": 1, "data": {"users": []}}')).toThrow(/data.users must be a map/);
    expect(b.exportState()).toBe(text);
  });

  it('exports no slice a family made on first use and left empty (e.g. for a request it refused)', () => {
    const store = new Store();
    loadSeed(store, defaultSeed('admin-token-1'));
    const before = store.exportState();
    store.slice('comments', () => ({ comments: new Map(), replies: new Map(), threads: new Map() }));
    expect(store.exportState()).toBe(before);
    const sites = store.slice('sites', () => ({ sites: new Map([['s1', { id: 's1' }]]), sections: new Map() }));
    const withSite = store.exportState();
    expect(withSite).not.toBe(before);
    expect(JSON.parse(withSite).data.slices.$map.map(([key]: [string]) => key)).toContain('sites');
    sites.sites.clear();
    expect(store.exportState()).toBe(before);
  });

  it('purges spaces deleted more than 7 days ago, and only those', () => {
    const s = new Store();
    loadSeed(s, defaultSeed());
    s.data.trash.set('sp-welcome', s.clock.now());
    s.clock.advance(6 * 86_400_000);
    s.purgeExpired();
    expect(s.data.spaces.has('sp-welcome')).toBe(true);
    s.clock.advance(86_400_000);
    s.purgeExpired();
    expect(s.data.spaces.has('sp-welcome')).toBe(false);
  });
});

describe('ids', () => {
  it('are 20 URL-safe characters that never start like an option', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20000; i++) {
      const id = newId();
      expect(id).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{19}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(20000);
  });
});

describe('issue wording', () => {
  const schema = z.strictObject({ source: z.enum(['website', 'file']), target: z.union([z.string(), z.number()]) });
  const first = (input: unknown) => schema.safeParse(input).error!.issues[0];

  it('says a missing enum or union field is required, and a wrong one what it must be', () => {
    expect(describeIssue(first({ target: 'x' }), { target: 'x' })).toBe('is required');
    expect(describeIssue(first({ source: 'website' }), { source: 'website' })).toBe('is required');
    expect(describeIssue(first({ source: 'ftp', target: 'x' }), { source: 'ftp', target: 'x' })).toBe('must be one of "website", "file"');
    expect(describeIssue(first({ source: 'website', target: true }), { source: 'website', target: true })).toBe('does not match any allowed form');
  });
});
