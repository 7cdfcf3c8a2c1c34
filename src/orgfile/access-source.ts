/**
 * The access kinds of an organization file, from its data to the desired organization (source.ts
 * calls these): teams with their members, the `access:` of collections, spaces and sites, and the
 * organization's settings; with the rules the schema cannot say, checked offline (`orgs
 * validate`): member, team and site keys that exist (when the files declare that kind), a member
 * once per team, a user or a team once per `access:` list.
 */
import type { OrganizationMergeRules } from '../contract/orgs.js';
import type { Role } from '../contract/op.js';
import type { DGrant, DSettings, DTeam, Path } from './model.js';
import type { FileGrantT, FileSettingsT, Kind, OrgFileData } from './schema.js';

type Report = (path: Path, message: string) => void;
type KeysOf = <T extends { key?: string }>(kind: string, items: T[], pathOf: (i: number) => Path, titleOf: (t: T) => string, fallback: string) => string[];

/** What the checks need: the keys of each kind the files have, and whether they declare it. */
export interface AccessKeys {
  kinds: Set<Kind>;
  members: Set<string>;
  teams: Set<string>;
  sites: Set<string>;
  /** ` (did you mean "x"?)` */
  nearby: (key: string, keys: Iterable<string>) => string;
  /** `teams[0].members[1] (org.yaml:4:7)`: another place named in a message. */
  place: (path: Path) => string;
}

/** A reference to a member key: reported when the files declare members and none has it. */
function memberRef(k: AccessKeys, report: Report, key: string, path: Path): void {
  if (k.kinds.has('members') && !k.members.has(key)) report(path, `no member with key ${JSON.stringify(key)}${k.nearby(key, k.members)}`);
}

function teamRef(k: AccessKeys, report: Report, key: string, path: Path): void {
  if (k.kinds.has('teams') && !k.teams.has(key)) report(path, `no team with key ${JSON.stringify(key)}${k.nearby(key, k.teams)}`);
}

/** The file's teams with keys (from their titles) and their members and owners by member key. */
export function normalizeTeams(list: NonNullable<OrgFileData['teams']>, keysOf: KeysOf): DTeam[] {
  const keys = keysOf(
    'teams',
    list,
    (i) => ['teams', i],
    (t) => t.title,
    'team',
  );
  return list.map((t, i) => {
    const at: Path = ['teams', i];
    const managed = t.members !== undefined || t.owners !== undefined;
    return {
      key: keys[i],
      ...(t.id ? { id: t.id } : {}),
      title: t.title,
      ...(managed
        ? {
            members: [
              ...(t.owners ?? []).map((key, j) => ({ key, role: 'owner' as const, at: [...at, 'owners', j] })),
              ...(t.members ?? []).map((key, j) => ({ key, role: 'member' as const, at: [...at, 'members', j] })),
            ],
          }
        : {}),
      at,
    };
  });
}

/** A team's members: keys that exist, each once (an owner is not also a member). */
export function checkTeams(teams: DTeam[], k: AccessKeys, report: Report): void {
  for (const t of teams) {
    const seen = new Map<string, Path>();
    for (const m of t.members ?? []) {
      const first = seen.get(m.key);
      if (first) report(m.at, `${JSON.stringify(m.key)} is in the team twice (also at ${k.place(first)}): a member is an owner or a member, once`);
      else seen.set(m.key, m.at);
      memberRef(k, report, m.key, m.at);
    }
  }
}

/** An item's `access:` as grants; undefined when it has none (its grants are not managed). */
export function grantsOf(list: FileGrantT[] | undefined, at: Path): DGrant[] | undefined {
  if (list === undefined) return undefined;
  return list.map((g, i) =>
    g.user !== undefined
      ? { principal: 'user' as const, key: g.user, role: g.role as Role, at: [...at, 'access', i] }
      : { principal: 'team' as const, key: g.team!, role: g.role as Role, at: [...at, 'access', i] },
  );
}

/** Each grant names a member or team that exists, each once per list. */
export function checkAccess(items: { access?: DGrant[]; at: Path }[], k: AccessKeys, report: Report): void {
  for (const item of items) {
    const seen = new Map<string, Path>();
    for (const g of item.access ?? []) {
      const id = `${g.principal}:${g.key}`;
      const first = seen.get(id);
      if (first)
        report(g.at, `${g.principal} ${JSON.stringify(g.key)} is given a role twice (also at ${k.place(first)}): one grant per ${g.principal} and item`);
      else seen.set(id, g.at);
      if (g.principal === 'user') memberRef(k, report, g.key, [...g.at, 'user']);
      else teamRef(k, report, g.key, [...g.at, 'team']);
    }
  }
}

/** A SAML provider's default team: a team of the files, when they declare teams. */
export function checkTeamRef(key: string | null | undefined, path: Path, k: AccessKeys, report: Report): void {
  if (typeof key === 'string') teamRef(k, report, key, path);
}

/** The settings a file manages (`organization: {…}`), their references checked. */
export function normalizeSettings(s: FileSettingsT, k: AccessKeys, report: Report): DSettings {
  const at: Path = ['organization'];
  if (typeof s.defaultSite === 'string' && k.kinds.has('sites') && !k.sites.has(s.defaultSite))
    report([...at, 'defaultSite'], `no site with key ${JSON.stringify(s.defaultSite)}${k.nearby(s.defaultSite, k.sites)}`);
  mergeRuleUsers(s.mergeRules).forEach(({ user, path }) => memberRef(k, report, user, [...at, 'mergeRules', ...path]));
  const out: DSettings = { at };
  for (const f of ['title', 'emailDomains', 'hostname', 'defaultSite', 'logo', 'sso', 'ai', 'inviteLinks', 'mergeRules'] as const) {
    if (s[f] !== undefined) (out as unknown as Record<string, unknown>)[f] = s[f];
  }
  if (s.defaultRole !== undefined) out.defaultRole = s.defaultRole === 'guest' ? null : (s.defaultRole as Role);
  return out;
}

/** The users an organization's merge rules name, with their path under `mergeRules`. */
export function mergeRuleUsers(rules: OrganizationMergeRules | undefined): { user: string; path: Path }[] {
  if (rules?.type !== 'rules') return [];
  return rules.rules.flatMap((r, i) => ('users' in r ? r.users.map((user, j) => ({ user, path: ['rules', i, 'users', j] as Path })) : []));
}
