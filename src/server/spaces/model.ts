/**
 * Spaces: who may see a space, the spaces of an organization as a caller sees them, and the
 * lifecycle's rules (create, update, delete to the trash, restore, duplicate, move, transfer). Spaces
 * are records of the store itself (store.ts); other families find them here.
 */
import type { MoveSpaceBody, TransferSpaceBody, UpdateSpaceBody } from '../../contract/spaces.js';
import { atLeast, orgFor, requireRole, spacePermissions, spaceRole, collectionRole, type Actor } from '../access.js';
import { filesOfReadableSpaces } from '../content/templates.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { derivedKey } from '../derived.js';
import { newId } from '../ids.js';
import { moveItem } from '../order.js';
import { encode } from '../persist/codec.js';
import { checkRuleUsers } from '../orgs/model.js';
import { dropForeignSiteSpaces } from '../sites/state.js';
import type { SpaceRec, Store } from '../store.js';

/**
 * A space the caller may see, with their effective role: 404 for a missing space, a purged one, or
 * one of an organization the caller is not in; 403 when a member may not view it. Deleted spaces
 * are found only with `deleted: true` (restore), and only by those with the admin role on them
 * (who may restore them); to everyone else they do not exist.
 */
export function spaceFor(actor: Actor, spaceId: string, opts: { deleted?: boolean } = {}) {
  const space = actor.store.data.spaces.get(spaceId);
  if (!space || (space.deletedAt && !opts.deleted)) throw notFound(`no space ${spaceId}`);
  const { role: orgRole } = orgFor(actor.store, actor.caller, space.org, `no space ${spaceId}`);
  const role = spaceRole(actor.store, actor.caller.user.id, space);
  const permissions = spacePermissions(role, space);
  if (space.deletedAt && !permissions.admin) throw notFound(`no space ${spaceId}`);
  if (!permissions.view) throw forbidden(`viewing space ${spaceId} needs the read role or above on it`);
  return { space, role, orgRole, permissions };
}

/** A space the caller may see (spaceFor), with their role and permissions on it. */
export type FoundSpace = ReturnType<typeof spaceFor>;

/** The caller's permissions on a space. */
export type SpacePermissions = FoundSpace['permissions'];

/** Files of other spaces a template may reference, as the caller may read them. */
export function templateFiles(actor: Actor) {
  return filesOfReadableSpaces(actor.store, (id) => spaceFor(actor, id).space);
}

/** Each organization's live spaces in creation order, built on first use after a change. */
const LIVE_SPACES = derivedKey<Map<string, SpaceRec[]>>('live spaces by organization');

/**
 * The live spaces of an organization, in order, as of this version of the state (Store.derived):
 * pages of a listing are cut from this list rather than from one collected per request.
 */
function liveSpacesOf(store: Store, orgId: string): SpaceRec[] {
  const byOrg = store.derived.get(LIVE_SPACES, () => new Map());
  let list = byOrg.get(orgId);
  if (!list) {
    list = [];
    for (const s of store.data.spaces.values()) if (s.org === orgId && !s.deletedAt) list.push(s);
    byOrg.set(orgId, list);
  }
  return list;
}

/** Spaces of an organization the caller can view, in creation order, deleted ones left out. */
export function visibleSpaces(actor: Actor, orgId: string, filter?: (s: SpaceRec) => boolean): SpaceRec[] {
  const me = actor.caller.user.id;
  // An admin views every space; anyone else the spaces their role on each lets them (default levels and grants).
  if (actor.store.member(orgId, me)?.role === 'admin' && !filter) return liveSpacesOf(actor.store, orgId);
  const out: SpaceRec[] = [];
  for (const s of liveSpacesOf(actor.store, orgId)) {
    if ((!filter || filter(s)) && spacePermissions(spaceRole(actor.store, me, s), s).view) out.push(s);
  }
  return out;
}

/** A new space with an empty first revision, attached at the end of its container. */
export function createSpaceRec(store: Store, init: Partial<SpaceRec> & { org: string }): SpaceRec {
  const now = store.now();
  const id = init.id ?? newId();
  const revision = newId();
  store.data.revisions.set(revision, { id: revision, space: id, parents: [], createdAt: now, type: 'edits', content: undefined });
  const space: SpaceRec = {
    title: 'Untitled',
    emoji: '',
    visibility: init.parent ? 'in-collection' : 'private',
    createdAt: now,
    updatedAt: now,
    editMode: 'live',
    mergeRules: { type: 'inherit' },
    revision,
    defaultLevel: 'inherit',
    shareKey: newId(),
    ...init,
    id,
  };
  store.data.spaces.set(id, space);
  store.childrenOf(space.parent ?? space.org).push(id);
  return space;
}

// ---------------------------------------------------------------------------------------------
// The lifecycle

export function requireSpaceAdmin({ permissions, role }: FoundSpace, what: string): void {
  if (!permissions.admin) throw forbidden(`${what} needs the admin role on the space; you have ${role ?? 'guest access'}`);
}

/** The ordered list a space sits in: its collection's, or its organization's root. */
function containerOf(s: SpaceRec): string {
  return s.parent ?? s.org;
}

/** Put a space in a container (its collection, or the root when `parent` is undefined). */
function attachTo(space: SpaceRec, parent: string | undefined): void {
  if (parent) {
    space.parent = parent;
  } else {
    delete space.parent;
    // Only a space in a collection can be visible to those who can access the collection.
    if (space.visibility === 'in-collection') space.visibility = 'private';
  }
}

/** A collection of `orgId`, or 400 naming the field. */
export function collectionIn(store: Store, orgId: string, collectionId: string, field: string) {
  const c = store.data.collections.get(collectionId);
  if (!c || c.org !== orgId) throw badRequest(`${field}: no collection ${collectionId} in organization ${orgId}`);
  return c;
}

const COPY_SUFFIX = ' (copy)';
const MAX_TITLE = 50;

/** "<title> (copy)", the title shortened (by whole characters) to keep it within 50. */
export function copyTitle(title: string): string {
  let kept = '';
  for (const ch of title) {
    if (kept.length + ch.length + COPY_SUFFIX.length > MAX_TITLE) break;
    kept += ch;
  }
  return (kept.length < title.length ? kept.trimEnd() : kept) + COPY_SUFFIX;
}

/** Deleted spaces of an organization that the caller may restore, most recently deleted first. */
export function trashedSpaces(store: Store, orgId: string, userId: string): SpaceRec[] {
  const out: SpaceRec[] = [];
  for (const id of store.data.trash.keys()) {
    const s = store.data.spaces.get(id);
    if (s?.deletedAt && s.org === orgId && spacePermissions(spaceRole(store, userId, s), s).admin) out.push(s);
  }
  return out.sort((a, b) => deletedMs(store, b) - deletedMs(store, a));
}

/** When a space went to the trash, in ms. */
export function deletedMs(store: Store, s: SpaceRec): number {
  return store.data.trash.get(s.id) ?? Date.parse(s.deletedAt ?? '');
}

/**
 * Change a space as `PATCH {s}` asks: `editMode`, `defaultLevel` and `mergeRules` need the admin
 * role; the title, emoji, icon and language the edit role on an unlocked space (unless this very
 * request unlocks it). Users named by merge rules must be members. Checked before anything changes.
 * Whether anything changed (values already there change nothing, `updatedAt` included).
 */
export function updateSpace(store: Store, found: FoundSpace, body: UpdateSpaceBody): boolean {
  const { space, role } = found;
  const adminFields = (['editMode', 'defaultLevel', 'mergeRules'] as const).filter((k) => body[k] !== undefined);
  const editFields = (['title', 'emoji', 'icon', 'language'] as const).filter((k) => body[k] !== undefined);
  if (adminFields.length > 0) requireSpaceAdmin(found, `changing ${adminFields.join(', ')}`);
  if (editFields.length > 0) {
    if (!atLeast(role, 'edit')) {
      throw forbidden(`changing ${editFields.join(', ')} needs the edit role or above on the space; you have ${role ?? 'guest access'}`);
    }
    // A locked space takes no edits, unless this very request unlocks it.
    if (space.editMode === 'locked' && body.editMode !== 'live') {
      throw forbidden(`space ${space.id} is locked: changing ${editFields.join(', ')} needs it unlocked (editMode live, by an admin)`);
    }
  }
  checkRuleUsers(store, space.org, body.mergeRules);
  if (adminFields.length + editFields.length === 0) return false;
  const before = encode(space);
  if (body.editMode !== undefined) space.editMode = body.editMode;
  if (body.defaultLevel !== undefined) space.defaultLevel = body.defaultLevel;
  if (body.mergeRules !== undefined) space.mergeRules = body.mergeRules;
  if (body.title !== undefined) space.title = body.title;
  // One of an emoji and an icon: setting one clears the other; null removes it.
  if (body.emoji !== undefined) {
    space.emoji = body.emoji ?? '';
    if (body.emoji !== null) delete space.icon;
  }
  if (body.icon !== undefined) {
    if (body.icon === null) delete space.icon;
    else {
      space.icon = body.icon;
      space.emoji = '';
    }
  }
  if (body.language !== undefined) space.language = body.language;
  // The values already there: nothing changed, not even the time of the last change.
  if (encode(space) === before) return false;
  space.updatedAt = store.now();
  return true;
}

/** Put a space in the trash (restorable for RETENTION_MS), out of its container. */
export function trashSpace(store: Store, space: SpaceRec): void {
  const now = store.clock.now();
  space.deletedAt = space.updatedAt = new Date(now).toISOString();
  store.data.trash.set(space.id, now);
  store.detachChild(containerOf(space), space.id);
}

/** Take a space out of the trash: back at the end of its collection if that still exists in its organization, else at the root. */
export function restoreSpace(store: Store, space: SpaceRec): void {
  if (!space.deletedAt) throw conflict(`space ${space.id} is not deleted: nothing would change`);
  const parent = space.parent && store.data.collections.get(space.parent);
  attachTo(space, parent && parent.org === space.org ? parent.id : undefined);
  store.childrenOf(containerOf(space)).push(space.id);
  delete space.deletedAt;
  store.data.trash.delete(space.id);
  space.updatedAt = store.now();
}

/** A copy of a space (its settings and its current content), right after it in its container; the create role is needed there. */
export function duplicateSpace(store: Store, { space, orgRole }: FoundSpace, userId: string): SpaceRec {
  const parent = space.parent ? store.data.collections.get(space.parent) : undefined;
  requireRole(parent ? collectionRole(store, userId, parent) : orgRole, 'create', 'duplicating a space');
  const copy = createSpaceRec(store, {
    org: space.org,
    title: copyTitle(space.title),
    emoji: space.emoji,
    visibility: space.visibility,
    editMode: space.editMode,
    mergeRules: structuredClone(space.mergeRules),
    defaultLevel: space.defaultLevel,
    ...(space.parent ? { parent: space.parent } : {}),
    ...(space.icon ? { icon: space.icon } : {}),
    ...(space.language ? { language: space.language } : {}),
  });
  // Right after the source, not at the end of the container.
  const order = store.childrenOf(containerOf(space));
  moveItem(copy.id, order, order, { after: space.id });
  const source = store.data.revisions.get(space.revision);
  const first = store.data.revisions.get(copy.revision);
  if (source && first) first.content = structuredClone(source.content);
  return copy;
}

/** Move a space within its organization: into a collection (`parent`; null: the root) and/or to a position. */
export function moveSpace(store: Store, space: SpaceRec, move: MoveSpaceBody): void {
  if (move.parent === undefined && move.position === undefined) throw badRequest('body: needs parent or position');
  const target = move.parent === undefined ? space.parent : (move.parent ?? undefined);
  if (target !== undefined) collectionIn(store, space.org, target, 'parent');
  const where = target ? `collection ${target}` : 'organization root';
  store.moveChild(space.id, containerOf(space), target ?? space.org, move.position, where, 'space');
  attachTo(space, target);
  space.updatedAt = store.now();
}

/** Move an unlocked space to another organization (or collection): the caller needs the admin role there. */
export function transferSpace(actor: Actor, space: SpaceRec, to: TransferSpaceBody): void {
  const { store } = actor;
  const { role: targetRole } = orgFor(store, actor.caller, to.organization);
  requireRole(targetRole, 'admin', `transferring into organization ${to.organization}`);
  if (to.parent !== undefined) collectionIn(store, to.organization, to.parent, 'parent');
  if (to.organization === space.org && to.parent === space.parent) {
    throw conflict(`the space is already in ${to.parent ? `collection ${to.parent}` : `the root of organization ${to.organization}`}: nothing would change`);
  }
  if (space.editMode === 'locked') throw conflict(`space ${space.id} is locked and cannot be moved: unlock it first (editMode live)`);
  store.detachChild(containerOf(space), space.id);
  space.org = to.organization;
  attachTo(space, to.parent);
  store.childrenOf(containerOf(space)).push(space.id);
  // Sites of the former organization no longer show it.
  dropForeignSiteSpaces(store, [space.id]);
  space.updatedAt = store.now();
}
