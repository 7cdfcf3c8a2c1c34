/**
 * The permission model of `docsctl access`, pure: who reaches a space, a collection or a site, with
 * which role, and why — from what the official operations show (members and their organization roles,
 * teams and their members, the content's default levels and parents, the sites that show a space, the
 * grants to users and teams). It follows GitBook's "Permissions and inheritance" (docs/access.md,
 * Auditing access) and resolves, for a member who is not an admin:
 *
 * - a space: a grant on the space (to the user or one of their teams: the highest), else the space's
 *   own default level (a role for every member, or null: no access); in `inherit`, the sites that show
 *   the space (a grant on the site, or the site's default role; the highest over the sites that give
 *   one), else the collection chain, else the organization role;
 * - a collection: a grant on it, its own default level, else (`inherit`) its parent's, up to the
 *   organization role;
 * - a site: a grant on it, its own default level, else the organization role.
 *
 * Admins reach everything as admins; a guest (no organization role) takes no default level and no
 * organization role: only grants reach them; a disabled member reaches nothing.
 */
import type { DefaultLevel, Role } from '../../contract/op.js';

export type TargetKind = 'space' | 'collection' | 'site';

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

function rank(role: Role | null): number {
  return role === null ? 0 : RANK[role];
}

export interface Person {
  id: string;
  name: string;
  email?: string;
  /** The organization role; null: a guest. */
  role: Role | null;
  disabled: boolean;
}

export interface Node {
  id: string;
  title: string;
  defaultLevel: DefaultLevel | undefined;
  /** The collection that holds it (spaces and collections). */
  parent?: string;
}

/** The grants on one target: user id → role, team id → role (a null role gives nothing). */
export interface Grants {
  users: ReadonlyMap<string, Role | null>;
  teams: ReadonlyMap<string, Role | null>;
}

/** What the computation reads. Anything it was not given (a collection, a target's grants) counts as absent. */
export interface OrgView {
  people: ReadonlyMap<string, Person>;
  teams: ReadonlyMap<string, { title: string; members: ReadonlySet<string> }>;
  spaces: ReadonlyMap<string, Node>;
  collections: ReadonlyMap<string, Node>;
  sites: ReadonlyMap<string, Node>;
  /** space id → the sites that show it. */
  sitesOf: ReadonlyMap<string, readonly string[]>;
  /** `kind:id` → the grants on it. */
  grants: ReadonlyMap<string, Grants>;
}

export const targetKey = (kind: TargetKind, id: string): string => `${kind}:${id}`;

/** Why a person has their role. `on`/`id`: the target whose grant or default level gives it. */
export type Reason =
  | { type: 'admin' }
  | { type: 'organization' }
  | { type: 'default'; on: TargetKind; id: string }
  | { type: 'direct'; on: TargetKind; id: string }
  | { type: 'team'; on: TargetKind; id: string; team: string }
  /** A guest's own grant (they were invited to it). */
  | { type: 'guest'; on: TargetKind; id: string };

export type Access = { role: Role; reason: Reason } | { role: null; reason?: undefined };

const NONE: Access = { role: null };
/** How deep collections may nest before the walk stops (a loop in a broken answer ends there). */
export const MAX_DEPTH = 64;

function granted(org: OrgView, p: Person, on: TargetKind, id: string): Access | undefined {
  const g = org.grants.get(targetKey(on, id));
  if (!g) return undefined;
  let best: Access | undefined;
  const own = g.users.get(p.id);
  if (own) best = { role: own, reason: p.role === null ? { type: 'guest', on, id } : { type: 'direct', on, id } };
  for (const [team, role] of g.teams) {
    if (!role || rank(role) <= rank(best?.role ?? null)) continue;
    if (org.teams.get(team)?.members.has(p.id)) best = { role, reason: { type: 'team', on, id, team } };
  }
  return best;
}

/** A level of its own (a role, or null: no access) for a member; a guest takes none. Undefined: inherit. */
function ownLevel(p: Person, level: DefaultLevel | undefined, on: TargetKind, id: string): Access | undefined {
  if (level === 'inherit' || level === undefined) return undefined;
  return p.role === null || level === null ? NONE : { role: level, reason: { type: 'default', on, id } };
}

function fromOrganization(p: Person): Access {
  return p.role === null ? NONE : { role: p.role, reason: { type: 'organization' } };
}

function inContainer(org: OrgView, p: Person, collectionId: string | undefined): Access {
  let id = collectionId;
  for (let depth = 0; id !== undefined && depth < MAX_DEPTH; depth++) {
    const c = org.collections.get(id);
    if (!c) break;
    const r = granted(org, p, 'collection', c.id) ?? ownLevel(p, c.defaultLevel, 'collection', c.id);
    if (r) return r;
    id = c.parent;
  }
  return fromOrganization(p);
}

function siteDefault(p: Person, site: Node): Access | undefined {
  const level = site.defaultLevel;
  return p.role !== null && level !== null && level !== undefined && level !== 'inherit'
    ? { role: level, reason: { type: 'default', on: 'site', id: site.id } }
    : undefined;
}

/** A person's role on a target of the organization, and why (role null: they do not reach it). */
export function resolve(org: OrgView, p: Person, kind: TargetKind, id: string): Access {
  if (p.disabled) return NONE;
  if (p.role === 'admin') return { role: 'admin', reason: { type: 'admin' } };
  if (kind === 'collection') return inContainer(org, p, id);
  if (kind === 'site') {
    const site = org.sites.get(id);
    if (!site) return NONE;
    return granted(org, p, 'site', id) ?? ownLevel(p, site.defaultLevel, 'site', id) ?? fromOrganization(p);
  }
  const space = org.spaces.get(id);
  if (!space) return NONE;
  const own = granted(org, p, 'space', id) ?? ownLevel(p, space.defaultLevel, 'space', id);
  if (own) return own;
  let fromSite: Access | undefined;
  for (const siteId of org.sitesOf.get(id) ?? []) {
    const site = org.sites.get(siteId);
    if (!site) continue;
    const r = granted(org, p, 'site', siteId) ?? siteDefault(p, site);
    if (r?.role && rank(r.role) > rank(fromSite?.role ?? null)) fromSite = r;
  }
  return fromSite ?? inContainer(org, p, space.parent);
}

export interface Reach {
  person: Person;
  role: Role;
  reason: Reason;
}

/** Everyone who reaches a target (highest role first, then by name). */
export function whoReaches(org: OrgView, kind: TargetKind, id: string): Reach[] {
  const out: Reach[] = [];
  for (const person of org.people.values()) {
    const a = resolve(org, person, kind, id);
    if (a.role) out.push({ person, role: a.role, reason: a.reason });
  }
  return out.sort((a, b) => rank(b.role) - rank(a.role) || a.person.name.localeCompare(b.person.name) || a.person.id.localeCompare(b.person.id));
}

export interface Reached {
  kind: TargetKind;
  target: Node;
  role: Role;
  reason: Reason;
}

/** Every target a person reaches: collections, spaces, then sites, each by title. */
export function reachedBy(org: OrgView, person: Person): Reached[] {
  const out: Reached[] = [];
  for (const [kind, nodes] of [
    ['collection', org.collections],
    ['space', org.spaces],
    ['site', org.sites],
  ] as const) {
    const rows: Reached[] = [];
    for (const target of nodes.values()) {
      const a = resolve(org, person, kind, target.id);
      if (a.role) rows.push({ kind, target, role: a.role, reason: a.reason });
    }
    out.push(...rows.sort((a, b) => a.target.title.localeCompare(b.target.title) || a.target.id.localeCompare(b.target.id)));
  }
  return out;
}

/** The reason in words: "team Writers on collection Handbook (c_1)", "default level of space …". */
export function describeReason(org: OrgView, reason: Reason, person: Person): string {
  const name = (on: TargetKind, id: string) => {
    const node = (on === 'space' ? org.spaces : on === 'collection' ? org.collections : org.sites).get(id);
    return `${on} ${node ? `${node.title} (${id})` : id}`;
  };
  switch (reason.type) {
    case 'admin':
      return 'admin of the organization';
    case 'organization':
      return `organization role ${person.role ?? ''}`.trim();
    case 'default':
      return `default level of ${name(reason.on, reason.id)}`;
    case 'direct':
      return `direct grant on ${name(reason.on, reason.id)}`;
    case 'guest':
      return `guest invited to ${name(reason.on, reason.id)}`;
    case 'team': {
      const title = org.teams.get(reason.team)?.title;
      return `team ${title ? `${title} (${reason.team})` : reason.team} on ${name(reason.on, reason.id)}`;
    }
  }
}
