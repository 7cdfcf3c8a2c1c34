/** The caller, their organizations, and teams. */
import type { Organization, Team, User } from '../../contract/orgs.js';
import { ops } from '../../contract/orgs.js';
import { orgFor, orgPermissions, requireRole } from '../access.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import type { OrgRec, Store, TeamRec, UserRec } from '../store.js';

export function userView(ctx: HandlerCtx, u: UserRec): User {
  return {
    object: 'user', id: u.id, displayName: u.displayName, email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: `${ctx.baseUrl}/v1/users/${u.id}` },
  };
}

export function orgView(ctx: HandlerCtx, org: OrgRec): Organization {
  const role = ctx.store.member(org.id, ctx.caller.user.id)?.role ?? null;
  return {
    object: 'organization', id: org.id, title: org.title, createdAt: org.createdAt,
    emailDomains: org.emailDomains, type: 'business', defaultRole: 'read',
    sso: samlEnabled(ctx.store, org.id), ai: false, inviteLinks: true, plan: 'free',
    urls: { location: `${ctx.baseUrl}/v1/orgs/${org.id}`, app: `${ctx.baseUrl}/app/o/${org.id}` },
    permissions: orgPermissions(role),
  };
}

/** Whether any SAML provider is set up (the SSO family keeps them in its slice). */
function samlEnabled(store: Store, orgId: string): boolean {
  const providers = store.data.slices.get('saml') as { providers?: Map<string, { org: string }> } | undefined;
  return [...(providers?.providers?.values() ?? [])].some((p) => p.org === orgId);
}

export function teamView(ctx: HandlerCtx, team: TeamRec): Team {
  const role = ctx.store.member(team.org, ctx.caller.user.id)?.role ?? null;
  return {
    object: 'team', id: team.id, title: team.title, members: team.members.size, spaces: 0,
    createdAt: team.createdAt,
    permissions: { admin: role === 'admin' || team.members.get(ctx.caller.user.id) === 'owner', view: role !== null || team.members.has(ctx.caller.user.id) },
  };
}

export const handlers: Handlers<typeof ops> = {
  getAuthenticatedUser: (ctx) => userView(ctx, ctx.caller.user),

  listOrganizations: (ctx, { query }) => {
    const mine = [...ctx.store.data.orgs.values()].filter((o) => {
      const m = ctx.store.member(o.id, ctx.caller.user.id);
      return m && !m.disabled;
    });
    const page = paginate(mine, query, (o) => o.id, scopeOf('orgs', ctx.caller.user.id));
    return { ...page, items: page.items.map((o) => orgView(ctx, o)) };
  },

  getOrganization: (ctx, { params }) => orgView(ctx, orgFor(ctx.store, ctx.caller, params.organizationId).org),

  listTeams: (ctx, { params, query }) => {
    // What the organization's `permissions.listTeams` says: members with a role, not guests.
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'read', 'listing teams');
    const teams = [...ctx.store.data.teams.values()].filter((t) => t.org === params.organizationId);
    const page = paginate(teams, query, (t) => t.id, scopeOf('teams', params.organizationId));
    return { ...page, items: page.items.map((t) => teamView(ctx, t)) };
  },
};
