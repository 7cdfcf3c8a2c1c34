/** Spaces: create, read, list (the rest of the family builds on these views). */
import type { Space } from '../../contract/spaces.js';
import { ops } from '../../contract/spaces.js';
import { orgFor, requireRole, spacePermissions, spaceRole } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import type { SpaceRec, Store } from '../store.js';

/** Counters that other families derive for a space (change requests, comments). */
export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}
type CounterSource = (store: Store, spaceId: string) => Partial<SpaceCounters>;
const counterSources: CounterSource[] = [];
/** A family that owns part of a space's counters registers how to compute them. */
export function registerSpaceCounters(source: CounterSource): void {
  counterSources.push(source);
}

export function spaceView(ctx: HandlerCtx, s: SpaceRec): Space {
  const orgRole = ctx.store.member(s.org, ctx.caller.user.id)?.role ?? null;
  const counters: SpaceCounters = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };
  for (const source of counterSources) Object.assign(counters, source(ctx.store, s.id));
  const base = ctx.baseUrl;
  return {
    object: 'space', id: s.id, title: s.title, emoji: s.emoji, visibility: s.visibility,
    createdAt: s.createdAt, updatedAt: s.updatedAt,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode, mergeRules: s.mergeRules,
    urls: {
      location: `${base}/v1/spaces/${s.id}`, app: `${base}/app/s/${s.id}`,
      published: `${base}/p/${s.id}`, public: `${base}/p/${s.id}`,
    },
    organization: s.org,
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.language ? { language: s.language } : {}),
    revision: s.revision, defaultLevel: s.defaultLevel, ...counters,
    permissions: spacePermissions(spaceRole(ctx.store, orgRole, s), s),
  };
}

/**
 * A space the caller may see, with their effective role: 404 for a missing space, a purged one, or
 * one of an organization the caller is not in; 403 when a member may not view it. Deleted spaces
 * are found only with `deleted: true` (restore).
 */
export function spaceFor(ctx: HandlerCtx, spaceId: string, opts: { deleted?: boolean } = {}) {
  const space = ctx.store.data.spaces.get(spaceId);
  if (!space || (space.deletedAt && !opts.deleted)) throw notFound(`no space ${spaceId}`);
  const { role: orgRole } = orgFor(ctx.store, ctx.caller, space.org);
  const role = spaceRole(ctx.store, orgRole, space);
  const permissions = spacePermissions(role, space);
  if (!permissions.view) throw forbidden(`viewing space ${spaceId} needs the read role or above on it`);
  return { space, role, orgRole, permissions };
}

/** Spaces of an organization the caller can view, in creation order, deleted ones left out. */
export function visibleSpaces(ctx: HandlerCtx, orgId: string, filter: (s: SpaceRec) => boolean = () => true): SpaceRec[] {
  const orgRole = ctx.store.member(orgId, ctx.caller.user.id)?.role ?? null;
  const out: SpaceRec[] = [];
  for (const s of ctx.store.data.spaces.values()) {
    if (s.org === orgId && !s.deletedAt && filter(s) && spacePermissions(spaceRole(ctx.store, orgRole, s), s).view) out.push(s);
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
    id, title: 'Untitled', emoji: '', visibility: init.parent ? 'in-collection' : 'private',
    createdAt: now, updatedAt: now, editMode: 'live', mergeRules: { type: 'inherit' },
    revision, defaultLevel: null, shareKey: newId(), ...init, id,
  };
  store.data.spaces.set(id, space);
  store.childrenOf(space.parent ?? space.org).push(id);
  return space;
}

export const handlers: Handlers<typeof ops> = {
  createSpace: (ctx, { params, body }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'create', 'creating a space');
    if (body.parent !== undefined) {
      const parent = ctx.store.data.collections.get(body.parent);
      if (!parent || parent.org !== params.organizationId) throw badRequest(`parent: no collection ${body.parent} in this organization`);
    }
    const space = createSpaceRec(ctx.store, {
      org: params.organizationId,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.emoji !== undefined ? { emoji: body.emoji } : {}),
      ...(body.parent !== undefined ? { parent: body.parent } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
      ...(body.editMode !== undefined ? { editMode: body.editMode } : {}),
    });
    return spaceView(ctx, space);
  },

  listSpaces: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const page = paginate(visibleSpaces(ctx, params.organizationId), query, (s) => s.id, scopeOf('spaces', params.organizationId));
    return { ...page, items: page.items.map((s) => spaceView(ctx, s)) };
  },

  getSpace: (ctx, { params }) => spaceView(ctx, spaceFor(ctx, params.spaceId).space),
};
