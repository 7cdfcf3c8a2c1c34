/** Collections: nested groups of spaces, ordered among the spaces of their container. */
import type { Collection } from '../../contract/collections.js';
import { ops } from '../../contract/collections.js';
import { collectionPermissions, collectionRole, orgFor, requireRole } from '../access.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import { dropForeignSiteSpaces } from '../sites/state.js';
import type { CollectionRec, Store } from '../store.js';
import { spaceView, visibleSpaces } from './spaces.js';

function collectionView(ctx: HandlerCtx, c: CollectionRec): Collection {
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.org,
    ...(c.parent ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel,
    urls: { location: `${ctx.baseUrl}/v1/collections/${c.id}`, app: `${ctx.baseUrl}/app/o/${c.org}/c/${c.id}` },
    permissions: collectionPermissions(collectionRole(ctx.store, ctx.caller.user.id, c)),
  };
}

/** The collection and the caller's permissions on it; 404 when missing or in another organization. */
export function collectionFor(ctx: HandlerCtx, collectionId: string) {
  const c = ctx.store.data.collections.get(collectionId);
  if (!c) throw notFound(`no collection ${collectionId}`);
  const { role: orgRole } = orgFor(ctx.store, ctx.caller, c.org, `no collection ${collectionId}`);
  const permissions = collectionPermissions(collectionRole(ctx.store, ctx.caller.user.id, c));
  if (!permissions.view) throw forbidden(`viewing collection ${collectionId} needs the read role or above on it`);
  return { collection: c, permissions, orgRole };
}

function requireAdmin(permissions: { admin: boolean }, what: string): void {
  if (!permissions.admin) throw forbidden(`${what} needs the admin role on the collection`);
}

/** Collections in tree order (depth first, as ordered in their containers). */
function treeOrder(store: Store, containerId: string, nested: boolean, out: CollectionRec[] = []): CollectionRec[] {
  for (const id of store.data.children.get(containerId) ?? []) {
    const c = store.data.collections.get(id);
    if (!c) continue;
    out.push(c);
    if (nested) treeOrder(store, c.id, nested, out);
  }
  return out;
}

/** The collection and every collection below it. */
function subtree(store: Store, c: CollectionRec): CollectionRec[] {
  return [c, ...treeOrder(store, c.id, true)];
}

const handlers: Handlers<typeof ops> = {
  listCollections: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const nested = query.nested ?? true;
    const all = treeOrder(ctx.store, params.organizationId, nested).filter((c) => collectionPermissions(collectionRole(ctx.store, ctx.caller.user.id, c)).view);
    const page = paginate(all, query, (c) => c.id, scopeOf('collections', params.organizationId, nested));
    return { ...page, items: page.items.map((c) => collectionView(ctx, c)) };
  },

  createCollection: (ctx, { params, body }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    const parent = body.parent === undefined ? undefined : ctx.store.data.collections.get(body.parent);
    if (body.parent !== undefined && (!parent || parent.org !== params.organizationId))
      throw badRequest(`parent: no collection ${body.parent} in this organization`);
    // In a collection, the role on it (its `permissions.create` says so).
    requireRole(parent ? collectionRole(ctx.store, ctx.caller.user.id, parent) : role, 'create', 'creating a collection');
    const c: CollectionRec = {
      id: newId(),
      org: params.organizationId,
      title: body.title ?? 'Untitled',
      ...(body.parent !== undefined ? { parent: body.parent } : {}),
      defaultLevel: 'inherit',
      createdAt: ctx.store.now(),
    };
    ctx.store.data.collections.set(c.id, c);
    ctx.store.childrenOf(c.parent ?? c.org).push(c.id);
    return collectionView(ctx, c);
  },

  getCollection: (ctx, { params }) => collectionView(ctx, collectionFor(ctx, params.collectionId).collection),

  updateCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'updating a collection');
    if (body.title !== undefined) collection.title = body.title;
    if (body.description !== undefined) collection.description = body.description;
    if (body.defaultLevel !== undefined) collection.defaultLevel = body.defaultLevel;
    return collectionView(ctx, collection);
  },

  deleteCollection: (ctx, { params }) => {
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!ctx.store.data.collections.has(params.collectionId)) return undefined;
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'deleting a collection');
    const now = ctx.store.clock.now();
    for (const c of subtree(ctx.store, collection)) {
      // Spaces inside go to the trash (restorable for 7 days, back at the organization's root).
      for (const id of ctx.store.data.children.get(c.id) ?? []) {
        const space = ctx.store.data.spaces.get(id);
        if (!space) continue;
        space.deletedAt = new Date(now).toISOString();
        delete space.parent;
        if (space.visibility === 'in-collection') space.visibility = 'private';
        ctx.store.data.trash.set(space.id, now);
      }
      ctx.store.data.children.delete(c.id);
      ctx.store.data.collections.delete(c.id);
    }
    ctx.store.detachChild(collection.parent ?? collection.org, collection.id);
    return undefined;
  },

  listCollectionSpaces: (ctx, { params, query }) => {
    const { collection } = collectionFor(ctx, params.collectionId);
    const order = ctx.store.data.children.get(collection.id) ?? [];
    const rank = new Map(order.map((id, i) => [id, i]));
    const spaces = visibleSpaces(ctx, collection.org, (s) => s.parent === collection.id).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    const page = paginate(spaces, query, (s) => s.id, scopeOf('collection-spaces', collection.id));
    return { ...page, items: page.items.map((s) => spaceView(ctx, s)) };
  },

  moveCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'moving a collection');
    if (body.parent === undefined && body.position === undefined) throw badRequest('body: needs parent or position');
    const store = ctx.store;
    const target = body.parent === undefined ? collection.parent : (body.parent ?? undefined);
    if (target !== undefined) {
      const parent = store.data.collections.get(target);
      if (!parent || parent.org !== collection.org) throw badRequest(`parent: no collection ${target} in this organization`);
      if (subtree(store, collection).some((c) => c.id === target)) throw badRequest('parent: a collection cannot move into itself or one of its descendants');
    }
    store.moveChild(
      collection.id,
      collection.parent ?? collection.org,
      target ?? collection.org,
      body.position,
      target ? 'collection' : 'organization root',
      'collection',
    );
    if (target) collection.parent = target;
    else delete collection.parent;
    return collectionView(ctx, collection);
  },

  transferCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'transferring a collection');
    const { role: targetRole } = orgFor(ctx.store, ctx.caller, body.organization);
    requireRole(targetRole, 'admin', 'transferring into an organization');
    if (body.organization === collection.org) throw conflict(`the collection is already in organization ${body.organization}: nothing would change`);
    const store = ctx.store;
    store.detachChild(collection.parent ?? collection.org, collection.id);
    for (const c of subtree(store, collection)) {
      c.org = body.organization;
      for (const id of store.data.children.get(c.id) ?? []) {
        const space = store.data.spaces.get(id);
        if (space) space.org = body.organization;
      }
    }
    delete collection.parent;
    store.childrenOf(body.organization).push(collection.id);
    dropForeignSiteSpaces(
      store,
      subtree(store, collection).flatMap((c) => store.data.children.get(c.id) ?? []),
    );
    return collectionView(ctx, collection);
  },
};

export const family = defineFamily({ ops, handlers });
