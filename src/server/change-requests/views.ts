/** Change requests as the API shows them to the caller, and their content as the content views read it. */
import type { ChangeRequest } from '../../contract/change-requests.js';
import { contentOf, revisionOf, type ContentScope } from '../content/index.js';
import { HttpError } from '../errors.js';
import { changeRequestCounters } from '../family.js';
import type { HandlerCtx } from '../handler.js';
import { userView } from '../orgs/views.js';
import { spaceFor, type SpacePermissions } from '../spaces/model.js';
import type { SpaceRec } from '../store.js';
import { crFor, crState, isOutdated, MERGEABLE, mergeForbidden, type ChangeRequestRec } from './model.js';

const crAppUrl = (baseUrl: string, cr: ChangeRequestRec) => `${baseUrl}/app/s/${cr.space}/~/changes/${cr.number}`;

export function changeRequestView(ctx: HandlerCtx, space: SpaceRec, cr: ChangeRequestRec, permissions: SpacePermissions): ChangeRequest {
  const counters = changeRequestCounters(ctx.store, cr);
  const creator = ctx.store.data.users.get(cr.createdBy);
  const open = cr.status !== 'merged';
  const mergeable = MERGEABLE.includes(cr.status) && mergeForbidden(ctx, space, permissions, cr) === undefined;
  const merger = cr.mergedBy ? ctx.store.data.users.get(cr.mergedBy) : undefined;
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description !== undefined ? { description: cr.description } : {}),
    ...(creator ? { createdBy: userView(ctx, creator) } : {}),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    ...(merger ? { mergedBy: userView(ctx, merger) } : {}),
    ...(cr.mergedAt ? { mergedAt: cr.mergedAt } : {}),
    comments: counters.comments,
    outdated: isOutdated(space, cr),
    ...(cr.links ? { links: cr.links } : {}),
    ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
    urls: { location: `${ctx.baseUrl}/v1/spaces/${cr.space}/change-requests/${cr.id}`, app: crAppUrl(ctx.baseUrl, cr) },
    permissions: {
      view: true,
      edit: open && permissions.edit,
      comment: permissions.comment,
      merge: mergeable,
      review: open && permissions.review,
    },
  };
}

/** The change request with this id as the caller sees it, or undefined when it is gone or hidden from them. */
export function changeRequestViewById(ctx: HandlerCtx, id: string): ChangeRequest | undefined {
  const cr = crState(ctx.store).byId.get(id);
  if (!cr) return undefined;
  try {
    const { space, permissions } = spaceFor(ctx, cr.space);
    return changeRequestView(ctx, space, cr, permissions);
  } catch (err) {
    if (err instanceof HttpError) return undefined;
    throw err;
  }
}

/** A change request's content as the content views show it: its own revision, under its app URL. */
function crScope(ctx: HandlerCtx, space: SpaceRec, cr: ChangeRequestRec): ContentScope {
  const rev = revisionOf(ctx.store, cr.revision);
  return {
    store: ctx.store,
    baseUrl: ctx.baseUrl,
    org: space.org,
    space: space.id,
    rev,
    content: contentOf(rev),
    appUrl: crAppUrl(ctx.baseUrl, cr),
    changeRequest: (id) => changeRequestViewById(ctx, id),
  };
}

/** The content of a change request the caller may view. */
export function readable(ctx: HandlerCtx, params: { spaceId: string; changeRequestId: string }) {
  const found = crFor(ctx, params.spaceId, params.changeRequestId);
  return { ...found, scope: crScope(ctx, found.space, found.cr) };
}
