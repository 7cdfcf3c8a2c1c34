/**
 * What plan checks of the access kinds against the organization: the members, teams and sites they
 * name when the files do not declare that kind (the files' own keys are checked offline, in
 * access-source.ts): each must be the organization's, as export names it.
 */
import type { Desired, Live, Path } from './model.js';
import { mergeRuleUsers } from './access-source.js';
import { nearby, pathText, type Problem } from './source.js';

export function accessReferences(
  desired: Desired,
  live: Live,
  known: { memberKeys: Map<string, string>; teamKeys: Map<string, string>; ids: Map<string, string> },
): Problem[] {
  const problems: Problem[] = [];
  const problem = (path: Path, message: string) => problems.push({ where: desired.where(path), path: desired.pathIn?.(path) ?? pathText(path), message });
  const inOrg = (what: string, key: string, keys: Iterable<string>) =>
    `no ${what} with key ${JSON.stringify(key)} in the files or in organization ${live.organization}${nearby(key, keys)}`;
  const member = (key: string, path: Path) => {
    if (!desired.kinds.has('members') && !known.memberKeys.has(key)) problem(path, inOrg('member', key, known.memberKeys.keys()));
  };
  const team = (key: string, path: Path) => {
    if (!desired.kinds.has('teams') && !known.teamKeys.has(key)) problem(path, inOrg('team', key, known.teamKeys.keys()));
  };
  for (const t of desired.teams) for (const m of t.members ?? []) member(m.key, m.at);
  for (const item of [...desired.collections, ...desired.spaces, ...desired.sites]) {
    for (const g of item.access ?? []) {
      if (g.principal === 'user') member(g.key, [...g.at, 'user']);
      else team(g.key, [...g.at, 'team']);
    }
  }
  const s = desired.settings;
  if (s) {
    mergeRuleUsers(s.mergeRules).forEach(({ user, path }) => member(user, [...s.at, 'mergeRules', ...path]));
    if (typeof s.defaultSite === 'string' && !desired.kinds.has('sites') && !known.ids.has(`site:${s.defaultSite}`)) {
      const siteKeys = [...known.ids.keys()].filter((k) => k.startsWith('site:')).map((k) => k.slice(5));
      problem([...s.at, 'defaultSite'], inOrg('site', s.defaultSite, siteKeys));
    }
  }
  return problems;
}
