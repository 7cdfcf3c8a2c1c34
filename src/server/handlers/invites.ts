/**
 * Invitations (contract/invites.ts): admins invite by email and manage invite links (an admin of a
 * space or collection manages the links to it); anyone holding a link joins with it. The rules are
 * the model's (invites/model.ts).
 */
import { ops } from '../../contract/invites.js';
import { orgFor, requireRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import * as model from '../invites/model.js';
import { linkView, live } from '../invites/views.js';
import { paginate, scopeOf } from '../paginate.js';

/** The link, managed by the caller; 404 when missing (or its space or collection is gone), 403 when not theirs to manage. */
function linkFor(ctx: HandlerCtx, params: { organizationId: string; inviteId: string }, what: string) {
  const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
  const link = model.linkIn(ctx.store, params.organizationId, params.inviteId);
  if (!live(ctx, link)) throw notFound(`no invite ${params.inviteId} in organization ${params.organizationId}`);
  model.requireManageLink(ctx.store, ctx.caller.user.id, role, link, what);
  return { role, link };
}

const handlers: Handlers<typeof ops> = {
  inviteMembers: (ctx, { params, body }) => {
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'admin', 'inviting members');
    const { defaultRole } = model.inviteSettings(ctx.store, params.organizationId);
    const { users, failedSSOEmails } = model.inviteByEmail(ctx.store, params.organizationId, body, defaultRole);
    return { users, invited: users.length, ...(body.sso === true ? { failedSSOEmails } : {}) };
  },

  listInviteLinks: (ctx, { params, query }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'admin', 'listing invite links');
    const links = model.linksOf(ctx.store, params.organizationId).filter((l) => live(ctx, l));
    const page = paginate(links, query, (l) => l.id, scopeOf('invite-links', params.organizationId));
    return { ...page, items: page.items.map((l) => linkView(ctx, role, l)) };
  },

  createInviteLink: (ctx, { params, body }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    const target = model.targetOf(ctx.store, orgId, body);
    model.requireManageLink(ctx.store, ctx.caller.user.id, role, { target }, 'creating an invite link');
    model.requireLinksOn(model.inviteSettings(ctx.store, orgId).inviteLinks, orgId);
    const level = 'role' in body ? body.role : body.level;
    return linkView(ctx, role, model.createLink(ctx.store, orgId, target, level, ctx.caller.user.id));
  },

  getInviteLink: (ctx, { params }) => {
    const { role, link } = linkFor(ctx, params, 'reading an invite link');
    return linkView(ctx, role, link);
  },

  updateInviteLink: (ctx, { params, body }) => {
    const { role, link } = linkFor(ctx, params, 'changing an invite link');
    const forOrg = link.target.type === 'organization';
    if (forOrg && !('role' in body)) throw badRequest(`level: invite ${link.id} is for the organization: set its role`);
    if (!forOrg && !('level' in body)) throw badRequest(`role: invite ${link.id} is for a ${link.target.type}: set its level`);
    const to = 'role' in body ? body.role : body.level;
    // The role it gives already: nothing changes.
    if (link.role === to) ctx.unchanged = true;
    link.role = to;
    return linkView(ctx, role, link);
  },

  deleteInviteLink: (ctx, { params }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    const link = model.invitesState(ctx.store).links.get(params.inviteId);
    // A missing link answers 204 too: the official document's "did not exist".
    if (!link || link.org !== params.organizationId) {
      requireRole(role, 'admin', 'deleting an invite link');
      ctx.unchanged = true;
      return undefined;
    }
    model.requireManageLink(ctx.store, ctx.caller.user.id, role, link, 'deleting an invite link');
    model.deleteLink(ctx.store, link);
    return undefined;
  },

  joinWithInvite: (ctx, { params }) => {
    // Open to non-members (the contract's `visitors`): the same 404 for a missing organization or link.
    const link = model.linkIn(ctx.store, params.organizationId, params.inviteId);
    if (!ctx.store.data.orgs.has(link.org) || !live(ctx, link)) throw notFound(`no invite ${params.inviteId} in organization ${params.organizationId}`);
    model.requireLinksOn(model.inviteSettings(ctx.store, link.org).inviteLinks, link.org);
    // A member holding the link's role (and level) already: nothing changes.
    if (!model.join(ctx.store, link, ctx.caller.user)) ctx.unchanged = true;
    return {};
  },
};

export const family = defineFamily({ ops, handlers, onSpacePurged: model.dropSpaceLinks });
