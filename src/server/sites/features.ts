/**
 * A site's plan and the premium features it uses. The official document names the features
 * (SiteFeatureKey) and says each belongs to a plan, but not which plan has which: the table below is
 * the sandbox's (docs/sites.md, Plans and features). A feature is listed when the site's plan
 * includes it for every site, or when the site's settings use it; either way with the plan it
 * belongs to.
 */
import type { SiteFeature, SiteFeatureKey, SiteType } from '../../contract/sites.js';
import { walk, type SiteRec, type SitesState } from './state.js';

/** The three plans; the other types are priced like one of them. */
export type Plan = 'basic' | 'premium' | 'ultimate';

const PLAN_OF: Record<SiteType, Plan> = {
  basic: 'basic',
  'legacy-basic': 'basic',
  premium: 'premium',
  'legacy-premium': 'premium',
  ultimate: 'ultimate',
  // Sponsored sites (community organizations) get the ultimate plan's features, paid by ads.
  sponsored: 'ultimate',
};
const RANK: Record<Plan, number> = { basic: 0, premium: 1, ultimate: 2 };

export function planOf(type: SiteType): Plan {
  return PLAN_OF[type];
}

/** Whether a site's plan is `plan` or above. */
export function hasPlan(site: Pick<SiteRec, 'type'>, plan: Plan): boolean {
  return RANK[planOf(site.type)] >= RANK[plan];
}

interface Rule {
  id: SiteFeatureKey;
  plan: Plan;
  /** Whether the site has it: by its plan, or because a setting uses it. */
  on(site: SiteRec, st: SitesState): boolean;
}

const RULES: Rule[] = [
  { id: 'sites-advanced-customization', plan: 'premium', on: (site) => hasPlan(site, 'premium') },
  { id: 'sites-share-links', plan: 'premium', on: (site) => site.visibility === 'share-link' },
  {
    id: 'sites-multivariant-site',
    plan: 'premium',
    on: (site, st) => site.siteSpaces.length > 1 || walk(st, site).sections.some((s) => s.siteSpaces.length > 1),
  },
  { id: 'sites-sections', plan: 'ultimate', on: (site, st) => walk(st, site).sections.length > 0 },
  { id: 'sites-adaptive-content', plan: 'ultimate', on: (site) => site.adaptiveContent },
  { id: 'sites-visitor-authentication', plan: 'ultimate', on: (site) => site.visibility === 'visitor-auth' },
  { id: 'sites-custom-subdirectory', plan: 'ultimate', on: (site) => site.proxy !== undefined },
];

/**
 * The features of a site, in the table's order. `frozen` is always false: the sandbox never changes
 * a site's plan, so no feature is kept past a downgrade.
 */
export function featuresOf(site: SiteRec, st: SitesState): SiteFeature[] {
  return RULES.filter((r) => r.on(site, st)).map((r) => ({ id: r.id, plan: r.plan, frozen: false }));
}
