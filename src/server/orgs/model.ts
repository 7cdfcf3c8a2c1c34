/**
 * The caller, their organizations, and teams. Users, organizations, memberships and teams are
 * records of the store itself (store.ts); an organization's settings beyond its record (merge
 * rules, default role and content, SSO enforcement, logo...) live in this family's slice, and admins
 * change them with `PATCH {o}` (the official document's updateOrganizationById).
 */
import type { OrganizationMergeRules, UpdateOrganizationBody } from '../../contract/orgs.js';
import type { Role } from '../../contract/op.js';
import type { MergeRules } from '../../contract/spaces.js';
import { badRequest } from '../errors.js';
import { samlActive, samlProvidersOf } from '../saml/model.js';
import { sitesState } from '../sites/state.js';
import type { OrgRec, SpaceRec, Store, TeamRec } from '../store.js';

/** What an organization holds beyond its record in the store; a field not set has its default. */
interface OrgSettings {
  hostname?: string;
  /** The role new members get; `read` until set (null: guests). */
  defaultRole?: Role | null;
  defaultContent?: { type: 'site'; site: string };
  logo?: string;
  /** SSO enforcement, as set; in effect only while an active SAML provider exists. */
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: OrganizationMergeRules;
}

/** Organization id → its settings (this family's slice of the state). */
function allSettings(store: Store): Map<string, OrgSettings> {
  return store.slice('orgs', () => ({ settings: new Map<string, OrgSettings>() })).settings;
}

/** An organization's settings as set (none set: `{}`), to read them. */
export function settingsOf(store: Store, orgId: string): Readonly<OrgSettings> {
  return allSettings(store).get(orgId) ?? {};
}

/** An organization's settings, to change them. */
function writableSettings(store: Store, orgId: string): OrgSettings {
  const all = allSettings(store);
  let s = all.get(orgId);
  if (!s) all.set(orgId, (s = {}));
  return s;
}

/** An organization's merge rules: none until set. A space whose mergeRules are `inherit` follows them. */
function orgMergeRules(store: Store, orgId: string): OrganizationMergeRules {
  return allSettings(store).get(orgId)?.mergeRules ?? { type: 'none' };
}

/** The merge rules a space follows: its own, or (`inherit`) its organization's. */
export function effectiveMergeRules(store: Store, space: SpaceRec): OrganizationMergeRules {
  return space.mergeRules.type === 'inherit' ? orgMergeRules(store, space.org) : space.mergeRules;
}

/** Whether the organization has a SAML provider members can sign in through. */
export function hasActiveSaml(store: Store, orgId: string): boolean {
  return samlProvidersOf(store, orgId).some(samlActive);
}

/** The default content while its site still exists in the organization (else none is shown). */
export function liveDefaultContent(store: Store, orgId: string): OrgSettings['defaultContent'] {
  const { defaultContent } = settingsOf(store, orgId);
  const site = defaultContent && sitesState(store).sites.get(defaultContent.site);
  return site && site.org === orgId ? defaultContent : undefined;
}

/** The organizations a user is an enabled member of, in creation order. */
export function organizationsOf(store: Store, userId: string): OrgRec[] {
  return [...store.data.orgs.values()].filter((o) => {
    const m = store.member(o.id, userId);
    return m && !m.disabled;
  });
}

/** An organization's teams, in creation order. */
export function teamsOf(store: Store, orgId: string): TeamRec[] {
  return [...store.data.teams.values()].filter((t) => t.org === orgId);
}

/** Merge rules (an organization's or a space's) name only members of the organization: 400 naming the first that is not. */
export function checkRuleUsers(store: Store, orgId: string, rules: MergeRules | OrganizationMergeRules | undefined): void {
  if (rules?.type !== 'rules') return;
  rules.rules.forEach((rule, i) =>
    ('users' in rule ? rule.users : []).forEach((user, j) => {
      if (!store.member(orgId, user)) throw badRequest(`mergeRules.rules.${i}.users.${j}: ${user} is not a member of organization ${orgId}`);
    }),
  );
}

/** What the schema cannot check: members named in the rules, the default site, an active provider for SSO. */
function checkUpdate(store: Store, orgId: string, body: UpdateOrganizationBody): void {
  checkRuleUsers(store, orgId, body.mergeRules);
  if (body.defaultContent) {
    const site = sitesState(store).sites.get(body.defaultContent.site);
    if (!site || site.org !== orgId) throw badRequest(`defaultContent.site: no site ${body.defaultContent.site} in organization ${orgId}`);
  }
  if (body.sso === true && !hasActiveSaml(store, orgId)) {
    throw badRequest('sso: enforcing single sign-on needs an active SAML provider (one with entityID, certificate and ssoURL set)');
  }
}

/** Change an organization (its record and its settings) as `PATCH {o}` asks: checked first, then changed. */
export function updateOrganization(store: Store, org: OrgRec, body: UpdateOrganizationBody): void {
  checkUpdate(store, org.id, body);
  if (body.title !== undefined) org.title = body.title;
  if (body.emailDomains !== undefined) org.emailDomains = body.emailDomains;
  const s = writableSettings(store, org.id);
  if (body.hostname !== undefined) s.hostname = body.hostname;
  if (body.defaultRole !== undefined) s.defaultRole = body.defaultRole;
  if (body.defaultContent === null) delete s.defaultContent;
  else if (body.defaultContent !== undefined) s.defaultContent = body.defaultContent;
  if (body.logo === null) delete s.logo;
  else if (body.logo !== undefined) s.logo = body.logo;
  for (const flag of ['sso', 'ai', 'inviteLinks'] as const) if (body[flag] !== undefined) s[flag] = body[flag];
  if (body.mergeRules !== undefined) s.mergeRules = body.mergeRules;
}
