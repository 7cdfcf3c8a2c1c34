/** The role computation of permissions/model.ts alone: precedence, default levels, guests, teams (docs/access.md, Permissions). */
import { describe, expect, it } from 'vitest';
import type { DefaultLevel, Role } from '../../src/contract/op.js';
import { resolveCollection, resolveSite, resolveSpace, type TargetKind, type World } from '../../src/server/permissions/model.js';

interface Org {
  orgRole: Role | null;
  grants?: Record<string, { role: Role; team?: string }>;
  collections?: Record<string, { defaultLevel: DefaultLevel; parent?: string }>;
  sites?: { id: string; defaultLevel: DefaultLevel }[];
}

function world(o: Org): World {
  return {
    orgRole: o.orgRole,
    grant: (kind: TargetKind, id: string) => o.grants?.[`${kind}:${id}`],
    collection: (id) => (o.collections?.[id] ? { id, ...o.collections[id] } : undefined),
    sitesOf: () => o.sites ?? [],
  };
}

const space = (defaultLevel: DefaultLevel, parent?: string) => ({ id: 'sp', defaultLevel, ...(parent ? { parent } : {}) });

describe('resolveSpace', () => {
  it('an admin is admin whatever the levels and grants', () => {
    expect(resolveSpace(world({ orgRole: 'admin', grants: { 'space:sp': { role: 'read' } } }), space(null))).toEqual({
      role: 'admin',
      origin: { type: 'admin' },
    });
  });

  it('inherit up to the organization: the member’s role; a guest none', () => {
    const c = { c1: { defaultLevel: 'inherit' as const } };
    expect(resolveSpace(world({ orgRole: 'edit', collections: c }), space('inherit', 'c1')).role).toBe('edit');
    expect(resolveSpace(world({ orgRole: null, collections: c }), space('inherit', 'c1')).role).toBeNull();
  });

  it('a role level is every non-admin’s role, lower or higher; null is none; a guest takes neither', () => {
    expect(resolveSpace(world({ orgRole: 'create' }), space('read')).role).toBe('read');
    expect(resolveSpace(world({ orgRole: 'read' }), space('review')).role).toBe('review');
    expect(resolveSpace(world({ orgRole: 'create' }), space(null)).role).toBeNull();
    expect(resolveSpace(world({ orgRole: null }), space('admin')).role).toBeNull();
  });

  it('a grant on the space first, then the sites, then the collection chain, then the organization', () => {
    const o: Org = {
      orgRole: 'create',
      collections: { inner: { defaultLevel: 'inherit', parent: 'outer' }, outer: { defaultLevel: 'comment' } },
      sites: [{ id: 'site1', defaultLevel: 'inherit' }],
    };
    expect(resolveSpace(world(o), space('inherit', 'inner'))).toEqual({ role: 'comment', origin: { type: 'default', target: 'collection', id: 'outer' } });
    o.grants = { 'collection:inner': { role: 'edit' } };
    expect(resolveSpace(world(o), space('inherit', 'inner')).role).toBe('edit');
    o.grants['site:site1'] = { role: 'read', team: 'team1' };
    expect(resolveSpace(world(o), space('inherit', 'inner'))).toEqual({ role: 'read', origin: { type: 'grant', target: 'site', id: 'site1', team: 'team1' } });
    o.grants['space:sp'] = { role: 'review' };
    expect(resolveSpace(world(o), space('inherit', 'inner')).role).toBe('review');
    // the space's own level stops what comes from above; its own grant still counts
    delete o.grants['space:sp'];
    expect(resolveSpace(world(o), space('comment', 'inner')).role).toBe('comment');
  });

  it('sites: the highest of those that set a role; inherit and null leave the space to its containers', () => {
    const o: Org = {
      orgRole: 'edit',
      sites: [
        { id: 's1', defaultLevel: 'read' },
        { id: 's2', defaultLevel: 'comment' },
        { id: 's3', defaultLevel: null },
      ],
    };
    expect(resolveSpace(world(o), space('inherit')).role).toBe('comment');
    o.sites = [
      { id: 's3', defaultLevel: null },
      { id: 's4', defaultLevel: 'inherit' },
    ];
    expect(resolveSpace(world(o), space('inherit')).role).toBe('edit');
    // a guest takes a site's grant, not its level
    expect(resolveSpace(world({ orgRole: null, sites: [{ id: 's1', defaultLevel: 'admin' }] }), space('inherit')).role).toBeNull();
    expect(
      resolveSpace(world({ orgRole: null, grants: { 'site:s1': { role: 'comment' } }, sites: [{ id: 's1', defaultLevel: 'admin' }] }), space('inherit')).role,
    ).toBe('comment');
  });

  it('a guest reaches what a grant gives, on the space or above it', () => {
    const o: Org = { orgRole: null, collections: { c1: { defaultLevel: 'read' } }, grants: { 'collection:c1': { role: 'edit' } } };
    expect(resolveSpace(world(o), space('inherit', 'c1')).role).toBe('edit');
    expect(resolveSpace(world(o), space('read', 'c1')).role).toBeNull();
  });

  it('a collection nested in itself (a broken state) ends the walk at the organization', () => {
    expect(resolveSpace(world({ orgRole: 'read', collections: { c1: { defaultLevel: 'inherit', parent: 'c1' } } }), space('inherit', 'c1')).role).toBe('read');
  });
});

describe('resolveCollection and resolveSite', () => {
  it('a collection: a grant, its level, its parent’s, the organization', () => {
    const collections = { c1: { defaultLevel: 'inherit' as const, parent: 'c0' }, c0: { defaultLevel: null } };
    expect(resolveCollection(world({ orgRole: 'edit', collections }), { id: 'c1' }).role).toBeNull();
    expect(resolveCollection(world({ orgRole: 'edit', collections, grants: { 'collection:c1': { role: 'read' } } }), { id: 'c1' }).role).toBe('read');
    expect(resolveCollection(world({ orgRole: 'admin', collections }), { id: 'c1' }).role).toBe('admin');
  });

  it('a site: a grant, its level (inherit or absent: the organization role; null: none)', () => {
    expect(resolveSite(world({ orgRole: 'edit' }), { id: 's', defaultLevel: 'inherit' }).role).toBe('edit');
    expect(resolveSite(world({ orgRole: 'edit' }), { id: 's' }).role).toBe('edit');
    expect(resolveSite(world({ orgRole: 'edit' }), { id: 's', defaultLevel: null }).role).toBeNull();
    expect(resolveSite(world({ orgRole: 'edit' }), { id: 's', defaultLevel: 'read' }).role).toBe('read');
    expect(resolveSite(world({ orgRole: null, grants: { 'site:s': { role: 'comment' } } }), { id: 's', defaultLevel: null }).role).toBe('comment');
  });
});
