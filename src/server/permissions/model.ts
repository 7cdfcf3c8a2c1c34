/**
 * Who reaches what: the grants of roles to users and teams on spaces, collections and sites, and the
 * one computation of a user's role on a piece of content from them, from the content's default levels
 * and from the user's role in the organization (docs/access.md, Permissions; the choices the
 * documentation leaves open: docs/compatibility.md, Permission grants). The computation is pure
 * (`resolveSpace`, `resolveCollection`, `resolveSite` read through a `World`), so it is tested alone;
 * `roles(store, userId)` gives it the sandbox's state, through indexes kept until the state changes.
 */
import type { DefaultLevel, Role } from '../../contract/op.js';
import { derivedKey } from '../derived.js';
import { sitesState, type SiteRec } from '../sites/state.js';
import type { CollectionRec, SpaceRec, Store } from '../store.js';

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

/** The higher of two roles (null = no role). */
export function maxRole(a: Role | null, b: Role | null): Role | null {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

export function atLeast(role: Role | null, min: Role): boolean {
  return role !== null && RANK[role] >= RANK[min];
}

// ---------------------------------------------------------------------------------------------
// The grants

export type TargetKind = 'space' | 'collection' | 'site';
export type PrincipalKind = 'user' | 'team';

/** A role given to a user or a team on a space, a collection or a site of an organization. */
export interface GrantRec {
  target: TargetKind;
  targetId: string;
  principal: PrincipalKind;
  principalId: string;
  /** The organization of the target when given: a grant on content since moved elsewhere gives nothing. */
  org: string;
  role: Role;
  createdAt: string;
}

export interface GrantsState {
  /** `grantKey(…)` → grant. */
  grants: Map<string, GrantRec>;
}

export function grantsState(store: Store): GrantsState {
  return store.slice<GrantsState>('permissions', () => ({ grants: new Map() }));
}

/** Give `role` to a user or a team on a target (null: take it away); whether anything changed. */
export function setGrant(
  store: Store,
  t: { kind: TargetKind; id: string; org: string },
  principal: PrincipalKind,
  principalId: string,
  role: Role | null,
): boolean {
  const key = grantKey(t.kind, t.id, principal, principalId);
  const grants = grantsState(store).grants;
  if (role === null) return grants.delete(key);
  const held = grants.get(key);
  // The role held already (and applying): nothing changes, not even when it was given.
  if (held !== undefined && held.role === role && applies(store, held, t.org)) return false;
  grants.set(key, { target: t.kind, targetId: t.id, principal, principalId, org: t.org, role, createdAt: store.now() });
  return true;
}

/** The grants on a target that still apply, of one kind of principal, in the order they were given. */
export function liveGrants(store: Store, t: { kind: TargetKind; id: string }, principal: PrincipalKind): GrantRec[] {
  const out: GrantRec[] = [];
  const org = orgOfTarget(store, t.kind, t.id);
  for (const g of grantsOn(store, t.kind, t.id).values()) if (g.principal === principal && applies(store, g, org)) out.push(g);
  return out;
}

/** Take a grant away: whether there was one that still applied. */
export function takeGrant(store: Store, t: { kind: TargetKind; id: string; org: string }, principal: PrincipalKind, principalId: string): boolean {
  const key = grantKey(t.kind, t.id, principal, principalId);
  const grants = grantsState(store).grants;
  const g = grants.get(key);
  const had = g !== undefined && applies(store, g, t.org);
  if (g) grants.delete(key);
  return had;
}

/** Every grant to one user or team goes (a deleted team's). */
export function dropGrantsTo(store: Store, principal: PrincipalKind, principalId: string): void {
  const grants = grantsState(store).grants;
  for (const [key, g] of grants) if (g.principal === principal && g.principalId === principalId) grants.delete(key);
}

const targetKey = (kind: TargetKind, id: string): string => `${kind}:${id}`;
export const grantKey = (kind: TargetKind, id: string, principal: PrincipalKind, principalId: string): string =>
  `${targetKey(kind, id)}/${principal}:${principalId}`;

// ---------------------------------------------------------------------------------------------
// The computation, pure

/** Why a user has their role on a piece of content. */
export type Origin =
  | { type: 'admin' }
  /** A grant (to the user, or to `team`) on `target`. */
  | { type: 'grant'; target: TargetKind; id: string; team?: string }
  /** The default level of `target` (a role, or null: no access). */
  | { type: 'default'; target: TargetKind; id: string }
  /** The user's role in the organization (content inheriting all the way up). */
  | { type: 'organization' }
  /** A guest reaches nothing they were not given. */
  | { type: 'none' };

export interface Resolved {
  role: Role | null;
  origin: Origin;
}

/** What the computation reads: the user's organization role, the user's grants, and the content's structure. */
export interface World {
  /** The user's role in the organization (null: a guest). */
  orgRole: Role | null;
  /** The highest role the user holds on the target through a grant to them or to one of their teams, and which team when a team's. */
  grant(kind: TargetKind, id: string): { role: Role; team?: string } | undefined;
  collection(id: string): Pick<CollectionRec, 'id' | 'defaultLevel' | 'parent'> | undefined;
  /** The sites that show the space (through a site space). */
  sitesOf(spaceId: string): readonly Pick<SiteRec, 'id' | 'defaultLevel'>[];
}

/** How deep collections may nest before the walk stops (a loop in a broken state ends there). */
const MAX_DEPTH = 64;

function granted(w: World, kind: TargetKind, id: string): Resolved | undefined {
  const g = w.grant(kind, id);
  return g && { role: g.role, origin: { type: 'grant', target: kind, id, ...(g.team ? { team: g.team } : {}) } };
}

/** A level of its own (a role, or null: no access), for the organization's members; a guest takes none. */
function ownLevel(w: World, level: DefaultLevel | undefined, kind: TargetKind, id: string): Resolved | undefined {
  if (level === 'inherit' || level === undefined) return undefined;
  return w.orgRole === null ? { role: null, origin: { type: 'none' } } : { role: level, origin: { type: 'default', target: kind, id } };
}

/** What the organization gives content that inherits all the way up: the member's role; a guest nothing. */
function fromOrganization(w: World): Resolved {
  return w.orgRole === null ? { role: null, origin: { type: 'none' } } : { role: w.orgRole, origin: { type: 'organization' } };
}

/**
 * The role in a collection (or, with `undefined`, at the organization's root): a grant on it first,
 * then its own default level, then (`inherit`) its parent's, up to the organization.
 */
function inContainer(w: World, collectionId: string | undefined): Resolved {
  let id = collectionId;
  for (let depth = 0; id !== undefined && depth < MAX_DEPTH; depth++) {
    const c = w.collection(id);
    if (!c) break;
    const r = granted(w, 'collection', c.id) ?? ownLevel(w, c.defaultLevel, 'collection', c.id);
    if (r) return r;
    id = c.parent;
  }
  return fromOrganization(w);
}

/**
 * A user's role on a space, by the precedence of GitBook's documentation: admins always; then a grant
 * on the space (the user's or a team's, the highest); then the space's own default level (a role for
 * every member, or null: none); in `inherit`, the sites that show the space (a grant there, or the
 * site's default role; the highest over the sites that set one), then the collection chain, then the
 * organization role. A guest takes no default level: only grants reach them.
 */
export function resolveSpace(w: World, space: Pick<SpaceRec, 'id' | 'defaultLevel' | 'parent'>): Resolved {
  if (w.orgRole === 'admin') return { role: 'admin', origin: { type: 'admin' } };
  const own = granted(w, 'space', space.id) ?? ownLevel(w, space.defaultLevel, 'space', space.id);
  if (own) return own;
  let fromSite: Resolved | undefined;
  for (const site of w.sitesOf(space.id)) {
    const r = granted(w, 'site', site.id) ?? siteDefault(w, site);
    if (r?.role && (!fromSite || maxRole(fromSite.role, r.role) !== fromSite.role)) fromSite = r;
  }
  return fromSite ?? inContainer(w, space.parent);
}

/** A site's default level as it reaches its spaces: only a role does (`inherit` and null leave them to their containers). */
function siteDefault(w: World, site: Pick<SiteRec, 'id' | 'defaultLevel'>): Resolved | undefined {
  const level = site.defaultLevel;
  return w.orgRole !== null && level !== null && level !== undefined && level !== 'inherit'
    ? { role: level, origin: { type: 'default', target: 'site', id: site.id } }
    : undefined;
}

/** A user's role on a collection: admins always, then a grant on it, its default level, its parent's, the organization role. */
export function resolveCollection(w: World, collection: Pick<CollectionRec, 'id'>): Resolved {
  if (w.orgRole === 'admin') return { role: 'admin', origin: { type: 'admin' } };
  return inContainer(w, collection.id);
}

/** A user's role on a site: admins always, then a grant on it, then its default level (`inherit`: the organization role). */
export function resolveSite(w: World, site: Pick<SiteRec, 'id' | 'defaultLevel'>): Resolved {
  if (w.orgRole === 'admin') return { role: 'admin', origin: { type: 'admin' } };
  return granted(w, 'site', site.id) ?? ownLevel(w, site.defaultLevel, 'site', site.id) ?? fromOrganization(w);
}

// ---------------------------------------------------------------------------------------------
// The sandbox's state as a World

/**
 * Two indexes, kept apart because every write of the state drops both (Store.changed): the one a
 * request's access check needs (teams by user, sites by space: a pass over teams and site spaces,
 * small) and the grants by target and by principal (a pass over every grant), which only listings
 * and counts need. An access check reads a grant by its key (grantKey), so that a write of one
 * grant among 10,000 does not make the next request index all of them again.
 */
interface GrantIndexes {
  /** target key → grants on it, by `user:<id>` / `team:<id>`. */
  byTarget: Map<string, Map<string, GrantRec>>;
  /** `user:<id>` / `team:<id>` → the grants to them. */
  byPrincipal: Map<string, GrantRec[]>;
}

interface MembershipIndexes {
  /** user id → the teams they are in (all organizations). */
  teamsOf: Map<string, string[]>;
  /** space id → the sites that show it. */
  sitesOf: Map<string, SiteRec[]>;
}

const GRANT_INDEXES = derivedKey<GrantIndexes>('permission grants by target and by principal');
const MEMBERSHIP_INDEXES = derivedKey<MembershipIndexes>('teams by user, sites by space');

/** The grants by target and by principal (built on first use after a change: one pass over the grants). */
function indexes(store: Store): GrantIndexes {
  return store.derived.get(GRANT_INDEXES, () => {
    const byTarget = new Map<string, Map<string, GrantRec>>();
    const byPrincipal = new Map<string, GrantRec[]>();
    for (const g of grantsState(store).grants.values()) {
      const key = targetKey(g.target, g.targetId);
      let m = byTarget.get(key);
      if (!m) byTarget.set(key, (m = new Map()));
      const principal = `${g.principal}:${g.principalId}`;
      m.set(principal, g);
      const list = byPrincipal.get(principal);
      if (list) list.push(g);
      else byPrincipal.set(principal, [g]);
    }
    return { byTarget, byPrincipal };
  });
}

/** Teams by user and sites by space (built on first use after a change: one pass over teams and site spaces). */
function memberships(store: Store): MembershipIndexes {
  return store.derived.get(MEMBERSHIP_INDEXES, () => {
    const teamsOf = new Map<string, string[]>();
    for (const team of store.data.teams.values()) {
      for (const userId of team.members.keys()) {
        const list = teamsOf.get(userId);
        if (list) list.push(team.id);
        else teamsOf.set(userId, [team.id]);
      }
    }
    const st = sitesState(store);
    const sitesOf = new Map<string, SiteRec[]>();
    for (const ss of st.siteSpaces.values()) {
      const site = st.sites.get(ss.site);
      if (!site) continue;
      const list = sitesOf.get(ss.space);
      if (!list) sitesOf.set(ss.space, [site]);
      else if (!list.includes(site)) list.push(site);
    }
    return { teamsOf, sitesOf };
  });
}

/** The grants on a target, by `user:<id>` / `team:<id>` (the stored ones, whether they still apply or not). */
export function grantsOn(store: Store, kind: TargetKind, id: string): ReadonlyMap<string, GrantRec> {
  return indexes(store).byTarget.get(targetKey(kind, id)) ?? new Map();
}

/**
 * Whether a stored grant still gives its role: its target is still in the organization it was given
 * in; a user's grant was given during their current membership (removing a member from the
 * organization ends their grants, also when they join again); a team's team still exists there.
 */
export function applies(store: Store, g: GrantRec, targetOrg: string | undefined): boolean {
  if (targetOrg !== g.org) return false;
  if (g.principal === 'team') return store.data.teams.get(g.principalId)?.org === g.org;
  const m = store.member(g.org, g.principalId);
  return m !== undefined && m.joinedAt <= g.createdAt;
}

/** How many live spaces a team has been given a role on (its `spaces` count). */
export function spacesGrantedTo(store: Store, teamId: string): number {
  let n = 0;
  for (const g of indexes(store).byPrincipal.get(`team:${teamId}`) ?? []) {
    const space = g.target === 'space' ? store.data.spaces.get(g.targetId) : undefined;
    if (space && !space.deletedAt && applies(store, g, space.org)) n++;
  }
  return n;
}

/** The organization a target is in now (undefined: it is gone). */
function orgOfTarget(store: Store, kind: TargetKind, id: string): string | undefined {
  if (kind === 'space') return store.data.spaces.get(id)?.org;
  if (kind === 'collection') return store.data.collections.get(id)?.org;
  return sitesState(store).sites.get(id)?.org;
}

/** The state as a World for one user in one organization. A disabled member or a non-member reaches nothing (null role, no grant). */
export function worldOf(store: Store, orgId: string, userId: string): World {
  const member = store.member(orgId, userId);
  const active = member !== undefined && !member.disabled;
  const ix = memberships(store);
  const teams = ix.teamsOf.get(userId) ?? [];
  const { grants } = grantsState(store);
  return {
    orgRole: active ? member.role : null,
    grant(kind, id) {
      if (!active || grants.size === 0) return undefined;
      let best: { role: Role; team?: string } | undefined;
      const own = grants.get(grantKey(kind, id, 'user', userId));
      if (own && applies(store, own, orgId)) best = { role: own.role };
      for (const team of teams) {
        const g = grants.get(grantKey(kind, id, 'team', team));
        if (g && applies(store, g, orgId) && (!best || RANK[g.role] > RANK[best.role])) best = { role: g.role, team };
      }
      return best;
    },
    collection: (id) => store.data.collections.get(id),
    sitesOf: (spaceId) => ix.sitesOf.get(spaceId) ?? [],
  };
}

/** A user's role on a space of the sandbox (null: none). */
export function roleOnSpace(store: Store, userId: string, space: SpaceRec): Role | null {
  return resolveSpace(worldOf(store, space.org, userId), space).role;
}

/** A user's role on a collection of the sandbox. */
export function roleOnCollection(store: Store, userId: string, collection: CollectionRec): Role | null {
  return resolveCollection(worldOf(store, collection.org, userId), collection).role;
}

/** A user's role on a site of the sandbox. */
export function roleOnSite(store: Store, userId: string, site: SiteRec): Role | null {
  return resolveSite(worldOf(store, site.org, userId), site).role;
}
