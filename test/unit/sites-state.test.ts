import { slugify } from '../../src/server/lib/slug.js';
import { describe, expect, it } from 'vitest';
import { settle, sitePathOf, siteSpacesOf, uniquePath, walk, type SectionRec, type SiteRec, type SitesState } from '../../src/server/sites/state.js';

function state(): { st: SitesState; site: SiteRec } {
  const site: SiteRec = {
    id: 'site',
    org: 'o',
    type: 'basic',
    title: 'S',
    visibility: 'public',
    published: false,
    createdAt: '',
    adaptiveContent: false,
    agentsContext: 'included',
    shareKey: 'k',
    structure: [],
    siteSpaces: [],
  };
  const st: SitesState = { sites: new Map([[site.id, site]]), sections: new Map(), groups: new Map(), siteSpaces: new Map() };
  return { st, site };
}

function section(st: SitesState, id: string, siteSpaces: string[], group?: string): SectionRec {
  const s: SectionRec = { id, site: 'site', title: id, path: id, siteSpaces, ...(group ? { group } : {}) };
  st.sections.set(id, s);
  for (const ss of siteSpaces) st.siteSpaces.set(ss, { id: ss, site: 'site', section: id, space: 'sp', path: ss, hidden: false });
  return s;
}

describe('slugs and paths', () => {
  it('makes URL segments from titles, with a fallback for titles without letters or digits', () => {
    expect(sitePathOf('  Getting Started — Guide!  ', 'x')).toBe('getting-started-guide');
    expect(sitePathOf('Café Übersicht', 'x')).toBe('cafe-ubersicht');
    expect(sitePathOf('👋', 'space')).toBe('space');
    expect(sitePathOf('a'.repeat(120), 'x')).toHaveLength(90);
  });

  it('makes the same segment of a title as a page slug (one slug function)', () => {
    for (const title of ['Straße & Smørrebrød', 'Ærø Łódź', 'Crème brûlée']) expect(sitePathOf(title, 'x')).toBe(slugify(title));
    expect(sitePathOf('Straße', 'x')).toBe('strasse');
  });

  it('suffixes a taken path with the first free number', () => {
    expect(uniquePath('api', new Set())).toBe('api');
    expect(uniquePath('api', new Set(['api', 'api-2']))).toBe('api-3');
  });
});

describe('the structure', () => {
  it('walks sections and groups depth first, and site spaces section by section', () => {
    const { st, site } = state();
    section(st, 's1', ['a']);
    section(st, 's2', ['b', 'c'], 'g1');
    section(st, 's3', [], 'g2');
    st.groups.set('g1', { id: 'g1', site: 'site', title: 'G1', children: ['g2', 's2'] });
    st.groups.set('g2', { id: 'g2', site: 'site', title: 'G2', group: 'g1', children: ['s3'] });
    site.structure.push('g1', 's1');
    const { sections, groups } = walk(st, site);
    expect(sections.map((s) => s.id)).toEqual(['s3', 's2', 's1']);
    expect(groups.map((g) => g.id)).toEqual(['g1', 'g2']);
    expect(siteSpacesOf(st, site).map((ss) => ss.id)).toEqual(['b', 'c', 'a']);
  });

  it('settles defaults: the first section and the first site space of each list, kept while they exist', () => {
    const { st, site } = state();
    const s1 = section(st, 's1', ['a', 'b']);
    const s2 = section(st, 's2', []);
    site.structure.push('s2', 's1');
    settle(st, site);
    expect(site.defaultSection).toBe('s2');
    expect(s1.defaultSiteSpace).toBe('a');
    expect(s2.defaultSiteSpace).toBeUndefined();

    s1.defaultSiteSpace = 'b';
    settle(st, site);
    expect(s1.defaultSiteSpace).toBe('b');
    s1.siteSpaces.splice(1, 1);
    site.structure.splice(0, 1);
    settle(st, site);
    expect(s1.defaultSiteSpace).toBe('a');
    expect(site.defaultSection).toBe('s1');

    site.structure.length = 0;
    site.siteSpaces.push('x', 'y');
    settle(st, site);
    expect(site.defaultSection).toBeUndefined();
    expect(site.defaultSiteSpace).toBe('x');
  });
});
