/**
 * Organization members: who may read the member list (members with a role; a guest only their own
 * membership), the spaces, sites and teams a member reaches, the list's filters and order, and the
 * rule that an organization always keeps one active admin. Memberships are records of the store.
 */
import type { MEMBER_ROLES, MEMBER_SORTS, ORDERS } from '../../contract/members.js';
import type { Role } from '../../contract/op.js';
import { orgFor, siteRole, spaceRole, type Actor } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { sitesState } from '../sites/state.js';
import { visibleSpaces } from '../spaces/model.js';
import type { MemberRec, SpaceRec, Store } from '../store.js';

/**
 * The spaces a member can access, among those the caller sees, with the member's role on each. A
 * disabled membership reaches none (it keeps the user from all content of the organization).
 */
export function memberSpaces(actor: Actor, orgId: string, m: MemberRec): { space: SpaceRec; permission: Role }[] {
  const out: { space: SpaceRec; permission: Role }[] = [];
  if (m.disabled) return out;
  for (const space of visibleSpaces(actor, orgId)) {
    const permission = spaceRole(actor.store, m.userId, space);
    if (permission !== null) out.push({ space, permission });
  }
  return out;
}

/**
 * How many sites of the organization a member can access: those their role on reaches (access.ts
 * `siteRole`: grants, default levels, their organization role; none for a disabled membership).
 */
export function memberSites(store: Store, orgId: string, m: MemberRec): number {
  if (m.disabled) return 0;
  let n = 0;
  for (const site of sitesState(store).sites.values()) if (site.org === orgId && siteRole(store, m.userId, site) !== null) n++;
  return n;
}

/** The teams of the organization the user is in. */
export function memberTeams(store: Store, orgId: string, userId: string) {
  return [...store.data.teams.values()].filter((t) => t.org === orgId && t.members.has(userId));
}

/** The caller's role, checked for reading the list of members (guests may not). */
export function requireMemberList(actor: Actor, orgId: string): Role | null {
  const { role } = orgFor(actor.store, actor.caller, orgId);
  if (role === null) throw forbidden('listing members needs a role in the organization; guests may only read their own membership');
  return role;
}

/** One member, readable by members with a role, or by the member themself. */
export function memberFor(actor: Actor, orgId: string, userId: string): MemberRec {
  const { role } = orgFor(actor.store, actor.caller, orgId);
  if (role === null && userId !== actor.caller.user.id) {
    throw forbidden('reading other members needs a role in the organization; guests may only read their own membership');
  }
  return existingMember(actor.store, orgId, userId);
}

/** A member of the organization, or 404. */
export function existingMember(store: Store, orgId: string, userId: string): MemberRec {
  const m = store.member(orgId, userId);
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

/** Give a member another role; the last active admin keeps theirs. */
export function setRole(store: Store, orgId: string, m: MemberRec, role: Role | null): void {
  if (role !== 'admin') keepAnAdmin(store, orgId, m, 'role');
  m.role = role;
}

/** Remove a member from the organization and its teams; the last active admin stays. */
export function removeMember(store: Store, orgId: string, m: MemberRec): void {
  keepAnAdmin(store, orgId, m, 'removing a member');
  store.data.members.get(orgId)?.delete(m.userId);
  for (const team of memberTeams(store, orgId, m.userId)) team.members.delete(m.userId);
}

const byTime = (key: 'joinedAt' | 'lastSeenAt') => (a: MemberRec, b: MemberRec) => (a[key] ?? '').localeCompare(b[key] ?? '');

/**
 * The members of an organization a list shows: filtered by role and by a text in the name or email,
 * those never seen left out when sorted by `lastSeenAt`; sorted by `sort` (then user id), in `order`.
 */
export function listedMembers(
  store: Store,
  orgId: string,
  filter: { role?: (typeof MEMBER_ROLES)[number]; search?: string },
  sort: (typeof MEMBER_SORTS)[number],
  order: (typeof ORDERS)[number],
): MemberRec[] {
  const needle = filter.search?.toLowerCase();
  const users = store.data.users;
  const name = (m: MemberRec) => users.get(m.userId)?.displayName.toLowerCase() ?? '';
  const members = [...(store.data.members.get(orgId)?.values() ?? [])].filter((m) => {
    const u = users.get(m.userId);
    if (!u) return false;
    if (filter.role !== undefined && (m.role ?? 'guest') !== filter.role) return false;
    if (sort === 'lastSeenAt' && !m.lastSeenAt) return false;
    return needle === undefined || u.displayName.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle);
  });
  const compare = sort === 'name' ? (a: MemberRec, b: MemberRec) => name(a).localeCompare(name(b)) : byTime(sort);
  return members.sort((a, b) => {
    const c = compare(a, b) || a.userId.localeCompare(b.userId);
    return order === 'asc' ? c : -c;
  });
}
