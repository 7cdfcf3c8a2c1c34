/**
 * Writing the organization as a file: the service's items with the keys the planner gives them
 * (liveKeys, liveSiteKeys: the same function on both sides, so an exported file plans clean),
 * references by key, ids beside them. Values the service has but the API cannot set are written
 * only where they inform (a space's visibility, a site's type); nothing secret is in it.
 */
import { UNSET_SSO_URL } from '../contract/saml.js';
import type { MergeRules } from '../contract/spaces.js';
import type { LAccess, Live, LNode, LSettings, LSiteSpace, LStructure } from './model.js';
import { liveKeys } from './plan.js';
import { FILE_VERSION, KINDS, type Kind, type OrgFileData } from './schema.js';
import { liveSiteKeys } from './sites.js';
import { mapRuleUsers } from './kinds/organization.js';

/** The keys export gives the service's items (id → key), kind by kind. */
export type ExportKeys = ReturnType<typeof liveKeys>;
/** The keys of a site's sections, groups and site spaces (id → key). */
export type SiteKeys = ReturnType<typeof liveSiteKeys>;

/**
 * The file's data for the kinds read into `live` (all of them by default), items in the order of
 * `live`'s lists. `keys` and `siteKeys` give other keys than the service's titles would (export
 * --update: the file's own).
 */
export function exportFile(
  live: Live,
  kinds: readonly Kind[] = KINDS,
  keys: ExportKeys = liveKeys(live),
  siteKeys: (siteId: string, structure: LStructure, spaceKey: (id: string) => string) => SiteKeys = (_, structure, spaceKey) =>
    liveSiteKeys(structure, spaceKey),
): OrgFileData {
  const spaceKey = (id: string) => keys.space.get(id) ?? id;
  const memberKey = (id: string) => keys.member.get(id) ?? id;
  const out: Record<string, unknown> = { version: FILE_VERSION, organization: live.organization };
  const want = new Set(kinds);
  const teamKey = (id: string) => keys.team.get(id) ?? id;
  const access = (a: LAccess | undefined) => (a ? { access: accessToFile(a, memberKey, teamKey) } : {});
  if (live.settings) out.organization = settingsToFile(live.organization, live.settings, memberKey, (id) => keys.site.get(id) ?? id);

  if (want.has('collections')) {
    out.collections = live.collections.map((c) => ({
      key: keys.collection.get(c.id),
      id: c.id,
      title: c.title,
      ...(c.description ? { description: c.description } : {}),
      defaultLevel: c.defaultLevel,
      parent: c.parent ? (keys.collection.get(c.parent) ?? null) : null,
      ...access(c.access),
    }));
  }
  if (want.has('spaces')) {
    out.spaces = live.spaces.map((s) => ({
      key: keys.space.get(s.id),
      id: s.id,
      title: s.title,
      ...(s.emoji ? { emoji: s.emoji } : {}),
      parent: s.parent ? (keys.collection.get(s.parent) ?? null) : null,
      visibility: s.visibility,
      editMode: s.editMode ?? 'live',
      defaultLevel: s.defaultLevel,
      ...(s.language ? { language: s.language } : {}),
      mergeRules: mergeRulesToFile(s.mergeRules, memberKey),
      ...access(s.access),
    }));
  }
  if (want.has('sites')) {
    out.sites = live.sites.map((s) => ({
      key: keys.site.get(s.id),
      id: s.id,
      title: s.title,
      type: s.type,
      visibility: s.visibility,
      published: s.published,
      ...(s.basename ? { basename: s.basename } : {}),
      defaultLevel: s.defaultLevel,
      adaptiveContent: s.adaptiveContent,
      ...(s.agentsContext ? { agentsContext: s.agentsContext } : {}),
      ...(s.adaptiveSchema ? { adaptiveSchema: s.adaptiveSchema } : {}),
      ...structureToFile(s.structure, spaceKey, siteKeys(s.id, s.structure, spaceKey)),
      ...access(s.access),
    }));
  }
  if (want.has('teams')) {
    out.teams = live.teams.map((t) => {
      const members = Object.entries(t.members ?? {});
      const of = (role: 'owner' | 'member') => members.filter(([, r]) => r === role).map(([u]) => memberKey(u));
      return { key: keys.team.get(t.id), id: t.id, title: t.title, ...(t.members ? { owners: of('owner'), members: of('member') } : {}) };
    });
  }
  if (want.has('members')) {
    out.members = live.members.map((m) => ({
      key: keys.member.get(m.id),
      id: m.id,
      name: m.name,
      ...(m.email ? { email: m.email } : {}),
      role: m.role ?? 'guest',
    }));
  }
  if (want.has('saml')) {
    out.saml = live.saml.map((p) => ({
      key: keys.saml.get(p.id),
      id: p.id,
      label: p.label,
      ...(p.entityID ? { entityID: p.entityID } : {}),
      ...(p.ssoURL && p.ssoURL !== UNSET_SSO_URL ? { ssoURL: p.ssoURL } : {}),
      // A certificate is public (the identity provider's signing key's other half): written inline.
      ...(p.certificate ? { certificate: p.certificate } : {}),
      defaultRole: p.defaultRole ?? 'guest',
      defaultTeam: p.defaultTeam ? (keys.team.get(p.defaultTeam.id) ?? null) : null,
    }));
  }
  if (want.has('openapi')) {
    out.openapi = live.openapi.map((s) => ({ slug: s.slug, ...(s.url ? { url: s.url } : {}), visibility: s.visibility }));
  }
  return out as OrgFileData;
}

/** An item's grants as its `access:` list: users, then teams, by key. */
function accessToFile(a: LAccess, memberKey: (id: string) => string, teamKey: (id: string) => string) {
  return [
    ...Object.entries(a.users).map(([u, role]) => ({ user: memberKey(u), role })),
    ...Object.entries(a.teams).map(([t, role]) => ({ team: teamKey(t), role })),
  ];
}

/** The organization's settings as the file writes them (`organization: {id, title, …}`). */
function settingsToFile(id: string, s: LSettings, memberKey: (id: string) => string, siteKey: (id: string) => string) {
  return {
    id,
    title: s.title,
    emailDomains: s.emailDomains,
    ...(s.hostname ? { hostname: s.hostname } : {}),
    defaultRole: s.defaultRole ?? 'guest',
    defaultSite: s.defaultSite ? siteKey(s.defaultSite) : null,
    ...(s.logo ? { logo: s.logo } : {}),
    sso: s.sso,
    ai: s.ai,
    inviteLinks: s.inviteLinks,
    mergeRules: mapRuleUsers(s.mergeRules, memberKey),
  };
}

function mergeRulesToFile(rules: MergeRules, memberKey: (id: string) => string): MergeRules {
  if (rules.type !== 'rules') return rules;
  return { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map(memberKey) } : r)) };
}

function structureToFile(structure: LStructure, spaceKey: (id: string) => string, k: SiteKeys): Record<string, unknown> {
  const siteSpace = (ss: LSiteSpace) => {
    const key = k.siteSpace.get(ss.id)!;
    const space = spaceKey(ss.space);
    return {
      ...(key !== space ? { key } : {}),
      id: ss.id,
      space,
      path: ss.path,
      ...(ss.condition ? { condition: ss.condition } : {}),
      hidden: ss.hidden,
      default: ss.default,
    };
  };
  if (structure.mode === 'siteSpaces') return { siteSpaces: structure.siteSpaces.map(siteSpace) };
  const node = (n: LNode): Record<string, unknown> =>
    n.type === 'group'
      ? { key: k.group.get(n.id), id: n.id, group: true, title: n.title, ...(n.icon ? { icon: n.icon } : {}), sections: n.children.map(node) }
      : {
          key: k.section.get(n.id),
          id: n.id,
          title: n.title,
          path: n.path,
          ...(n.icon ? { icon: n.icon } : {}),
          ...(n.description ? { description: n.description } : {}),
          ...(n.condition ? { condition: n.condition } : {}),
          default: n.default,
          siteSpaces: n.siteSpaces.map(siteSpace),
        };
  return { sections: structure.items.map(node) };
}

/** The file's text: YAML after the editor's schema line, or JSON (with `$schema`). */
export function formatFile(data: OrgFileData, format: 'yaml' | 'json', schemaRef: string, stringify: (v: unknown) => string): string {
  if (format === 'json') return JSON.stringify({ $schema: schemaRef, ...data }, null, 2) + '\n';
  return `# yaml-language-server: $schema=${schemaRef}\n${stringify(data)}`;
}
