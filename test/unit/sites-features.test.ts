import { describe, expect, it } from 'vitest';
import { SITE_TYPES } from '../../src/contract/sites.js';
import { siteCustomization } from '../../src/server/sites/customization.js';
import { featuresOf, hasPlan, planOf } from '../../src/server/sites/features.js';
import type { SiteRec, SitesState } from '../../src/server/sites/state.js';
import { validatorAt, describeErrors } from '../helpers/official.js';

function state(extra: Partial<SiteRec> = {}): { st: SitesState; site: SiteRec } {
  const site: SiteRec = {
    id: 'site',
    org: 'o',
    type: 'basic',
    title: 'Docs',
    visibility: 'public',
    published: false,
    createdAt: '',
    defaultLevel: null,
    adaptiveContent: false,
    agentsContext: 'included',
    shareKey: 'k',
    structure: [],
    siteSpaces: [],
    ...extra,
  };
  return { st: { sites: new Map([[site.id, site]]), sections: new Map(), groups: new Map(), siteSpaces: new Map() }, site };
}
const ids = (site: SiteRec, st: SitesState) => featuresOf(site, st).map((f) => `${f.id}@${f.plan}`);

describe('plans', () => {
  it('prices each of the six site types like one of the three plans', () => {
    expect(Object.fromEntries(SITE_TYPES.map((t) => [t, planOf(t)]))).toEqual({
      basic: 'basic',
      'legacy-basic': 'basic',
      premium: 'premium',
      'legacy-premium': 'premium',
      ultimate: 'ultimate',
      sponsored: 'ultimate',
    });
    expect(hasPlan({ type: 'legacy-premium' }, 'premium')).toBe(true);
    expect(hasPlan({ type: 'legacy-basic' }, 'premium')).toBe(false);
    expect(hasPlan({ type: 'sponsored' }, 'ultimate')).toBe(true);
  });
});

describe('features', () => {
  it('follow the plan and the settings in use, never frozen', () => {
    const { st, site } = state();
    expect(ids(site, st)).toEqual([]);
    site.type = 'premium';
    expect(ids(site, st)).toEqual(['sites-advanced-customization@premium']);
    Object.assign(site, { visibility: 'share-link', adaptiveContent: true, proxy: 'example.com/docs' });
    expect(ids(site, st)).toEqual([
      'sites-advanced-customization@premium',
      'sites-share-links@premium',
      'sites-adaptive-content@ultimate',
      'sites-custom-subdirectory@ultimate',
    ]);
    site.visibility = 'visitor-auth';
    expect(ids(site, st)).toContain('sites-visitor-authentication@ultimate');
    expect(featuresOf(site, st).every((f) => f.frozen === false)).toBe(true);
  });

  it('count sections and variants (several site spaces in one list)', () => {
    const { st, site } = state();
    site.siteSpaces.push('a', 'b');
    expect(ids(site, st)).toEqual(['sites-multivariant-site@premium']);
    site.siteSpaces.length = 0;
    st.sections.set('s1', { id: 's1', site: 'site', title: 'S', path: 's', siteSpaces: ['a'] });
    site.structure.push('s1');
    expect(ids(site, st)).toEqual(['sites-sections@ultimate']);
    st.sections.get('s1')!.siteSpaces.push('b');
    expect(ids(site, st)).toEqual(['sites-multivariant-site@premium', 'sites-sections@ultimate']);
  });
});

describe('the published customization', () => {
  it('is a SiteCustomizationSettings of the official document, with the site’s title, language and plan', () => {
    const validate = validatorAt('#/components/schemas/SiteCustomizationSettings');
    for (const [type, language, locale] of [
      ['basic', undefined, 'en'],
      ['ultimate', 'fr', 'fr'],
      ['premium', 'ko', 'en'],
    ] as const) {
      const { site } = state({ type, title: 'Handbook' });
      const c = siteCustomization(site, language);
      expect(describeErrors(validate(c) ? [] : validate.errors)).toEqual([]);
      expect(c).toMatchObject({ title: 'Handbook', internationalization: { locale }, advancedCustomization: { enabled: type !== 'basic' } });
    }
  });
});
