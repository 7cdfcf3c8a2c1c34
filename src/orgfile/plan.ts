/**
 * The plan: what apply would change to make the organization the file's, as steps in dependency
 * order. Collections before spaces before sites (a site shows spaces), members, SAML providers and
 * OpenAPI specifications next, deletions (only with --prune, only of the kinds the file declares)
 * last; creations before moves. Items are matched by id, then key, then title (see match).
 */
import type { MergeRules } from '../contract/spaces.js';
import { KeyAllocator, slug } from './keys.js';
import type { Desired, DSite, Live, Path } from './model.js';
import { walkDesired } from './model.js';
import { ownership } from './owns.js';
import { withMoved } from './moved.js';
import type { MovableKind } from './schema.js';
import { match } from './sites.js';
import { nearby, OrgFileError, pathText, type Problem } from './source.js';
import { PHASES, ref, type Change, type Drift, type IdRef, type Kept, type Step } from './steps.js';
import type { PlanContext } from './kinds/context.js';
import { diffCollections } from './kinds/collections.js';
import { diffSpaces } from './kinds/spaces.js';
import { diffSites } from './kinds/sites.js';
import { diffMembers } from './kinds/members.js';
import { diffSaml } from './kinds/saml.js';
import { diffOpenapi } from './kinds/openapi.js';
import { diffTeams } from './kinds/teams.js';
import { diffGrants } from './kinds/grants.js';
import { diffSettings } from './kinds/organization.js';
import type { KindDiff } from './kinds/context.js';
import { accessReferences } from './access-plan.js';

export interface PlanOptions {
  /** Delete what the file does not have, of the kinds it declares. */
  prune?: boolean;
}

export interface Summary {
  create: number;
  update: number;
  move: number;
  delete: number;
  /** Spaces taken out of the trash (present only when there are some). */
  restore?: number;
}

export interface Plan {
  organization: string;
  source: string;
  prune: boolean;
  /** Every step, in the order apply makes them: what plan shows, and what apply sends. */
  steps: Step[];
  /** The same steps, as changes (what plan shows). */
  changes: Change[];
  drift: Drift[];
  kept: Kept[];
  summary: Summary;
  /** Ids known before apply starts (`kind:key` → id). */
  ids: Map<string, string>;
  /** What it was planned from (a saved plan keeps a digest of each object). */
  live: Live;
}

/** Keys of the service's items, as export writes them (unique within their kind, in list order). */
export function liveKeys(live: Live) {
  const keyed = <T extends { id: string }>(items: T[], base: (t: T) => string) => {
    const alloc = new KeyAllocator();
    return new Map(items.map((t) => [t.id, alloc.take(base(t))]));
  };
  return {
    collection: keyed(live.collections, (c) => slug(c.title, 'collection')),
    space: keyed(live.spaces, (s) => slug(s.title, 'space')),
    site: keyed(live.sites, (s) => slug(s.title, 'site')),
    member: keyed(live.members, (m) => slug(m.name || m.id, 'member')),
    saml: keyed(live.saml, (p) => slug(p.label, 'provider')),
    team: keyed(live.teams, (t) => slug(t.title, 'team')),
  };
}

/** The file's items matched to the service's: by id, then key (`moved:` notes: by the old key), then title (label). Export --update matches the same way. */
export function matchItems(desired: Desired, live: Live, keys: ReturnType<typeof liveKeys> = liveKeys(live)) {
  const moved = (kind: MovableKind, liveKey: Map<string, string>) => withMoved(liveKey, desired.moved?.get(kind));
  return {
    collectionOf: match(desired.collections, live.collections, (d) => d.id, moved('collections', keys.collection), [(d, l) => d.title === l.title]),
    spaceOf: match(desired.spaces, live.spaces, (d) => d.id, moved('spaces', keys.space), [(d, l) => d.title === l.title]),
    siteOf: match(desired.sites, live.sites, (d) => d.id, moved('sites', keys.site), [(d, l) => d.title === l.title]),
    samlOf: match(desired.saml, live.saml, (d) => d.id, moved('saml', keys.saml), [(d, l) => d.label === l.label]),
    teamOf: match(desired.teams, live.teams, (d) => d.id, keys.team, [(d, l) => d.title === l.title]),
  };
}

export function buildPlan(desired: Desired, live: Live, opts: PlanOptions = {}): Plan {
  const prune = Boolean(opts.prune);
  const steps: Step[] = [];
  const drift: Drift[] = [];
  const kept: Kept[] = [];
  const problems: Problem[] = [];
  const ids = new Map<string, string>();
  const keys = liveKeys(live);
  const declared = desired.kinds;
  const org = live.organization;
  /** The id of a `kind:key`: known now, or made by an earlier step of this apply. */
  const idRef = (name: string): string | IdRef => ids.get(name) ?? ref(name);
  const problem = (path: Path, message: string) => problems.push({ where: desired.where(path), path: desired.pathIn?.(path) ?? pathText(path), message });

  // --- Matching, kind by kind -------------------------------------------------------------------
  const { collectionOf, spaceOf, siteOf, samlOf, teamOf } = matchItems(desired, live, keys);

  /** `kind:key` → id, for everything the file may refer to; and id → key, for showing the service's values. */
  const keyOfId = {
    collection: new Map<string, string>(),
    space: new Map<string, string>(),
    member: new Map<string, string>(),
    team: new Map<string, string>(),
  };
  const register = <D extends { key: string }, L extends { id: string }>(
    kind: 'collection' | 'space' | 'site' | 'saml' | 'team',
    isDeclared: boolean,
    matched: Map<D, L>,
    liveItems: L[],
    liveKey: Map<string, string>,
  ) => {
    if (isDeclared) {
      for (const [d, l] of matched) ids.set(`${kind}:${d.key}`, l.id);
    } else {
      for (const l of liveItems) ids.set(`${kind}:${liveKey.get(l.id)}`, l.id);
    }
  };
  register('collection', declared.has('collections'), collectionOf, live.collections, keys.collection);
  register('space', declared.has('spaces'), spaceOf, live.spaces, keys.space);
  register('site', declared.has('sites'), siteOf, live.sites, keys.site);
  register('saml', declared.has('saml'), samlOf, live.saml, keys.saml);
  register('team', declared.has('teams'), teamOf, live.teams, keys.team);
  for (const l of live.collections) keyOfId.collection.set(l.id, keys.collection.get(l.id)!);
  for (const [d, l] of collectionOf) keyOfId.collection.set(l.id, d.key);
  for (const l of live.spaces) keyOfId.space.set(l.id, keys.space.get(l.id)!);
  for (const [d, l] of spaceOf) keyOfId.space.set(l.id, d.key);
  for (const t of live.teams) keyOfId.team.set(t.id, keys.team.get(t.id)!);
  for (const [d, l] of teamOf) keyOfId.team.set(l.id, d.key);
  // Members: the user id is the identity.
  const liveMember = new Map(live.members.map((m) => [m.id, m]));
  const memberKeyToUser = new Map<string, string>();
  if (declared.has('members')) for (const m of desired.members) memberKeyToUser.set(m.key, m.id);
  else for (const m of live.members) memberKeyToUser.set(keys.member.get(m.id)!, m.id);
  for (const m of live.members) keyOfId.member.set(m.id, keys.member.get(m.id)!);
  for (const m of desired.members) keyOfId.member.set(m.id, m.key);
  const teamKeyToId = new Map(live.teams.map((t) => [keys.team.get(t.id)!, t.id]));

  // --- References the file makes to kinds it does not declare: they must exist --------------------
  const liveRef = (kind: 'collection' | 'space', key: string, path: Path, keyList: Iterable<string>) => {
    if (!ids.has(`${kind}:${key}`))
      problem(path, `no ${kind} with key ${JSON.stringify(key)} in the file or in organization ${live.organization}${nearby(key, keyList)}`);
  };
  if (!declared.has('collections')) {
    for (const s of desired.spaces) if (s.parent !== null) liveRef('collection', s.parent, [...s.at, 'parent'], keys.collection.values());
  }
  if (!declared.has('spaces')) {
    for (const site of desired.sites) {
      for (const ss of siteSpacesOf(site)) liveRef('space', ss.space, [...ss.at, 'space'], keys.space.values());
    }
  }
  if (!declared.has('members')) {
    for (const s of desired.spaces) {
      mergeUsers(s.mergeRules).forEach(({ user, path }) => {
        if (!memberKeyToUser.has(user))
          problem(
            [...s.at, 'mergeRules', ...path],
            `no member with key ${JSON.stringify(user)} in organization ${live.organization}${nearby(user, memberKeyToUser.keys())}`,
          );
      });
    }
  }
  // Members, teams and sites the access kinds name (access-plan.ts), when the files do not declare them.
  problems.push(...accessReferences(desired, live, { memberKeys: memberKeyToUser, teamKeys: teamKeyToId, ids }));
  for (const p of desired.saml) {
    // A team of the files is checked with them (source.ts).
    if (typeof p.defaultTeam === 'string' && !declared.has('teams') && !teamKeyToId.has(p.defaultTeam)) {
      problem(
        [...p.at, 'defaultTeam'],
        `no team with key ${JSON.stringify(p.defaultTeam)} in organization ${live.organization} (teams: ${[...teamKeyToId.keys()].join(', ') || 'none'})`,
      );
    }
  }
  if (problems.length) throw new OrgFileError(desired.source, problems);

  // What --prune may delete: what the files own (owns.ts).
  const owned = ownership(desired.owners, live, (kind, ref) => {
    const liveKey = kind === 'collection' ? keys.collection : keys.site;
    const items = kind === 'collection' ? live.collections : live.sites;
    return ids.get(`${kind}:${ref}`) ?? [...liveKey].find(([, k]) => k === ref)?.[0] ?? items.find((i) => i.id === ref)?.id;
  });

  /** Merge rules with member keys as the API has them (user ids). */
  const rulesToApi = (rules: MergeRules): MergeRules =>
    rules.type !== 'rules'
      ? rules
      : { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map((u) => memberKeyToUser.get(u) ?? u) } : r)) };
  const rulesToFile = (rules: MergeRules): MergeRules =>
    rules.type !== 'rules'
      ? rules
      : { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map((u) => keyOfId.member.get(u) ?? u) } : r)) };

  const context: PlanContext = {
    desired,
    live,
    prune,
    org,
    ids,
    keys,
    idRef,
    keyOfId,
    memberKeyToUser,
    teamKeyToId,
    liveMember,
    rulesToApi,
    rulesToFile,
    matched: { collectionOf, spaceOf, siteOf, samlOf, teamOf },
    owned,
  };
  const differs = [
    ['collections', diffCollections],
    ['spaces', diffSpaces],
    ['sites', diffSites],
    ['teams', diffTeams],
    ['members', diffMembers],
    ['saml', diffSaml],
    ['openapi', diffOpenapi],
  ] as const;
  const add = (d: KindDiff) => {
    steps.push(...d.steps);
    drift.push(...d.drift);
    kept.push(...d.kept);
  };
  for (const [kind, diff] of differs) if (declared.has(kind)) add(diff(context));
  // Not kinds of their own: the access: of items, and the organization's settings.
  add(diffGrants(context));
  if (desired.settings) add(diffSettings(context));

  // The dependency order: phase by phase; within a phase, as the differs gave them (collections top-down).
  const rank = new Map<Step, number>(steps.map((st, i) => [st, i]));
  steps.sort((a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || rank.get(a)! - rank.get(b)!);
  const changes: Change[] = steps;
  return { organization: live.organization, source: desired.source, prune, steps, changes, drift, kept, summary: summarize(changes), ids, live };
}

function mergeUsers(rules: MergeRules | undefined): { user: string; path: Path }[] {
  if (rules?.type !== 'rules') return [];
  return rules.rules.flatMap((r, i) => ('users' in r ? r.users.map((user, j) => ({ user, path: ['rules', i, 'users', j] as Path })) : []));
}

function siteSpacesOf(site: DSite) {
  return site.structure ? walkDesired(site.structure).siteSpaces : [];
}

function summarize(changes: Change[]): Summary {
  const out: Summary = { create: 0, update: 0, move: 0, delete: 0 };
  for (const c of changes) {
    if (c.action === 'restore') out.restore = (out.restore ?? 0) + 1;
    else out[c.action]++;
  }
  return out;
}
