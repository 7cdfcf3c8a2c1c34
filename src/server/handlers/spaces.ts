/** Spaces: create, read, list, update, and the lifecycle (delete, restore, duplicate, move, transfer). */
import type { Role } from '../../contract/op.js';
import type { ListedSpace, Space } from '../../contract/spaces.js';
import { ops } from '../../contract/spaces.js';
import { atLeast, collectionRole, maxRole, orgFor, requireRole, spacePermissions, spaceRole } from '../access.js';
import { commitToSpace } from '../content/model.js';
import { filesOfReadableSpaces, newSpaceContent, type TemplateParams } from '../content/templates.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { derivedKey } from '../derived.js';
import { defineFamily, spaceCounters } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId, sameSecret } from '../ids.js';
import { moveItem } from '../order.js';
import { paginate, scopeOf } from '../paginate.js';
import { dropForeignSiteSpaces } from '../sites/state.js';
import { RETENTION_MS, type SpaceRec, type Store } from '../store.js';

/**
 * The Space object as the caller sees it. `minRole` raises the caller's role (a share link gives
 * `read`). Callers who may see invite links get the share link in `urls.published` of a
 * `share-link` space.
 */
export function spaceView(ctx: HandlerCtx, s: SpaceRec, minRole: Role | null = null): Space {
  const counters = spaceCounters(ctx.store, s.id);
  const permissions = spacePermissions(maxRole(spaceRole(ctx.store, ctx.caller.user.id, s), minRole), s);
  const base = ctx.baseUrl;
  const published = `${base}/p/${s.id}`;
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    mergeRules: s.mergeRules,
    urls: {
      location: `${base}/v1/spaces/${s.id}`,
      app: `${base}/app/s/${s.id}`,
      published: s.visibility === 'share-link' && permissions.viewInviteLinks ? `${published}?shareKey=${s.shareKey}` : published,
      public: published,
      ...(s.icon ? { icon: s.icon } : {}),
    },
    organization: s.org,
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.language ? { language: s.language } : {}),
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    ...counters,
    permissions,
  };
}

/**
 * A space the caller may see, with their effective role: 404 for a missing space, a purged one, or
 * one of an organization the caller is not in; 403 when a member may not view it. Deleted spaces
 * are found only with `deleted: true` (restore), and only by those with the admin role on them
 * (who may restore them); to everyone else they do not exist.
 */
export function spaceFor(ctx: HandlerCtx, spaceId: string, opts: { deleted?: boolean } = {}) {
  const space = ctx.store.data.spaces.get(spaceId);
  if (!space || (space.deletedAt && !opts.deleted)) throw notFound(`no space ${spaceId}`);
  const { role: orgRole } = orgFor(ctx.store, ctx.caller, space.org, `no space ${spaceId}`);
  const role = spaceRole(ctx.store, ctx.caller.user.id, space);
  const permissions = spacePermissions(role, space);
  if (space.deletedAt && !permissions.admin) throw notFound(`no space ${spaceId}`);
  if (!permissions.view) throw forbidden(`viewing space ${spaceId} needs the read role or above on it`);
  return { space, role, orgRole, permissions };
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

export function visibleSpaces(ctx: HandlerCtx, orgId: string, filter?: (s: SpaceRec) => boolean): SpaceRec[] {
  const me = ctx.caller.user.id;
  // An admin views every space; anyone else the spaces their role on each lets them (default levels and grants).
  if (ctx.store.member(orgId, me)?.role === 'admin' && !filter) return liveSpacesOf(ctx.store, orgId);
  const out: SpaceRec[] = [];
  for (const s of liveSpacesOf(ctx.store, orgId)) {
    if ((!filter || filter(s)) && spacePermissions(spaceRole(ctx.store, me, s), s).view) out.push(s);
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

type Found = ReturnType<typeof spaceFor>;

function requireSpaceAdmin({ permissions, role }: Found, what: string): void {
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
function collectionIn(store: Store, orgId: string, collectionId: string, field: string) {
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
function trashedSpaces(ctx: HandlerCtx, orgId: string): SpaceRec[] {
  const out: SpaceRec[] = [];
  for (const id of ctx.store.data.trash.keys()) {
    const s = ctx.store.data.spaces.get(id);
    if (s?.deletedAt && s.org === orgId && spacePermissions(spaceRole(ctx.store, ctx.caller.user.id, s), s).admin) out.push(s);
  }
  return out.sort((a, b) => deletedMs(ctx.store, b) - deletedMs(ctx.store, a));
}

function deletedMs(store: Store, s: SpaceRec): number {
  return store.data.trash.get(s.id) ?? Date.parse(s.deletedAt ?? '');
}

function trashView(ctx: HandlerCtx, s: SpaceRec): ListedSpace {
  const until = deletedMs(ctx.store, s) + RETENTION_MS;
  return {
    ...spaceView(ctx, s),
    trash: {
      restorableUntil: new Date(until).toISOString(),
      secondsLeft: Math.max(0, Math.floor((until - ctx.store.clock.now()) / 1000)),
    },
  };
}

const handlers: Handlers<typeof ops> = {
  createSpace: (ctx, { params, body }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    // In a collection, the role on it (its `permissions.create` says so).
    const parent = body.parent === undefined ? undefined : collectionIn(ctx.store, params.organizationId, body.parent, 'parent');
    requireRole(parent ? collectionRole(ctx.store, ctx.caller.user.id, parent) : role, 'create', 'creating a space');
    if (body.computedSource !== undefined) throw badRequest('computedSource: content from a computed source (an integration) is not supported by the sandbox');
    if (body.empty && body.template) throw badRequest('empty: a space made from a template is not empty; give one of empty and template');
    // Checked before the space exists: a template's error changes nothing.
    const content =
      body.template &&
      newSpaceContent(
        ctx.store,
        body.template as { id: string; params?: TemplateParams },
        filesOfReadableSpaces(ctx.store, (id) => spaceFor(ctx, id).space),
      );
    // `empty: true` asks for a space without pages: a new space has none.
    const space = createSpaceRec(ctx.store, {
      org: params.organizationId,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.emoji !== undefined ? { emoji: body.emoji } : {}),
      ...(body.parent !== undefined ? { parent: body.parent } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
      ...(body.editMode !== undefined ? { editMode: body.editMode } : {}),
    });
    if (content) commitToSpace(ctx.store, space, content, `Apply template ${body.template!.id}`);
    return spaceView(ctx, space);
  },

  listSpaces: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    if (query.deleted) {
      const trash = trashedSpaces(ctx, params.organizationId);
      const page = paginate(trash, query, (s) => s.id, scopeOf('spaces', params.organizationId, 'deleted'));
      return { ...page, items: page.items.map((s) => trashView(ctx, s)) };
    }
    const page = paginate(visibleSpaces(ctx, params.organizationId), query, (s) => s.id, scopeOf('spaces', params.organizationId));
    return { ...page, items: page.items.map((s) => spaceView(ctx, s)) };
  },

  getSpace: (ctx, { params, query }) => {
    const space = ctx.store.data.spaces.get(params.spaceId);
    // A share link lets anyone with its key view a live `share-link` space, as a reader.
    if (space && !space.deletedAt && space.visibility === 'share-link' && sameSecret(query.shareKey, space.shareKey)) {
      return spaceView(ctx, space, 'read');
    }
    return spaceView(ctx, spaceFor(ctx, params.spaceId).space);
  },

  updateSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
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
    if (body.mergeRules?.type === 'rules') {
      body.mergeRules.rules.forEach((rule, i) =>
        ('users' in rule ? rule.users : []).forEach((user, j) => {
          if (!ctx.store.member(space.org, user)) throw badRequest(`mergeRules.rules.${i}.users.${j}: ${user} is not a member of organization ${space.org}`);
        }),
      );
    }
    if (adminFields.length + editFields.length === 0) return spaceView(ctx, space);
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
    space.updatedAt = ctx.store.now();
    return spaceView(ctx, space);
  },

  deleteSpace: (ctx, { params }) => {
    // A missing target answers 204, not 404 (the official document gives a delete's 204 as "the target did not exist"); so does one already in the trash.
    const existing = ctx.store.data.spaces.get(params.spaceId);
    if (!existing || existing.deletedAt) return undefined;
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'deleting a space');
    const { space } = found;
    const now = ctx.store.clock.now();
    space.deletedAt = space.updatedAt = new Date(now).toISOString();
    ctx.store.data.trash.set(space.id, now);
    ctx.store.detachChild(containerOf(space), space.id);
    return undefined;
  },

  restoreSpace: (ctx, { params }) => {
    const found = spaceFor(ctx, params.spaceId, { deleted: true });
    requireSpaceAdmin(found, 'restoring a space');
    const { space } = found;
    if (!space.deletedAt) throw conflict(`space ${space.id} is not deleted: nothing would change`);
    // Back at the end of its collection if that still exists in its organization, else at the root.
    const parent = space.parent && ctx.store.data.collections.get(space.parent);
    attachTo(space, parent && parent.org === space.org ? parent.id : undefined);
    ctx.store.childrenOf(containerOf(space)).push(space.id);
    delete space.deletedAt;
    ctx.store.data.trash.delete(space.id);
    space.updatedAt = ctx.store.now();
    return spaceView(ctx, space);
  },

  duplicateSpace: (ctx, { params }) => {
    const { space, orgRole } = spaceFor(ctx, params.spaceId);
    const parent = space.parent ? ctx.store.data.collections.get(space.parent) : undefined;
    requireRole(parent ? collectionRole(ctx.store, ctx.caller.user.id, parent) : orgRole, 'create', 'duplicating a space');
    const copy = createSpaceRec(ctx.store, {
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
    const container = containerOf(space);
    const order = ctx.store.childrenOf(container);
    moveItem(copy.id, order, order, { after: space.id });
    const source = ctx.store.data.revisions.get(space.revision);
    const first = ctx.store.data.revisions.get(copy.revision);
    if (source && first) first.content = structuredClone(source.content);
    return spaceView(ctx, copy);
  },

  moveSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'moving a space');
    const { space } = found;
    const store = ctx.store;
    if (body.parent === undefined && body.position === undefined) throw badRequest('body: needs parent or position');
    const target = body.parent === undefined ? space.parent : (body.parent ?? undefined);
    if (target !== undefined) collectionIn(store, space.org, target, 'parent');
    const where = target ? `collection ${target}` : 'organization root';
    store.moveChild(space.id, containerOf(space), target ?? space.org, body.position, where, 'space');
    attachTo(space, target);
    space.updatedAt = store.now();
    return spaceView(ctx, space);
  },

  transferSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'transferring a space');
    const { space } = found;
    const store = ctx.store;
    const { role: targetRole } = orgFor(store, ctx.caller, body.organization);
    requireRole(targetRole, 'admin', `transferring into organization ${body.organization}`);
    if (body.parent !== undefined) collectionIn(store, body.organization, body.parent, 'parent');
    if (body.organization === space.org && body.parent === space.parent) {
      throw conflict(
        `the space is already in ${body.parent ? `collection ${body.parent}` : `the root of organization ${body.organization}`}: nothing would change`,
      );
    }
    if (space.editMode === 'locked') throw conflict(`space ${space.id} is locked and cannot be moved: unlock it first (editMode live)`);
    store.detachChild(containerOf(space), space.id);
    space.org = body.organization;
    attachTo(space, body.parent);
    store.childrenOf(containerOf(space)).push(space.id);
    // Sites of the former organization no longer show it.
    dropForeignSiteSpaces(store, [space.id]);
    space.updatedAt = store.now();
    return spaceView(ctx, space);
  },
};

export const family = defineFamily({ ops, handlers });
