/**
 * The caller, their organizations, and teams. An organization's settings beyond its record in the
 * store (merge rules, default role and content, SSO enforcement, logo...) live in this family's
 * slice; admins change them with `PATCH {o}` (the official document's updateOrganizationById).
 */
import type { Organization, OrganizationMergeRules, Team, User, UpdateOrganizationBody } from '../../contract/orgs.js';
import { ops } from '../../contract/orgs.js';
import type { Role } from '../../contract/op.js';
import { orgFor, orgPermissions, requireRole } from '../access.js';
import { badRequest } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import { sitesState } from '../sites/state.js';
import { samlActive, samlProvidersOf } from '../saml/state.js';
import type { OrgRec, SpaceRec, Store, TeamRec, UserRec } from '../store.js';

/** What an organization holds beyond its record in the store; a field not set has its default. */
interface OrgSettings {
  hostname?: string;
  /** The role new members get; `read` until set (null: guests). */
  defaultRole?: Role | null;
  defaultContent?: { type: 'site'; site: string };
  logo?: string;
  /** SSO enforcement, as set; in effect only while an active SAML provider exists. */
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: OrganizationMergeRules;
}

/** Organization id → its settings (this family's slice of the state). */
function allSettings(store: Store): Map<string, OrgSettings> {
  return store.slice('orgs', () => ({ settings: new Map<string, OrgSettings>() })).settings;
}

/** An organization's settings, to change them. */
function settingsOf(store: Store, orgId: string): OrgSettings {
  const all = allSettings(store);
  let s = all.get(orgId);
  if (!s) all.set(orgId, (s = {}));
  return s;
}

/** What invitations need of an organization's settings: the role new members get, and whether invite links work. */
export function inviteSettings(store: Store, orgId: string): { defaultRole: Role | null; inviteLinks: boolean } {
  const s = allSettings(store).get(orgId) ?? {};
  return { defaultRole: s.defaultRole === undefined ? 'read' : s.defaultRole, inviteLinks: s.inviteLinks ?? true };
}

/** An organization's merge rules: none until set. A space whose mergeRules are `inherit` follows them. */
function orgMergeRules(store: Store, orgId: string): OrganizationMergeRules {
  return allSettings(store).get(orgId)?.mergeRules ?? { type: 'none' };
}

/** The merge rules a space follows: its own, or (`inherit`) its organization's. */
export function effectiveMergeRules(store: Store, space: SpaceRec): OrganizationMergeRules {
  return space.mergeRules.type === 'inherit' ? orgMergeRules(store, space.org) : space.mergeRules;
}

/** Whether the organization has a SAML provider members can sign in through. */
function hasActiveSaml(store: Store, orgId: string): boolean {
  return samlProvidersOf(store, orgId).some(samlActive);
}

export function userView(ctx: HandlerCtx, u: UserRec): User {
  return {
    object: 'user',
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: `${ctx.baseUrl}/v1/users/${u.id}` },
  };
}

function orgView(ctx: HandlerCtx, org: OrgRec): Organization {
  const member = ctx.store.member(org.id, ctx.caller.user.id);
  const role = member?.role ?? null;
  const s = allSettings(ctx.store).get(org.id) ?? {};
  // The default content is shown while its site still exists in the organization.
  const site = s.defaultContent && sitesState(ctx.store).sites.get(s.defaultContent.site);
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    ...(s.hostname !== undefined ? { hostname: s.hostname } : {}),
    type: 'business',
    defaultRole: s.defaultRole === undefined ? 'read' : s.defaultRole,
    ...(site && site.org === org.id ? { defaultContent: s.defaultContent } : {}),
    sso: (s.sso ?? false) && hasActiveSaml(ctx.store, org.id),
    ai: s.ai ?? false,
    inviteLinks: s.inviteLinks ?? true,
    plan: 'free',
    mergeRules: s.mergeRules ?? { type: 'none' },
    urls: {
      location: `${ctx.baseUrl}/v1/orgs/${org.id}`,
      app: `${ctx.baseUrl}/app/o/${org.id}`,
      ...(s.logo !== undefined ? { logo: s.logo } : {}),
    },
    // The sandbox has no billing: trials do not apply, and none was ever taken.
    trial: { status: 'notapplicable', count: 0 },
    // `access`: opening the organization in the app, which every active member may (guests see what is shared with them).
    permissions: { ...orgPermissions(role), access: member !== undefined && !member.disabled },
  };
}

export function teamView(ctx: HandlerCtx, team: TeamRec): Team {
  const role = ctx.store.member(team.org, ctx.caller.user.id)?.role ?? null;
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: team.members.size,
    // No content is shared with teams in the sandbox (it has no team permissions): they reach no space.
    spaces: 0,
    createdAt: team.createdAt,
    permissions: { admin: role === 'admin' || team.members.get(ctx.caller.user.id) === 'owner', view: role !== null || team.members.has(ctx.caller.user.id) },
  };
}

/** What the schema cannot check: members named in the rules, the default site, an active provider for SSO. */
function checkUpdate(store: Store, orgId: string, body: UpdateOrganizationBody): void {
  if (body.mergeRules?.type === 'rules') {
    body.mergeRules.rules.forEach((rule, i) =>
      ('users' in rule ? rule.users : []).forEach((user, j) => {
        if (!store.member(orgId, user)) throw badRequest(`mergeRules.rules.${i}.users.${j}: ${user} is not a member of organization ${orgId}`);
      }),
    );
  }
  if (body.defaultContent) {
    const site = sitesState(store).sites.get(body.defaultContent.site);
    if (!site || site.org !== orgId) throw badRequest(`defaultContent.site: no site ${body.defaultContent.site} in organization ${orgId}`);
  }
  if (body.sso === true && !hasActiveSaml(store, orgId)) {
    throw badRequest('sso: enforcing single sign-on needs an active SAML provider (one with entityID, certificate and ssoURL set)');
  }
}

const handlers: Handlers<typeof ops> = {
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

  updateOrganization: (ctx, { params, body }) => {
    const { org, role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'admin', 'changing the organization');
    checkUpdate(ctx.store, org.id, body);
    if (body.title !== undefined) org.title = body.title;
    if (body.emailDomains !== undefined) org.emailDomains = body.emailDomains;
    const s = settingsOf(ctx.store, org.id);
    if (body.hostname !== undefined) s.hostname = body.hostname;
    if (body.defaultRole !== undefined) s.defaultRole = body.defaultRole;
    if (body.defaultContent === null) delete s.defaultContent;
    else if (body.defaultContent !== undefined) s.defaultContent = body.defaultContent;
    if (body.logo === null) delete s.logo;
    else if (body.logo !== undefined) s.logo = body.logo;
    for (const flag of ['sso', 'ai', 'inviteLinks'] as const) if (body[flag] !== undefined) s[flag] = body[flag];
    if (body.mergeRules !== undefined) s.mergeRules = body.mergeRules;
    return orgView(ctx, org);
  },
};

export const family = defineFamily({ ops, handlers });
