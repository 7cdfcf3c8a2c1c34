/**
 * Teams: their records (the store's `teams` table), and the rules of their membership. Admins
 * create, rename and delete teams; a team's owners and admins change its members (GitBook's
 * documentation, "Teams": team owners "can add and remove members from the team they are an owner
 * of" and nothing else). Members are named by user id or by email. No HTTP here: the handlers
 * (handlers/teams.ts) read the request and shape the answers.
 */
import type { Role } from '../../contract/op.js';
import type { TeamMemberRole, UpdateTeamMembersBody } from '../../contract/teams.js';
import { atLeast } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Store, TeamRec, UserRec } from '../store.js';

/** The team, or 404 (also for a team of another organization). */
export function teamIn(store: Store, orgId: string, teamId: string): TeamRec {
  const team = store.data.teams.get(teamId);
  if (!team || team.org !== orgId) throw notFound(`no team ${teamId} in organization ${orgId}`);
  return team;
}

/** Whether a user may change the team's members: an admin of its organization, or an owner of the team. */
export function managesTeam(orgRole: Role | null, team: TeamRec, userId: string): boolean {
  return atLeast(orgRole, 'admin') || team.members.get(userId) === 'owner';
}

/** Whether a user may see the team and its members: a member with a role, or one of the team's. */
function seesTeam(orgRole: Role | null, team: TeamRec, userId: string): boolean {
  return orgRole !== null || team.members.has(userId);
}

/** 403 unless the caller manages the team. */
export function requireManage(orgRole: Role | null, team: TeamRec, userId: string, what: string): void {
  if (!managesTeam(orgRole, team, userId)) {
    throw forbidden(`${what} needs the admin role or to own team ${team.id}; you have ${orgRole ?? 'guest access'}`);
  }
}

/** 403 unless the caller sees the team. */
export function requireSee(orgRole: Role | null, team: TeamRec, userId: string, what: string): void {
  if (!seesTeam(orgRole, team, userId)) throw forbidden(`${what} needs the read role or above, or to be in team ${team.id}; you have guest access`);
}

/**
 * The member a reference names: a user id, or an email (any case) of a user; 400 at `at` when it
 * names no member of the organization.
 */
function memberByRef(store: Store, orgId: string, ref: string, at: string): UserRec {
  const byId = store.member(orgId, ref) && store.data.users.get(ref);
  if (byId) return byId;
  if (ref.includes('@')) {
    const wanted = ref.toLowerCase();
    for (const u of store.data.users.values()) if (u.email.toLowerCase() === wanted && store.member(orgId, u.id)) return u;
  }
  throw badRequest(`${at}: ${ref} is not a member of organization ${orgId} (name a member by user id or email)`);
}

export function createTeam(store: Store, orgId: string, title: string, members: readonly string[] = []): TeamRec {
  const users = members.map((ref, i) => memberByRef(store, orgId, ref, `members.${i}`));
  const team: TeamRec = { id: newId(), org: orgId, title, createdAt: store.now(), members: new Map() };
  for (const u of users) team.members.set(u.id, 'member');
  store.data.teams.set(team.id, team);
  return team;
}

/**
 * Delete a team: it leaves its members' lists, and every family drops what it gave the team
 * (`onTeamDeleted`: grants on spaces, collections and sites).
 */
export function deleteTeam(store: Store, team: TeamRec): void {
  store.data.teams.delete(team.id);
  for (const f of store.families) f.onTeamDeleted?.(store, team.id);
}

/** Add a member of the organization to the team, or change their team role (`member` for a newcomer unless given). */
export function setTeamMember(team: TeamRec, userId: string, role: TeamMemberRole | undefined): void {
  team.members.set(userId, role ?? team.members.get(userId) ?? 'member');
}

/**
 * The bulk update: every reference checked first (400 naming the first bad one, nothing changed),
 * then adds (as `member`), the roles `memberships` sets, and removals last, so a
 * user both added and removed ends up out of the team (as the official document says).
 */
export function updateTeamMembers(store: Store, team: TeamRec, body: UpdateTeamMembersBody): void {
  const added = (body.add ?? []).map((ref, i) => memberByRef(store, team.org, ref, `add.${i}`).id);
  const removed = (body.remove ?? []).map((ref, i) => memberByRef(store, team.org, ref, `remove.${i}`).id);
  // Keyed by user id or email, as `add` names users.
  const roles = Object.entries(body.memberships ?? {}).map(([ref, m]) => [memberByRef(store, team.org, ref, `memberships.${ref}`).id, m.role] as const);
  for (const [userId] of roles) {
    if (!team.members.has(userId) && !added.includes(userId)) {
      throw badRequest(`memberships.${userId}: ${userId} is not in team ${team.id} and not added by this request`);
    }
  }
  for (const userId of added) setTeamMember(team, userId, undefined);
  for (const [userId, role] of roles) team.members.set(userId, role);
  for (const userId of removed) team.members.delete(userId);
}
