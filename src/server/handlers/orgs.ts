/** The caller, their organizations, and teams (the model: orgs/). */
import { ops } from '../../contract/orgs.js';
import { orgFor, requireRole } from '../access.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { organizationsOf, teamsOf, updateOrganization } from '../orgs/model.js';
import { orgView, teamView, userView } from '../orgs/views.js';
import { paginate, scopeOf } from '../paginate.js';

const handlers: Handlers<typeof ops> = {
  getAuthenticatedUser: (ctx) => userView(ctx, ctx.caller.user),

  listOrganizations: (ctx, { query }) => {
    const page = paginate(organizationsOf(ctx.store, ctx.caller.user.id), query, (o) => o.id, scopeOf('orgs', ctx.caller.user.id));
    return { ...page, items: page.items.map((o) => orgView(ctx, o)) };
  },

  getOrganization: (ctx, { params }) => orgView(ctx, orgFor(ctx.store, ctx.caller, params.organizationId).org),

  updateOrganization: (ctx, { params, body }) => {
    const { org, role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'admin', 'changing the organization');
    updateOrganization(ctx.store, org, body);
    return orgView(ctx, org);
  },

  listTeams: (ctx, { params, query }) => {
    // What the organization's `permissions.listTeams` says: members with a role, not guests.
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'read', 'listing teams');
    const page = paginate(teamsOf(ctx.store, params.organizationId), query, (t) => t.id, scopeOf('teams', params.organizationId));
    return { ...page, items: page.items.map((t) => teamView(ctx, t)) };
  },
};

export const family = defineFamily({ ops, handlers });
