/**
 * Organization members. Any member with a role may read the member list; a guest reads only their
 * own membership. Changing roles, removing members and turning on SSO need the admin role, and the
 * organization always keeps one active admin.
 */
import type { Member, MemberSpace, MemberTeam } from '../../contract/members.js';
import { ops } from '../../contract/members.js';
import type { Role } from '../../contract/op.js';
import { orgFor, requireRole, siteRole, spaceRole } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import { sitesState } from '../sites/state.js';
import type { MemberRec, SpaceRec, Store } from '../store.js';
import { teamView, userView } from './orgs.js';
import { spaceView, visibleSpaces } from './spaces.js';

/**
 * The spaces a member can access, among those the caller sees, with the member's role on each. A
 * disabled membership reaches none (it keeps the user from all content of the organization).
 */
function memberSpaces(ctx: HandlerCtx, orgId: string, m: MemberRec): { space: SpaceRec; permission: Role }[] {
  const out: { space: SpaceRec; permission: Role }[] = [];
  if (m.disabled) return out;
  for (const space of visibleSpaces(ctx, orgId)) {
    const permission = spaceRole(ctx.store, m.userId, space);
    if (permission !== null) out.push({ space, permission });
  }
  return out;
}

/**
 * How many sites of the organization a member can access: those their role on reaches (access.ts
 * `siteRole`: grants, default levels, their organization role; none for a disabled membership).
 */
function memberSites(store: Store, orgId: string, m: MemberRec): number {
  if (m.disabled) return 0;
  let n = 0;
  for (const site of sitesState(store).sites.values()) if (site.org === orgId && siteRole(store, m.userId, site) !== null) n++;
  return n;
}

function memberTeams(store: Store, orgId: string, userId: string) {
  return [...store.data.teams.values()].filter((t) => t.org === orgId && t.members.has(userId));
}

/** A membership as the API shows it (also in the comment families' lists of commenters). */
export function memberView(ctx: HandlerCtx, orgId: string, m: MemberRec): Member {
  const user = ctx.store.data.users.get(m.userId);
  if (!user) throw notFound(`no member ${m.userId}`);
  return {
    object: 'member',
    id: m.userId,
    role: m.role,
    user: userView(ctx, user),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
    sso: m.sso,
    spaces: memberSpaces(ctx, orgId, m).length,
    teams: memberTeams(ctx.store, orgId, m.userId).length,
    sites: memberSites(ctx.store, orgId, m),
  };
}

/** The caller's role, checked for reading the list of members (guests may not). */
function requireMemberList(ctx: HandlerCtx, orgId: string): Role | null {
  const { role } = orgFor(ctx.store, ctx.caller, orgId);
  if (role === null) throw forbidden('listing members needs a role in the organization; guests may only read their own membership');
  return role;
}

/** One member, readable by members with a role, or by the member themself. */
function memberFor(ctx: HandlerCtx, orgId: string, userId: string): MemberRec {
  const { role } = orgFor(ctx.store, ctx.caller, orgId);
  if (role === null && userId !== ctx.caller.user.id) {
    throw forbidden('reading other members needs a role in the organization; guests may only read their own membership');
  }
  const m = ctx.store.member(orgId, userId);
  if (!m) throw notFound(`no member ${userId} in organization ${orgId}`);
  return m;
}

/** Demoting or removing `target` must leave at least one active admin. */
function keepAnAdmin(store: Store, orgId: string, target: MemberRec, what: string): void {
  if (target.role !== 'admin' || target.disabled) return;
  const admins = [...(store.data.members.get(orgId)?.values() ?? [])].filter((m) => m.role === 'admin' && !m.disabled);
  if (admins.length <= 1) {
    throw badRequest(`${what}: ${target.userId} is the last admin of organization ${orgId}; make another member admin first`);
  }
}

const byTime = (key: 'joinedAt' | 'lastSeenAt') => (a: MemberRec, b: MemberRec) => (a[key] ?? '').localeCompare(b[key] ?? '');

const handlers: Handlers<typeof ops> = {
  listMembers: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    requireMemberList(ctx, orgId);
    const sort = query.sort ?? 'joinedAt';
    const order = query.order ?? 'desc';
    const needle = query.search?.toLowerCase();
    const users = ctx.store.data.users;
    const name = (m: MemberRec) => users.get(m.userId)?.displayName.toLowerCase() ?? '';
    const members = [...(ctx.store.data.members.get(orgId)?.values() ?? [])].filter((m) => {
      const u = users.get(m.userId);
      if (!u) return false;
      if (query.role !== undefined && (m.role ?? 'guest') !== query.role) return false;
      if (sort === 'lastSeenAt' && !m.lastSeenAt) return false;
      return needle === undefined || u.displayName.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle);
    });
    const compare = sort === 'name' ? (a: MemberRec, b: MemberRec) => name(a).localeCompare(name(b)) : byTime(sort);
    members.sort((a, b) => {
      const c = compare(a, b) || a.userId.localeCompare(b.userId);
      return order === 'asc' ? c : -c;
    });
    const page = paginate(members, query, (m) => m.userId, scopeOf('members', orgId, sort, order, query.role, needle));
    return { ...page, items: page.items.map((m) => memberView(ctx, orgId, m)) };
  },

  getMember: (ctx, { params }) => memberView(ctx, params.organizationId, memberFor(ctx, params.organizationId, params.userId)),

  updateMember: (ctx, { params, body }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'changing a member’s role');
    const m = ctx.store.member(orgId, params.userId);
    if (!m) throw notFound(`no member ${params.userId} in organization ${orgId}`);
    // `role` left out: nothing to change, the member is answered as it is.
    if (body.role === undefined) return memberView(ctx, orgId, m);
    if (body.role !== 'admin') keepAnAdmin(ctx.store, orgId, m, 'role');
    m.role = body.role;
    return memberView(ctx, orgId, m);
  },

  removeMember: (ctx, { params }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'removing a member');
    const m = ctx.store.member(orgId, params.userId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!m) return undefined;
    keepAnAdmin(ctx.store, orgId, m, 'removing a member');
    ctx.store.data.members.get(orgId)?.delete(params.userId);
    for (const team of memberTeams(ctx.store, orgId, params.userId)) team.members.delete(params.userId);
    return undefined;
  },

  ping: (ctx, { params }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const m = ctx.store.member(params.organizationId, ctx.caller.user.id)!;
    m.lastSeenAt = ctx.store.now();
    // No visitor-auth signing key lives in the sandbox, so no visitor claims are issued.
    return {};
  },

  setMemberSso: (ctx, { params }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'making a member an SSO member');
    const m = ctx.store.member(orgId, params.userId);
    if (!m) throw notFound(`no member ${params.userId} in organization ${orgId}`);
    // Whatever the SAML providers: the seed and the official document answer 200 (docs/compatibility.md).
    m.sso = true;
    return memberView(ctx, orgId, m);
  },

  listMemberSpaces: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    const m = memberFor(ctx, orgId, params.userId);
    const order = query.order ?? 'desc';
    const items = memberSpaces(ctx, orgId, m);
    if (order === 'desc') items.reverse();
    const page = paginate(items, query, (i) => i.space.id, scopeOf('member-spaces', orgId, m.userId, order));
    return {
      ...page,
      items: page.items.map((i): MemberSpace => ({ permission: i.permission, space: spaceView(ctx, i.space) })),
    };
  },

  listMemberTeams: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    const m = memberFor(ctx, orgId, params.userId);
    const needle = query.title?.toLowerCase();
    const teams = memberTeams(ctx.store, orgId, m.userId).filter((t) => needle === undefined || t.title.toLowerCase().includes(needle));
    const page = paginate(teams, query, (t) => t.id, scopeOf('member-teams', orgId, m.userId, needle));
    return {
      ...page,
      items: page.items.map((t): MemberTeam => ({ team: teamView(ctx, t), member: { role: t.members.get(m.userId)! } })),
    };
  },
};

export const family = defineFamily({ ops, handlers });
