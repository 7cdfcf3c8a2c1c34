/**
 * The organization's own settings (`organization: {title, defaultRole, …}`): the fields the file
 * gives, set in one update (phase settings: after SAML providers, which single sign-on needs, and
 * sites, which the default site names). Merge rules name members by key; the default site by key.
 */
import { ops as orgOps, type OrganizationMergeRules } from '../../contract/orgs.js';
import type { LSettings } from '../model.js';
import { diffFields } from '../sites.js';
import { request, type IdRef } from '../steps.js';
import { step } from './common.js';
import type { KindDiff, PlanContext } from './context.js';

/** Merge rules with their users mapped (member keys ↔ user ids). */
export function mapRuleUsers(rules: OrganizationMergeRules, map: (user: string) => string): OrganizationMergeRules {
  if (rules.type !== 'rules') return rules;
  return { type: 'rules', rules: rules.rules.map((r) => ('users' in r ? { ...r, users: r.users.map(map) } : r)) };
}

const sorted = (list: string[] | undefined) => (list === undefined ? undefined : [...list].sort());

export function diffSettings(c: PlanContext): KindDiff {
  const d = c.desired.settings;
  const l: LSettings | undefined = c.live.settings;
  if (!d || !l) return { steps: [], drift: [], kept: [] };
  const fileSite = new Map([...c.matched.siteOf].map(([ds, ls]) => [ls.id, ds.key]));
  const siteKey = (id: string | undefined) => (id === undefined ? null : (fileSite.get(id) ?? c.keys.site.get(id) ?? id));
  const memberKey = (u: string) => c.keyOfId.member.get(u) ?? u;
  const fields = diffFields([
    ['title', d.title, l.title],
    ['emailDomains', sorted(d.emailDomains), sorted(l.emailDomains)],
    ['hostname', d.hostname, l.hostname],
    ['defaultRole', d.defaultRole === undefined ? undefined : (d.defaultRole ?? 'guest'), l.defaultRole ?? 'guest'],
    ['defaultSite', d.defaultSite, siteKey(l.defaultSite)],
    ['logo', d.logo, l.logo ?? null],
    ['sso', d.sso, l.sso],
    ['ai', d.ai, l.ai],
    ['inviteLinks', d.inviteLinks, l.inviteLinks],
    ['mergeRules', d.mergeRules, mapRuleUsers(l.mergeRules, memberKey)],
  ]);
  if (!fields.length) return { steps: [], drift: [], kept: [] };
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.field === 'defaultRole') body.defaultRole = d.defaultRole;
    else if (f.field === 'defaultSite')
      body.defaultContent =
        d.defaultSite === null || d.defaultSite === undefined ? null : { type: 'site', site: c.idRef(`site:${d.defaultSite}`) as string | IdRef };
    else if (f.field === 'mergeRules') body.mergeRules = mapRuleUsers(d.mergeRules!, (k) => c.memberKeyToUser.get(k) ?? k);
    else if (f.field === 'emailDomains') body.emailDomains = d.emailDomains;
    else body[f.field] = f.to;
  }
  return {
    steps: [
      step('settings', { kind: 'organization', action: 'update', key: c.org, id: c.org, title: l.title, fields }, [
        request(orgOps.updateOrganization, { organizationId: c.org }, body),
      ]),
    ],
    drift: [],
    kept: [],
  };
}
