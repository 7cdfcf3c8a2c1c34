/**
 * Change requests: numbered per space, listed with filters in a space and across an organization.
 * Their content, update, merge and pdf build on `crFor`, `crState` and `changeRequestView`.
 */
import type { ChangeRequest, ChangeRequestFilters, ChangeRequestStatus } from '../../contract/change-requests.js';
import { ops } from '../../contract/change-requests.js';
import { orgFor } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import { onSpacePurged, type SpaceRec, type Store } from '../store.js';
import { userView } from './orgs.js';
import { registerSpaceCounters, spaceFor, visibleSpaces } from './spaces.js';

export interface ChangeRequestRec {
  id: string;
  /** 1, 2, 3... in its space, in creation order. */
  number: number;
  space: string;
  status: ChangeRequestStatus;
  subject: string;
  description?: ChangeRequest['description'];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  conversationsIssuesCluster?: string;
  /** Users who created or changed it, in order of first contribution. */
  contributors: string[];
}

interface ChangeRequestState {
  byId: Map<string, ChangeRequestRec>;
  /** space id → ids of its change requests, in number order (index = number - 1: none is ever removed alone). */
  bySpace: Map<string, string[]>;
}

export function crState(store: Store): ChangeRequestState {
  return store.slice<ChangeRequestState>('changeRequests', () => ({ byId: new Map(), bySpace: new Map() }));
}

/** The change requests of a space, in number order. */
export function spaceChangeRequests(store: Store, spaceId: string): ChangeRequestRec[] {
  const { byId, bySpace } = crState(store);
  return (bySpace.get(spaceId) ?? []).map((id) => byId.get(id)!);
}

registerSpaceCounters((store, spaceId) => {
  const all = spaceChangeRequests(store, spaceId);
  return {
    changeRequests: all.length,
    changeRequestsOpen: all.filter((cr) => cr.status === 'open').length,
    changeRequestsDraft: all.filter((cr) => cr.status === 'draft').length,
  };
});

onSpacePurged((store, spaceId) => {
  const state = crState(store);
  for (const id of state.bySpace.get(spaceId) ?? []) state.byId.delete(id);
  state.bySpace.delete(spaceId);
});

/** Counters another family derives for a change request (its opened comments). */
type CrCounterSource = (store: Store, cr: ChangeRequestRec) => { comments?: number };
const counterSources: CrCounterSource[] = [];
export function registerChangeRequestCounters(source: CrCounterSource): void {
  counterSources.push(source);
}

/** A change request is outdated when the space's revision moved since it branched or was last updated. */
function isOutdated(space: SpaceRec, cr: ChangeRequestRec): boolean {
  return cr.status !== 'merged' && space.revision !== (cr.revisionMergedAncestor ?? cr.revisionInitial);
}

export function changeRequestView(ctx: HandlerCtx, space: SpaceRec, cr: ChangeRequestRec, permissions: { edit: boolean; comment: boolean; merge: boolean; review: boolean }): ChangeRequest {
  const counters = { comments: 0 };
  for (const source of counterSources) Object.assign(counters, source(ctx.store, cr));
  const creator = ctx.store.data.users.get(cr.createdBy);
  const open = cr.status !== 'merged';
  return {
    object: 'change-request', id: cr.id, number: cr.number, status: cr.status, subject: cr.subject,
    ...(cr.description !== undefined ? { description: cr.description } : {}),
    ...(creator ? { createdBy: userView(ctx, creator) } : {}),
    createdAt: cr.createdAt, updatedAt: cr.updatedAt, space: cr.space,
    revision: cr.revision, revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: counters.comments, outdated: isOutdated(space, cr),
    ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
    urls: {
      location: `${ctx.baseUrl}/v1/spaces/${cr.space}/change-requests/${cr.id}`,
      app: `${ctx.baseUrl}/app/s/${cr.space}/~/changes/${cr.number}`,
    },
    permissions: {
      view: true, edit: open && permissions.edit, comment: permissions.comment,
      merge: open && permissions.merge, review: open && permissions.review,
    },
  };
}

/**
 * A change request of a space the caller may see, by id or by number, with the caller's role and
 * permissions on the space. 404 when it is not in that space.
 */
export function crFor(ctx: HandlerCtx, spaceId: string, ref: string) {
  const found = spaceFor(ctx, spaceId);
  const state = crState(ctx.store);
  const byNumber = /^[1-9]\d{0,9}$/.test(ref) ? state.byId.get(state.bySpace.get(spaceId)?.[Number(ref) - 1] ?? '') : undefined;
  const cr = byNumber ?? state.byId.get(ref);
  if (!cr || cr.space !== spaceId) throw notFound(`no change request ${ref} in space ${spaceId}`);
  return { ...found, cr };
}

/** 403 unless the caller may edit change requests of the space (edit role or above, space not locked). */
export function requireCrEdit(space: SpaceRec, permissions: { edit: boolean }, what: string): void {
  if (permissions.edit) return;
  throw forbidden(space.editMode === 'locked'
    ? `${what}: space ${space.id} is locked (editMode locked)`
    : `${what} needs the edit role or above on space ${space.id}`);
}

/** Record that a user changed a change request. */
export function touchChangeRequest(ctx: HandlerCtx, cr: ChangeRequestRec): void {
  cr.updatedAt = ctx.store.now();
  if (!cr.contributors.includes(ctx.caller.user.id)) cr.contributors.push(ctx.caller.user.id);
}

/** The users a space's merge rules require as reviewers: its change requests request their review. */
function requestedReviewers(space: SpaceRec): string[] {
  return space.mergeRules.type === 'rules' ? space.mergeRules.rules.flatMap((r) => r.users) : [];
}

function matches(space: SpaceRec, f: ChangeRequestFilters) {
  const status = f.status ?? 'open';
  const reviewers = f.requestedReviewer === undefined ? undefined : requestedReviewers(space);
  return (cr: ChangeRequestRec) =>
    cr.status === status &&
    (f.creator === undefined || cr.createdBy === f.creator) &&
    (f.contributor === undefined || cr.contributors.includes(f.contributor)) &&
    (reviewers === undefined || reviewers.includes(f.requestedReviewer!)) &&
    (f.conversationsIssuesCluster === undefined || cr.conversationsIssuesCluster === f.conversationsIssuesCluster);
}

const filterScope = (f: ChangeRequestFilters) =>
  [f.status ?? 'open', f.creator, f.contributor, f.requestedReviewer, f.conversationsIssuesCluster];

export const handlers: Handlers<typeof ops> = {
  listChangeRequests: (ctx, { params, query }) => {
    const { space, permissions } = spaceFor(ctx, params.spaceId);
    const all = spaceChangeRequests(ctx.store, space.id).filter(matches(space, query)).reverse();
    const page = paginate(all, query, (cr) => cr.id, scopeOf('change-requests', space.id, ...filterScope(query)));
    return { ...page, items: page.items.map((cr) => changeRequestView(ctx, space, cr, permissions)) };
  },

  createChangeRequest: (ctx, { params, body }) => {
    const { space, permissions } = spaceFor(ctx, params.spaceId);
    requireCrEdit(space, permissions, 'creating a change request');
    const state = crState(ctx.store);
    let ids = state.bySpace.get(space.id);
    if (!ids) state.bySpace.set(space.id, (ids = []));
    // Handlers run synchronously: the number is taken and the record stored in the same tick.
    const now = ctx.store.now();
    const cr: ChangeRequestRec = {
      id: newId(), number: ids.length + 1, space: space.id, status: 'draft', subject: body.subject ?? '',
      createdBy: ctx.caller.user.id, createdAt: now, updatedAt: now,
      revision: space.revision, revisionInitial: space.revision,
      ...(body.conversationsIssuesCluster !== undefined ? { conversationsIssuesCluster: body.conversationsIssuesCluster } : {}),
      contributors: [ctx.caller.user.id],
    };
    state.byId.set(cr.id, cr);
    ids.push(cr.id);
    return changeRequestView(ctx, space, cr, permissions);
  },

  getChangeRequest: (ctx, { params }) => {
    const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
    return changeRequestView(ctx, space, cr, permissions);
  },

  updateChangeRequest: (ctx, { params, body }) => {
    const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
    requireCrEdit(space, permissions, 'editing a change request');
    if (cr.status === 'merged') throw badRequest(`change request ${cr.number} is merged: it can no longer be edited`);
    if (Object.keys(body).length === 0) return changeRequestView(ctx, space, cr, permissions);
    if (body.subject !== undefined) cr.subject = body.subject;
    if (body.description !== undefined) cr.description = body.description;
    if (body.status !== undefined) cr.status = body.status;
    touchChangeRequest(ctx, cr);
    return changeRequestView(ctx, space, cr, permissions);
  },

  listOrganizationChangeRequests: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const found: { space: SpaceRec; cr: ChangeRequestRec; permissions: ReturnType<typeof spaceFor>['permissions'] }[] = [];
    for (const space of visibleSpaces(ctx, params.organizationId)) {
      const { permissions } = spaceFor(ctx, space.id);
      for (const cr of spaceChangeRequests(ctx.store, space.id).filter(matches(space, query))) found.push({ space, cr, permissions });
    }
    // Newest first across spaces; ties (same instant) by space id, then number.
    found.sort((a, b) => b.cr.createdAt.localeCompare(a.cr.createdAt) || a.space.id.localeCompare(b.space.id) || b.cr.number - a.cr.number);
    const page = paginate(found, query, (x) => x.cr.id, scopeOf('org-change-requests', params.organizationId, ...filterScope(query)));
    return {
      ...page,
      items: page.items.map(({ space, cr, permissions }) => changeRequestView(ctx, space, cr, permissions)),
    };
  },
};
