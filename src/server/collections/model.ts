/**
 * Collections: nested groups of spaces, ordered among the spaces of their container. Who may see
 * and change one (its role, raised by its and its parents' defaultLevel), the tree's order, and the
 * changes (create, delete with the spaces inside to the trash, move, transfer). Collections are
 * records of the store itself (store.ts).
 */
import type { CreateCollectionBody, MoveCollectionBody } from '../../contract/collections.js';
import { collectionPermissions, collectionRole, orgFor, requireRole, type Actor } from '../access.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { dropForeignSiteSpaces } from '../sites/state.js';
import type { CollectionRec, Store } from '../store.js';

/** The collection and the caller's permissions on it; 404 when missing or in another organization. */
export function collectionFor(actor: Actor, collectionId: string) {
  const c = actor.store.data.collections.get(collectionId);
  if (!c) throw notFound(`no collection ${collectionId}`);
  const { role: orgRole } = orgFor(actor.store, actor.caller, c.org, `no collection ${collectionId}`);
  const permissions = collectionPermissions(collectionRole(actor.store, actor.caller.user.id, c));
  if (!permissions.view) throw forbidden(`viewing collection ${collectionId} needs the read role or above on it`);
  return { collection: c, permissions, orgRole };
}

export function requireAdmin(permissions: { admin: boolean }, what: string): void {
  if (!permissions.admin) throw forbidden(`${what} needs the admin role on the collection`);
}

/** Collections in tree order (depth first, as ordered in their containers). */
export function treeOrder(store: Store, containerId: string, nested: boolean, out: CollectionRec[] = []): CollectionRec[] {
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

/** A new collection at the end of its container; the create role is needed there (a parent's defaultLevel may raise it). */
export function createCollection(actor: Actor, orgId: string, body: CreateCollectionBody): CollectionRec {
  const { store } = actor;
  const { role } = orgFor(store, actor.caller, orgId);
  const parent = body.parent === undefined ? undefined : store.data.collections.get(body.parent);
  if (body.parent !== undefined && (!parent || parent.org !== orgId)) throw badRequest(`parent: no collection ${body.parent} in this organization`);
  // In a collection, the role on it (its `permissions.create` says so).
  requireRole(parent ? collectionRole(store, actor.caller.user.id, parent) : role, 'create', 'creating a collection');
  const c: CollectionRec = {
    id: newId(),
    org: orgId,
    title: body.title ?? 'Untitled',
    ...(body.parent !== undefined ? { parent: body.parent } : {}),
    defaultLevel: 'inherit',
    createdAt: store.now(),
  };
  store.data.collections.set(c.id, c);
  store.childrenOf(c.parent ?? c.org).push(c.id);
  return c;
}

/** Delete a collection and those below it; the spaces inside go to the trash (restorable, back at the organization's root). */
export function deleteCollection(store: Store, collection: CollectionRec): void {
  const now = store.clock.now();
  for (const c of subtree(store, collection)) {
    for (const id of store.data.children.get(c.id) ?? []) {
      const space = store.data.spaces.get(id);
      if (!space) continue;
      space.deletedAt = new Date(now).toISOString();
      delete space.parent;
      if (space.visibility === 'in-collection') space.visibility = 'private';
      store.data.trash.set(space.id, now);
    }
    store.data.children.delete(c.id);
    store.data.collections.delete(c.id);
  }
  store.detachChild(collection.parent ?? collection.org, collection.id);
}

/** Move a collection within its organization: into another collection (not one below it; null: the root) and/or to a position. */
export function moveCollection(store: Store, collection: CollectionRec, body: MoveCollectionBody): void {
  if (body.parent === undefined && body.position === undefined) throw badRequest('body: needs parent or position');
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
}

/** Move a collection, with what it holds, to the root of another organization, where the caller needs the admin role. */
export function transferCollection(actor: Actor, collection: CollectionRec, organization: string): void {
  const { store } = actor;
  const { role: targetRole } = orgFor(store, actor.caller, organization);
  requireRole(targetRole, 'admin', 'transferring into an organization');
  if (organization === collection.org) throw conflict(`the collection is already in organization ${organization}: nothing would change`);
  store.detachChild(collection.parent ?? collection.org, collection.id);
  for (const c of subtree(store, collection)) {
    c.org = organization;
    for (const id of store.data.children.get(c.id) ?? []) {
      const space = store.data.spaces.get(id);
      if (space) space.org = organization;
    }
  }
  delete collection.parent;
  store.childrenOf(organization).push(collection.id);
  dropForeignSiteSpaces(
    store,
    subtree(store, collection).flatMap((c) => store.data.children.get(c.id) ?? []),
  );
}
