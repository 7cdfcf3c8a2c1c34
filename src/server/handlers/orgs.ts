/** The caller, their organizations, and teams (the model: orgs/). */
import { ops } from '../../contract/orgs.js';
import { orgFor, requireRole } from '../access.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { unlessSame } from '../audit/model.js';
import { organizationsOf, settingsOf, updateOrganization } from '../orgs/model.js';
import { orgView, userView } from '../orgs/views.js';
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
    // The organization and its settings (a slice) are what an update may change.
    unlessSame(
      ctx,
      () => [org, settingsOf(ctx.store, org.id)],
      () => updateOrganization(ctx.store, org, body),
    );
    return orgView(ctx, org);
  },
};

export const family = defineFamily({ ops, handlers });
