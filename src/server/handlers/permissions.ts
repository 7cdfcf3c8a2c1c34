/**
 * Permission grants on spaces, collections and sites (contract/permissions.ts): invite users and teams
 * with a role, list, change and take away the grants, and list who can reach the content in the end
 * (the aggregate, computed by the same function that enforces it, model.ts). Anyone who can view the
 * content lists its grants and its aggregate; changing them needs the admin role on it. A user of the
 * sandbox who is not a member of the organization becomes a guest of it when invited (GitBook's
 * invitation of someone from outside the organization as a guest).
 */
import type { Role } from '../../contract/op.js';
import { ops } from '../../contract/permissions.js';
import { forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import { Reply, type HandlerCtx, type Handlers } from '../handler.js';
import { collectionFor } from '../collections/model.js';
import { listedMembers } from '../members/model.js';
import { teamView, userView } from '../orgs/views.js';
import { spaceFor } from '../spaces/model.js';
import { paginate, scopeOf } from '../paginate.js';
import { siteAs, type SiteParams } from '../sites/views.js';
import type { MemberRec, Store } from '../store.js';
import {
  applies,
  dropGrantsTo,
  liveGrants,
  takeGrant,
  maxRole,
  setGrant,
  grantKey,
  grantsOn,
  grantsState,
  resolveCollection,
  resolveSite,
  resolveSpace,
  worldOf,
  type Origin,
  type PrincipalKind,
  type Resolved,
  type TargetKind,
} from '../permissions/model.js';

/** A piece of content as these operations handle it, found for the caller. */
interface Target {
  kind: TargetKind;
  id: string;
  org: string;
  /** The caller may change its grants. */
  admin: boolean;
  /** A user's role on it, and why. */
  resolve(userId: string): Resolved;
}

function spaceTarget(ctx: HandlerCtx, spaceId: string): Target {
  const { space, permissions } = spaceFor(ctx, spaceId);
  return { kind: 'space', id: space.id, org: space.org, admin: permissions.admin, resolve: (u) => resolveSpace(worldOf(ctx.store, space.org, u), space) };
}

function collectionTarget(ctx: HandlerCtx, collectionId: string): Target {
  const { collection, permissions } = collectionFor(ctx, collectionId);
  return {
    kind: 'collection',
    id: collection.id,
    org: collection.org,
    admin: permissions.admin,
    resolve: (u) => resolveCollection(worldOf(ctx.store, collection.org, u), collection),
  };
}

function siteTarget(ctx: HandlerCtx, params: SiteParams): Target {
  const site = siteAs(ctx, params, 'read', `viewing site ${params.siteId}`);
  const admin = resolveSite(worldOf(ctx.store, site.org, ctx.caller.user.id), site).role === 'admin';
  return { kind: 'site', id: site.id, org: site.org, admin, resolve: (u) => resolveSite(worldOf(ctx.store, site.org, u), site) };
}

function requireAdmin(t: Target, what: string): void {
  if (!t.admin) throw forbidden(`${what} needs the admin role on the ${t.kind}`);
}

/** Take a grant away: 205 when one applied, 204 when there was none (as the official document answers). */
function removeGrant(ctx: HandlerCtx, t: Target, principal: PrincipalKind, principalId: string): Reply<undefined> {
  if (takeGrant(ctx.store, t, principal, principalId)) return new Reply(205, undefined);
  ctx.unchanged = true;
  return new Reply(204, undefined);
}

/** A team of the target's organization, or 404. */
function teamIn(store: Store, t: Target, teamId: string, field: string) {
  const team = store.data.teams.get(teamId);
  if (!team || team.org !== t.org) throw notFound(`${field}: no team ${teamId} in organization ${t.org}`);
  return team;
}

/** Give `role` (null: take it away) to users and teams: all checked first, then all changed. */
function invite(ctx: HandlerCtx, t: Target, body: { role: Role | null; users?: string[]; teams?: string[] }): undefined {
  requireAdmin(t, `inviting to the ${t.kind}`);
  const { store } = ctx;
  const users = body.users ?? [];
  users.forEach((id, i) => {
    if (!store.data.users.has(id)) throw notFound(`users[${i}]: no user ${id}`);
  });
  (body.teams ?? []).forEach((id, i) => teamIn(store, t, id, `teams[${i}]`));
  let changed = false;
  for (const id of users) {
    if (body.role !== null && !store.member(t.org, id)) {
      changed = true;
      // Someone from outside the organization joins it as a guest: they reach only what they are given.
      let members = store.data.members.get(t.org);
      if (!members) store.data.members.set(t.org, (members = new Map<string, MemberRec>()));
      members.set(id, { userId: id, role: null, joinedAt: store.now(), sso: false, disabled: false });
    }
    if (setGrant(store, t, 'user', id, body.role)) changed = true;
  }
  for (const id of body.teams ?? []) if (setGrant(store, t, 'team', id, body.role)) changed = true;
  if (!changed) ctx.unchanged = true;
  return undefined;
}

function updateUser(ctx: HandlerCtx, t: Target, userId: string, role: Role | null | undefined): undefined {
  requireAdmin(t, `changing a user’s role on the ${t.kind}`);
  if (!ctx.store.member(t.org, userId)) throw notFound(`no member ${userId} in organization ${t.org}`);
  if (role !== undefined && !setGrant(ctx.store, t, 'user', userId, role)) ctx.unchanged = true;
  return undefined;
}

function updateTeam(ctx: HandlerCtx, t: Target, teamId: string, role: Role | null | undefined): undefined {
  requireAdmin(t, `changing a team’s role on the ${t.kind}`);
  teamIn(ctx.store, t, teamId, 'teamId');
  if (role !== undefined && !setGrant(ctx.store, t, 'team', teamId, role)) ctx.unchanged = true;
  return undefined;
}

function listUsers(ctx: HandlerCtx, t: Target, query: { page?: string; limit?: number }) {
  const grants = liveGrants(ctx.store, t, 'user');
  const page = paginate(grants, query, (g) => g.principalId, scopeOf('grants', t.kind, t.id, 'user'));
  return { ...page, items: page.items.map((g) => ({ permission: g.role, user: userView(ctx, ctx.store.data.users.get(g.principalId)!) })) };
}

function listTeams(ctx: HandlerCtx, t: Target, query: { page?: string; limit?: number }) {
  const grants = liveGrants(ctx.store, t, 'team');
  const page = paginate(grants, query, (g) => g.principalId, scopeOf('grants', t.kind, t.id, 'team'));
  return { ...page, items: page.items.map((g) => ({ permission: g.role, team: teamView(ctx, ctx.store.data.teams.get(g.principalId)!) })) };
}

/** The enabled members of the target's organization who reach it, with their role and why, in the order they joined. */
function reaching(ctx: HandlerCtx, t: Target): { m: MemberRec; role: Role; origin: Origin }[] {
  const out: { m: MemberRec; role: Role; origin: Origin }[] = [];
  for (const m of ctx.store.data.members.get(t.org)?.values() ?? []) {
    if (m.disabled || !ctx.store.data.users.has(m.userId)) continue;
    const r = t.resolve(m.userId);
    if (r.role !== null) out.push({ m, role: r.role, origin: r.origin });
  }
  return out;
}

function aggregate(ctx: HandlerCtx, t: Target, query: { page?: string; limit?: number; role?: Role }) {
  const all = reaching(ctx, t).filter((r) => query.role === undefined || r.role === query.role);
  const page = paginate(all, query, (r) => r.m.userId, scopeOf('aggregate', t.kind, t.id, query.role));
  return { ...page, items: page.items.map((r) => ({ permission: r.role, user: userView(ctx, ctx.store.data.users.get(r.m.userId)!) })) };
}

/** Where a site gives a user their role, as the official document's UserSitePermissionOrigin says it. */
function siteOrigin(t: Target, origin: Origin) {
  if (origin.type === 'grant')
    return { type: 'site' as const, site: t.id, reason: origin.team ? ('team' as const) : ('member' as const), ...(origin.team ? { team: origin.team } : {}) };
  if (origin.type === 'default') return { type: 'site' as const, site: t.id, reason: 'default' as const };
  return { type: 'organization' as const, organization: t.org };
}

const handlers: Handlers<typeof ops> = {
  inviteToSpace: (ctx, { params, body }) => invite(ctx, spaceTarget(ctx, params.spaceId), body),
  listUserPermissionsInSpace: (ctx, { params, query }) => listUsers(ctx, spaceTarget(ctx, params.spaceId), query),
  updateUserPermissionInSpace: (ctx, { params, body }) => updateUser(ctx, spaceTarget(ctx, params.spaceId), params.userId, body.role),
  removeUserFromSpace: (ctx, { params }) => {
    const t = spaceTarget(ctx, params.spaceId);
    requireAdmin(t, 'removing a user from the space');
    return removeGrant(ctx, t, 'user', params.userId);
  },
  listTeamPermissionsInSpace: (ctx, { params, query }) => listTeams(ctx, spaceTarget(ctx, params.spaceId), query),
  updateTeamPermissionInSpace: (ctx, { params, body }) => updateTeam(ctx, spaceTarget(ctx, params.spaceId), params.teamId, body.role),
  removeTeamFromSpace: (ctx, { params }) => {
    const t = spaceTarget(ctx, params.spaceId);
    requireAdmin(t, 'removing a team from the space');
    return removeGrant(ctx, t, 'team', params.teamId);
  },
  listPermissionsAggregateInSpace: (ctx, { params, query }) => aggregate(ctx, spaceTarget(ctx, params.spaceId), query),

  inviteToCollection: (ctx, { params, body }) => invite(ctx, collectionTarget(ctx, params.collectionId), body),
  listUserPermissionsInCollection: (ctx, { params, query }) => listUsers(ctx, collectionTarget(ctx, params.collectionId), query),
  updateUserPermissionInCollection: (ctx, { params, body }) => updateUser(ctx, collectionTarget(ctx, params.collectionId), params.userId, body.role),
  removeUserFromCollection: (ctx, { params }) => {
    const t = collectionTarget(ctx, params.collectionId);
    requireAdmin(t, 'removing a user from the collection');
    return removeGrant(ctx, t, 'user', params.userId);
  },
  listTeamPermissionsInCollection: (ctx, { params, query }) => listTeams(ctx, collectionTarget(ctx, params.collectionId), query),
  updateTeamPermissionInCollection: (ctx, { params, body }) => updateTeam(ctx, collectionTarget(ctx, params.collectionId), params.teamId, body.role),
  removeTeamFromCollection: (ctx, { params }) => {
    const t = collectionTarget(ctx, params.collectionId);
    requireAdmin(t, 'removing a team from the collection');
    return removeGrant(ctx, t, 'team', params.teamId);
  },
  listPermissionsAggregateInCollection: (ctx, { params, query }) => aggregate(ctx, collectionTarget(ctx, params.collectionId), query),

  inviteToSite: (ctx, { params, body }) => invite(ctx, siteTarget(ctx, params), body),
  listUserPermissionsInSite: (ctx, { params, query }) => listUsers(ctx, siteTarget(ctx, params), query),
  updateUserPermissionInSite: (ctx, { params, body }) => updateUser(ctx, siteTarget(ctx, params), params.userId, body.role),
  removeUserFromSite: (ctx, { params }) => {
    const t = siteTarget(ctx, params);
    requireAdmin(t, 'removing a user from the site');
    return removeGrant(ctx, t, 'user', params.userId);
  },
  listTeamPermissionsInSite: (ctx, { params, query }) => listTeams(ctx, siteTarget(ctx, params), query),
  updateTeamPermissionInSite: (ctx, { params, body }) => updateTeam(ctx, siteTarget(ctx, params), params.teamId, body.role),
  removeTeamFromSite: (ctx, { params }) => {
    const t = siteTarget(ctx, params);
    requireAdmin(t, 'removing a team from the site');
    return removeGrant(ctx, t, 'team', params.teamId);
  },
  listPermissionsAggregateInSite: (ctx, { params, query }) => {
    const t = siteTarget(ctx, params);
    const users = ctx.store.data.users;
    const team = query.team === undefined ? undefined : ctx.store.data.teams.get(query.team);
    // Searched and sorted as the member list is; `role` is the role on the site (`guest`: the organization's guests).
    const rows: { m: MemberRec; role: Role; origin: Origin }[] = [];
    for (const m of listedMembers(ctx.store, t.org, { search: query.search }, query.sort ?? 'joinedAt', query.order ?? 'desc')) {
      if (m.disabled || (query.team !== undefined && !team?.members.has(m.userId))) continue;
      const { role, origin } = t.resolve(m.userId);
      if (role === null || (query.role !== undefined && (query.role === 'guest' ? m.role !== null : role !== query.role))) continue;
      rows.push({ m, role, origin });
    }
    const page = paginate(rows, query, (r) => r.m.userId, scopeOf('site-aggregate', t.id, query));
    return {
      ...page,
      items: page.items.map(({ m, role, origin }) => ({
        permission: role,
        user: userView(ctx, users.get(m.userId)!),
        origin: siteOrigin(t, origin),
        disabled: m.disabled,
        ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
      })),
    };
  },
};

export const family = defineFamily({
  ops,
  handlers,
  onSpacePurged: (store, spaceId) => {
    const grants = grantsState(store).grants;
    for (const key of [...grantsOn(store, 'space', spaceId).values()].map((g) => grantKey(g.target, g.targetId, g.principal, g.principalId)))
      grants.delete(key);
  },
  onTeamDeleted: (store, teamId) => dropGrantsTo(store, 'team', teamId),
  // A link to a space or a collection gives its level there, as a direct invitation would (never lowering a grant held).
  onContentInviteJoined: (store, { org, user, target, level }) => {
    const held = grantsOn(store, target.type, target.id).get(grantKey(target.type, target.id, 'user', user));
    const role = maxRole(held && applies(store, held, org) ? held.role : null, level);
    return role !== null && setGrant(store, { kind: target.type, id: target.id, org }, 'user', user, role);
  },
});
