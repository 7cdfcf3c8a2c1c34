/**
 * What `docsctl access` reads, through the official operations only (so it answers the same against
 * the real service): the members, the teams that hold grants and their members, the content with its
 * default levels and parents, the sites that show a space, and the user and team grants on each
 * target — every request in a slot of a bounded pool (src/orgfile/pool.ts), 429s retried by the client.
 */
import { ops as collectionOps } from '../../contract/collections.js';
import { ops as memberOps, type Member } from '../../contract/members.js';
import type { DefaultLevel, Role } from '../../contract/op.js';
import { ops as permissionOps } from '../../contract/permissions.js';
import { ops as siteOps } from '../../contract/sites.js';
import { ops as spaceOps } from '../../contract/spaces.js';
import { ops as teamOps } from '../../contract/teams.js';
import type { Reader } from '../../orgfile/live.js';
import { MAX_DEPTH, targetKey, type Grants, type Node, type OrgView, type Person, type TargetKind } from './model.js';

/** An OrgView being filled. */
export interface MutableView extends OrgView {
  people: Map<string, Person>;
  teams: Map<string, { title: string; members: Set<string> }>;
  spaces: Map<string, Node>;
  collections: Map<string, Node>;
  sites: Map<string, Node>;
  sitesOf: Map<string, string[]>;
  grants: Map<string, Grants>;
}

function emptyView(): MutableView {
  return { people: new Map(), teams: new Map(), spaces: new Map(), collections: new Map(), sites: new Map(), sitesOf: new Map(), grants: new Map() };
}

const node = (n: { id: string; title: string; defaultLevel?: DefaultLevel; parent?: string | null }): Node => ({
  id: n.id,
  title: n.title,
  defaultLevel: n.defaultLevel,
  ...(n.parent ? { parent: n.parent } : {}),
});

export function personOf(m: Member): Person {
  return {
    id: m.user.id,
    name: m.user.displayName,
    ...(m.user.email ? { email: m.user.email } : {}),
    role: m.role ?? null,
    disabled: m.disabled,
  };
}

async function readMembers(r: Reader, organizationId: string, view: MutableView): Promise<void> {
  for (const m of await r.all(memberOps.listMembers, { params: { organizationId } })) view.people.set(m.user.id, personOf(m));
}

/** The user and team grants on one target (the teams' titles kept; `newTeam` told of each team seen first here). */
async function readGrants(r: Reader, organizationId: string, kind: TargetKind, id: string, view: MutableView, newTeam?: (id: string) => void): Promise<void> {
  const users = new Map<string, Role | null>();
  const teams = new Map<string, Role | null>();
  const keep = (team: { id: string; title: string }) => {
    if (view.teams.has(team.id)) return;
    view.teams.set(team.id, { title: team.title, members: new Set() });
    newTeam?.(team.id);
  };
  if (kind === 'site') {
    const params = { organizationId, siteId: id };
    const [u, t] = await Promise.all([r.all(permissionOps.listUserPermissionsInSite, { params }), r.all(permissionOps.listTeamPermissionsInSite, { params })]);
    for (const g of u) users.set(g.user.id, g.permission);
    for (const g of t) teams.set(g.team.id, g.permission), keep(g.team);
  } else {
    const [listUsers, listTeams] =
      kind === 'space'
        ? ([permissionOps.listUserPermissionsInSpace, permissionOps.listTeamPermissionsInSpace] as const)
        : ([permissionOps.listUserPermissionsInCollection, permissionOps.listTeamPermissionsInCollection] as const);
    const params = kind === 'space' ? { spaceId: id } : { collectionId: id };
    const [u, t] = await Promise.all([r.all(listUsers, { params } as never), r.all(listTeams, { params } as never)]);
    for (const g of u as { user: { id: string }; permission: Role }[]) users.set(g.user.id, g.permission);
    for (const g of t as { team: { id: string; title: string }; permission: Role }[]) teams.set(g.team.id, g.permission), keep(g.team);
  }
  view.grants.set(targetKey(kind, id), { users, teams });
}

/**
 * What decides who reaches one target: the target, the collections (the chain above it, up to the
 * first with a level of its own: past it nothing is inherited), for a space in `inherit` the sites
 * that show it, the grants on all of those, the teams that hold them and their members, and the
 * members. Read in three rounds at most: the lists and the target; the grants of the chain and the
 * sites; the members of each team, as soon as a grant names it.
 */
export async function readForTarget(r: Reader, organizationId: string, kind: TargetKind, id: string): Promise<MutableView> {
  const view = emptyView();
  const work: Promise<void>[] = [];
  // Waited for below; a read that fails after the target did (a 404 for a missing space) is not left unhandled.
  const start = (p: Promise<void>) => (p.catch(() => undefined), work.push(p));
  start(readMembers(r, organizationId, view));
  const newTeam = (teamId: string) =>
    start(
      r.all(teamOps.listTeamMembers, { params: { organizationId, teamId } }).then((list) => {
        for (const m of list) view.teams.get(teamId)?.members.add(m.organization.user.id);
      }),
    );
  const grants = (k: TargetKind, target: string) => start(readGrants(r, organizationId, k, target, view, newTeam));
  grants(kind, id);
  if (kind === 'site') {
    const site = await r.call(siteOps.getSite, { params: { organizationId, siteId: id } });
    view.sites.set(site.id, node(site));
  } else {
    const collections = r.all(collectionOps.listCollections, { params: { organizationId } });
    let parent: string | undefined;
    if (kind === 'space') {
      // The sites that show it are asked for at once: one request, needed unless the space has a level of its own.
      const [space, sites] = await Promise.all([
        r.call(spaceOps.getSpace, { params: { spaceId: id } }),
        r.all(siteOps.listSites, { params: { organizationId }, query: { space: id } }),
      ]);
      view.spaces.set(space.id, node(space));
      if (space.defaultLevel === 'inherit' || space.defaultLevel === undefined) {
        view.sitesOf.set(
          id,
          sites.map((s) => s.id),
        );
        for (const s of sites) view.sites.set(s.id, node(s)), grants('site', s.id);
        parent = space.parent ?? undefined;
      }
    } else {
      const c = await r.call(collectionOps.getCollection, { params: { collectionId: id } });
      view.collections.set(c.id, node(c));
      parent = c.defaultLevel === 'inherit' || c.defaultLevel === undefined ? (c.parent ?? undefined) : undefined;
    }
    const all = new Map((await collections).map((c) => [c.id, c]));
    for (let depth = 0; parent !== undefined && !view.collections.has(parent) && depth < MAX_DEPTH; depth++) {
      const c = all.get(parent);
      if (!c) break;
      view.collections.set(c.id, node(c));
      grants('collection', c.id);
      parent = c.defaultLevel === 'inherit' || c.defaultLevel === undefined ? (c.parent ?? undefined) : undefined;
    }
  }
  // Work added while waiting (a team's members) is waited for too.
  for (let done = 0; done < work.length; ) {
    const n = work.length;
    await Promise.all(work.slice(done, n));
    done = n;
  }
  return view;
}

/**
 * What decides everything one person reaches: every collection, space and site, the sites that show
 * each space, the person's teams, and (unless the person is an admin or disabled: their answer needs
 * none) the grants on every target.
 */
export async function readForPerson(r: Reader, organizationId: string, person: Person): Promise<MutableView> {
  const view = emptyView();
  view.people.set(person.id, person);
  const params = { organizationId };
  const [collections, spaces, sites, teams] = await Promise.all([
    r.all(collectionOps.listCollections, { params }),
    r.all(spaceOps.listSpaces, { params }),
    r.all(siteOps.listSites, { params }),
    r.all(memberOps.listMemberTeams, { params: { organizationId, userId: person.id } }),
  ]);
  for (const c of collections) view.collections.set(c.id, node(c));
  for (const s of spaces) if (!s.deletedAt) view.spaces.set(s.id, node(s));
  for (const s of sites) view.sites.set(s.id, node(s));
  for (const t of teams) view.teams.set(t.team.id, { title: t.team.title, members: new Set([person.id]) });
  if (person.disabled || person.role === 'admin') return view;
  const work: Promise<void>[] = [];
  for (const s of sites) {
    work.push(
      r.all(siteOps.listSiteSpaces, { params: { organizationId, siteId: s.id } }).then((list) => {
        for (const ss of list) {
          const shown = view.sitesOf.get(ss.space.id);
          if (!shown) view.sitesOf.set(ss.space.id, [s.id]);
          else if (!shown.includes(s.id)) shown.push(s.id);
        }
      }),
    );
  }
  for (const [kind, nodes] of [
    ['collection', view.collections],
    ['space', view.spaces],
    ['site', view.sites],
  ] as const) {
    for (const id of nodes.keys()) work.push(readGrants(r, organizationId, kind, id, view));
  }
  await Promise.all(work);
  // A team grant read from a target names teams the person may not be in: keep only theirs.
  for (const [teamId, team] of view.teams) if (!team.members.has(person.id)) view.teams.delete(teamId);
  return view;
}
