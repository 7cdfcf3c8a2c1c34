/** The permission model of `docsctl access` (src/commands/access/model.ts): each reason, and the precedence between them. */
import { describe, expect, it } from 'vitest';
import type { DefaultLevel, Role } from '../../src/contract/op.js';
import { describeReason, reachedBy, resolve, targetKey, whoReaches, type Node, type OrgView, type Person } from '../../src/commands/access/model.js';

interface Spec {
  people?: Person[];
  teams?: Record<string, string[]>;
  spaces?: Node[];
  collections?: Node[];
  sites?: Node[];
  sitesOf?: Record<string, string[]>;
  grants?: Record<string, { users?: Record<string, Role | null>; teams?: Record<string, Role | null> }>;
}

const person = (id: string, role: Role | null, disabled = false): Person => ({ id, name: id.toUpperCase(), email: `${id}@x.test`, role, disabled });
const n = (id: string, defaultLevel: DefaultLevel | undefined, parent?: string): Node => ({
  id,
  title: `T-${id}`,
  defaultLevel,
  ...(parent ? { parent } : {}),
});

function org(s: Spec): OrgView {
  return {
    people: new Map((s.people ?? []).map((p) => [p.id, p])),
    teams: new Map(Object.entries(s.teams ?? {}).map(([id, members]) => [id, { title: `Team ${id}`, members: new Set(members) }])),
    spaces: new Map((s.spaces ?? []).map((x) => [x.id, x])),
    collections: new Map((s.collections ?? []).map((x) => [x.id, x])),
    sites: new Map((s.sites ?? []).map((x) => [x.id, x])),
    sitesOf: new Map(Object.entries(s.sitesOf ?? {})),
    grants: new Map(
      Object.entries(s.grants ?? {}).map(([k, g]) => [k, { users: new Map(Object.entries(g.users ?? {})), teams: new Map(Object.entries(g.teams ?? {})) }]),
    ),
  };
}

const ada = person('ada', 'edit');
const gus = person('gus', null);
const root = person('root', 'admin');

describe('access model: reasons', () => {
  it('an admin reaches everything as admin, whatever the levels say', () => {
    const o = org({ people: [root], spaces: [n('s', null)], collections: [n('c', null)], sites: [n('w', null)] });
    for (const [k, id] of [
      ['space', 's'],
      ['collection', 'c'],
      ['site', 'w'],
    ] as const)
      expect(resolve(o, root, k, id)).toEqual({ role: 'admin', reason: { type: 'admin' } });
  });

  it('inherit all the way up gives the organization role; a guest gets nothing', () => {
    const o = org({ people: [ada, gus], collections: [n('c1', 'inherit'), n('c2', 'inherit', 'c1')], spaces: [n('s', 'inherit', 'c2')] });
    expect(resolve(o, ada, 'space', 's')).toEqual({ role: 'edit', reason: { type: 'organization' } });
    expect(resolve(o, gus, 'space', 's').role).toBeNull();
    expect(whoReaches(o, 'space', 's').map((r) => r.person.id)).toEqual(['ada']);
  });

  it("a role as default level is every member's role there, lower or higher than their own", () => {
    const o = org({ people: [ada], spaces: [n('lo', 'read'), n('hi', 'review')] });
    expect(resolve(o, ada, 'space', 'lo')).toEqual({ role: 'read', reason: { type: 'default', on: 'space', id: 'lo' } });
    expect(resolve(o, ada, 'space', 'hi')).toEqual({ role: 'review', reason: { type: 'default', on: 'space', id: 'hi' } });
  });

  it('a collection level reaches the spaces below it that inherit; the nearest level wins', () => {
    const o = org({
      people: [ada],
      collections: [n('top', 'comment'), n('mid', 'inherit', 'top'), n('near', 'read', 'top')],
      spaces: [n('a', 'inherit', 'mid'), n('b', 'inherit', 'near')],
    });
    expect(resolve(o, ada, 'space', 'a')).toEqual({ role: 'comment', reason: { type: 'default', on: 'collection', id: 'top' } });
    expect(resolve(o, ada, 'space', 'b')).toEqual({ role: 'read', reason: { type: 'default', on: 'collection', id: 'near' } });
    expect(resolve(o, ada, 'collection', 'mid')).toEqual({ role: 'comment', reason: { type: 'default', on: 'collection', id: 'top' } });
  });

  it('a null level is no access for members, not for admins', () => {
    const o = org({ people: [ada, root], collections: [n('c', null)], spaces: [n('s', 'inherit', 'c')] });
    expect(resolve(o, ada, 'space', 's').role).toBeNull();
    expect(whoReaches(o, 'space', 's').map((r) => [r.person.id, r.role])).toEqual([['root', 'admin']]);
  });

  it("a team's grant names the team; the highest of the person's grants wins; a direct grant wins a tie", () => {
    const o = org({
      people: [ada, person('bob', 'read')],
      teams: { t1: ['ada', 'bob'], t2: ['ada'] },
      spaces: [n('s', null)],
      grants: { [targetKey('space', 's')]: { users: { bob: 'comment' }, teams: { t1: 'comment', t2: 'review' } } },
    });
    expect(resolve(o, ada, 'space', 's')).toEqual({ role: 'review', reason: { type: 'team', on: 'space', id: 's', team: 't2' } });
    expect(resolve(o, person('bob', 'read'), 'space', 's')).toEqual({ role: 'comment', reason: { type: 'direct', on: 'space', id: 's' } });
    const why = whoReaches(o, 'space', 's').map((r) => describeReason(o, r.reason, r.person));
    expect(why).toEqual(['team Team t2 (t2) on space T-s (s)', 'direct grant on space T-s (s)']);
  });

  it('a grant on a space overrides its level, even downwards (precedence, not the highest)', () => {
    const o = org({ people: [ada], spaces: [n('s', 'review')], grants: { 'space:s': { users: { ada: 'read' } } } });
    expect(resolve(o, ada, 'space', 's')).toEqual({ role: 'read', reason: { type: 'direct', on: 'space', id: 's' } });
  });

  it('a guest reaches only what they were invited to (directly or through a team), default levels give them nothing', () => {
    const o = org({
      people: [gus],
      teams: { t: ['gus'] },
      collections: [n('c', 'edit')],
      spaces: [n('invited', 'read'), n('open', 'edit'), n('below', 'inherit', 'c')],
      sites: [n('w', 'comment')],
      grants: { 'space:invited': { users: { gus: 'comment' } }, 'collection:c': { teams: { t: 'read' } } },
    });
    expect(resolve(o, gus, 'space', 'invited')).toEqual({ role: 'comment', reason: { type: 'guest', on: 'space', id: 'invited' } });
    expect(resolve(o, gus, 'space', 'open').role).toBeNull();
    expect(resolve(o, gus, 'space', 'below')).toEqual({ role: 'read', reason: { type: 'team', on: 'collection', id: 'c', team: 't' } });
    expect(resolve(o, gus, 'site', 'w').role).toBeNull();
    expect(reachedBy(o, gus).map((r) => `${r.kind}:${r.target.id}:${r.role}:${r.reason.type}`)).toEqual([
      'collection:c:read:team',
      'space:below:read:team',
      'space:invited:comment:guest',
    ]);
  });

  it('a site that shows an inheriting space takes precedence over its collection; the highest site wins', () => {
    const o = org({
      people: [ada],
      collections: [n('c', 'review')],
      spaces: [n('s', 'inherit', 'c'), n('own', 'read')],
      sites: [n('w1', 'comment'), n('w2', 'read'), n('w3', 'inherit')],
      sitesOf: { s: ['w2', 'w1', 'w3'], own: ['w1'] },
    });
    expect(resolve(o, ada, 'space', 's')).toEqual({ role: 'comment', reason: { type: 'default', on: 'site', id: 'w1' } });
    // A space with a level of its own does not look at its sites.
    expect(resolve(o, ada, 'space', 'own')).toEqual({ role: 'read', reason: { type: 'default', on: 'space', id: 'own' } });
    // A site in inherit gives its spaces nothing of its own: the collection decides.
    const o2 = org({ people: [ada], collections: [n('c', 'review')], spaces: [n('s', 'inherit', 'c')], sites: [n('w3', 'inherit')], sitesOf: { s: ['w3'] } });
    expect(resolve(o2, ada, 'space', 's')).toEqual({ role: 'review', reason: { type: 'default', on: 'collection', id: 'c' } });
  });

  it('a site: a grant on it, its level, else the organization role', () => {
    const o = org({
      people: [ada],
      teams: { t: ['ada'] },
      sites: [n('a', 'inherit'), n('b', 'read'), n('c', null)],
      grants: { 'site:c': { teams: { t: 'create' } } },
    });
    expect(resolve(o, ada, 'site', 'a')).toEqual({ role: 'edit', reason: { type: 'organization' } });
    expect(resolve(o, ada, 'site', 'b')).toEqual({ role: 'read', reason: { type: 'default', on: 'site', id: 'b' } });
    expect(resolve(o, ada, 'site', 'c')).toEqual({ role: 'create', reason: { type: 'team', on: 'site', id: 'c', team: 't' } });
  });

  it('a disabled member reaches nothing; a team grant does not reach non-members of the team; a null grant gives nothing', () => {
    const off = person('off', 'admin', true);
    const o = org({ people: [off, ada], teams: { t: [] }, spaces: [n('s', null)], grants: { 'space:s': { users: { ada: null }, teams: { t: 'edit' } } } });
    expect(resolve(o, off, 'space', 's').role).toBeNull();
    expect(resolve(o, ada, 'space', 's').role).toBeNull();
  });

  it('a loop of collections (a broken answer) ends', () => {
    const o = org({ people: [ada], collections: [n('a', 'inherit', 'b'), n('b', 'inherit', 'a')], spaces: [n('s', 'inherit', 'a')] });
    expect(resolve(o, ada, 'space', 's')).toEqual({ role: 'edit', reason: { type: 'organization' } });
  });
});
