/**
 * The families' models called directly, without HTTP: the rules a handler only calls (list order
 * and filters of change requests, links a change request introduces, the last admin, the members'
 * list order, the collection tree, a space's emoji or icon, the trash's order, a SAML provider's fields).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/server/access.js';
import { createChangeRequest, editChangeRequest, introducedBrokenLinks, listOfSpace } from '../../src/server/change-requests/model.js';
import { createCollection, moveCollection, treeOrder } from '../../src/server/collections/model.js';
import { Clock } from '../../src/server/clock.js';
import { HttpError } from '../../src/server/errors.js';
import { listedMembers, removeMember, setRole } from '../../src/server/members/model.js';
import { families } from '../../src/server/routes.js';
import { createProvider, samlProvidersOf, updateProvider } from '../../src/server/saml/model.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { createSpaceRec, spaceFor, trashedSpaces, trashSpace, updateSpace } from '../../src/server/spaces/model.js';
import { Store } from '../../src/server/store.js';

let now = Date.UTC(2026, 5, 1);
let store: Store;
const as = (user: string): Actor => ({ store, caller: { user: store.data.users.get(user)! } });

beforeEach(() => {
  now = Date.UTC(2026, 5, 1);
  store = new Store(new Clock(() => now), families);
  loadSeed(store, defaultSeed());
});

/** The message of the HttpError `fn` throws (and its status). */
function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('change requests', () => {
  it('lists open ones by default, most recently updated first, then newest created', () => {
    const found = spaceFor(as('u-edit'), 'sp-welcome');
    const make = (subject: string) => {
      now += 1000;
      return createChangeRequest(as('u-edit'), found, { subject });
    };
    const a = make('a');
    const b = make('b');
    const c = make('c');
    for (const cr of [a, b, c]) editChangeRequest(as('u-edit'), { ...found, cr }, { status: 'open' });
    // `a` changed last: first by updatedAt; by createdAt the newest comes first.
    now += 1000;
    editChangeRequest(as('u-edit'), { ...found, cr: a }, { subject: 'a again' });
    expect(listOfSpace(store, found.space, {}).map((cr) => cr.subject)).toEqual(['a again', 'c', 'b']);
    expect(listOfSpace(store, found.space, { orderBy: 'createdAt' }).map((cr) => cr.number)).toEqual([3, 2, 1]);
    // Drafts are not listed unless asked for.
    const d = make('draft');
    expect(listOfSpace(store, found.space, {}).map((cr) => cr.id)).not.toContain(d.id);
    expect(listOfSpace(store, found.space, { status: 'draft' }).map((cr) => cr.id)).toEqual([d.id]);
    expect(listOfSpace(store, found.space, { status: ['draft', 'open'], creator: 'u-admin' })).toEqual([]);
  });

  it('edits links as a whole list: an unknown or repeated id is refused and changes nothing', () => {
    const found = spaceFor(as('u-edit'), 'sp-welcome');
    const cr = createChangeRequest(as('u-edit'), found, {});
    editChangeRequest(as('u-edit'), { ...found, cr }, { links: [{ ref: { kind: 'url', url: 'https://a.test/' } }] });
    const id = cr.links![0].id;
    expect(refusal(() => editChangeRequest(as('u-edit'), { ...found, cr }, { links: [{ id: 'nope', ref: { kind: 'url', url: 'https://b.test/' } }] }))).toEqual(
      {
        status: 400,
        message: `links.0.id: change request ${cr.number} has no link nope (leave id out to add a link)`,
      },
    );
    const twice = { id, ref: { kind: 'url' as const, url: 'https://b.test/' } };
    expect(refusal(() => editChangeRequest(as('u-edit'), { ...found, cr }, { links: [twice, twice] })).message).toBe(`links.1.id: link ${id} is given twice`);
    expect(cr.links).toEqual([{ id, ref: { kind: 'url', url: 'https://a.test/' } }]);
  });

  it('refuses a reader creating one', () => {
    expect(refusal(() => createChangeRequest(as('u-read'), spaceFor(as('u-read'), 'sp-welcome'), {})).status).toBe(403);
  });

  it('counts the broken links of a page that were not broken at the base revision', () => {
    const target = (url: string) => ({ kind: 'url', url }) as never;
    const before = [
      { from: { id: 'p1' }, status: 'broken', target: target('/old') },
      { from: { id: 'p2' }, status: 'broken', target: target('/new') },
    ] as never[];
    const items = [
      { status: 'broken', targetReference: target('/old') },
      { status: 'broken', targetReference: target('/new') },
      { status: 'ok', targetReference: target('/fine') },
    ] as never[];
    // `/new` was broken in another page only: in p1 it is new.
    expect(introducedBrokenLinks(items, before, 'p1')).toBe(1);
    expect(introducedBrokenLinks(items, before, 'p3')).toBe(2);
  });
});

describe('members', () => {
  it('keeps the last active admin, per organization', () => {
    const admin = store.member('org-acme', 'u-admin')!;
    expect(refusal(() => setRole(store, 'org-acme', admin, 'read')).message).toContain('u-admin is the last admin of organization org-acme');
    expect(refusal(() => removeMember(store, 'org-acme', admin)).message).toMatch(/^removing a member: u-admin is the last admin/);
    setRole(store, 'org-acme', store.member('org-acme', 'u-create')!, 'admin');
    setRole(store, 'org-acme', admin, 'read');
    expect(admin.role).toBe('read');
  });

  it('sorts by name or by time, either way, ties by user id; filters by role and text', () => {
    const ids = (m: { userId: string }[]) => m.map((x) => x.userId);
    expect(ids(listedMembers(store, 'org-acme', {}, 'name', 'asc')).slice(0, 3)).toEqual(['u-admin', 'u-create', 'u-comment']);
    expect(ids(listedMembers(store, 'org-acme', {}, 'joinedAt', 'desc'))[0]).toBe('u-guest');
    expect(ids(listedMembers(store, 'org-acme', { role: 'guest' }, 'joinedAt', 'asc'))).toEqual(['u-guest']);
    expect(ids(listedMembers(store, 'org-acme', { search: 'REVIEW' }, 'name', 'asc'))).toEqual(['u-review']);
    // Never seen: not in a list sorted by lastSeenAt.
    expect(listedMembers(store, 'org-acme', {}, 'lastSeenAt', 'desc')).toEqual([]);
  });
});

describe('collections', () => {
  it('keeps tree order and refuses a move into one of its own descendants', () => {
    const admin = as('u-admin');
    const top = createCollection(admin, 'org-acme', { title: 'Top' });
    const inner = createCollection(admin, 'org-acme', { title: 'Inner', parent: top.id });
    expect(treeOrder(store, 'org-acme', true).map((c) => c.title)).toEqual(['Handbook', 'Top', 'Inner']);
    expect(treeOrder(store, 'org-acme', false).map((c) => c.title)).toEqual(['Handbook', 'Top']);
    expect(refusal(() => moveCollection(store, top, { parent: inner.id })).message).toBe(
      'parent: a collection cannot move into itself or one of its descendants',
    );
    moveCollection(store, top, { position: { before: { type: 'collection', collection: 'col-handbook' } } });
    expect(treeOrder(store, 'org-acme', true).map((c) => c.title)).toEqual(['Top', 'Inner', 'Handbook']);
  });
});

describe('spaces', () => {
  it('keeps one of an emoji and an icon', () => {
    const found = spaceFor(as('u-admin'), 'sp-welcome');
    updateSpace(store, found, { icon: 'https://a.test/i.png' });
    expect([found.space.emoji, found.space.icon]).toEqual(['', 'https://a.test/i.png']);
    updateSpace(store, found, { emoji: '🚀' });
    expect([found.space.emoji, found.space.icon]).toEqual(['🚀', undefined]);
  });

  it('lists the trash most recently deleted first, only to those who may restore', () => {
    const a = createSpaceRec(store, { org: 'org-acme', title: 'A' });
    const b = createSpaceRec(store, { org: 'org-acme', title: 'B' });
    trashSpace(store, a);
    now += 60_000;
    trashSpace(store, b);
    expect(trashedSpaces(store, 'org-acme', 'u-admin').map((s) => s.title)).toEqual(['B', 'A']);
    expect(trashedSpaces(store, 'org-acme', 'u-edit')).toEqual([]);
  });
});

describe('SAML providers', () => {
  it('refuses a sign-in URL that runs script, storing nothing; an empty value clears a field', () => {
    expect(refusal(() => createProvider(store, 'org-acme', { label: 'IdP', ssoURL: 'JavaScript:alert(1)' })).message).toBe(
      "ssoURL: a javascript: URL would run in the browser; give the identity provider's sign-in address",
    );
    expect(samlProvidersOf(store, 'org-acme')).toEqual([]);
    const p = createProvider(store, 'org-acme', { label: 'IdP', entityID: 'urn:idp', ssoURL: 'https://idp.test/sso' });
    expect(p.defaultRole).toBe('read');
    updateProvider(store, p, { entityID: '', ssoURL: 'about:blank' });
    expect([p.entityID, p.ssoURL]).toEqual([undefined, undefined]);
    expect(refusal(() => updateProvider(store, p, { defaultTeam: 'team-nope' })).message).toBe('defaultTeam: no team team-nope in organization org-acme');
  });
});
