import { describe, expect, it } from 'vitest';
import type { PublishedSite, SiteSpace } from '../../src/contract/sites.js';
import { nodesOf, publishedTree } from '../../src/commands/sites/tree.js';

const siteSpace = (id: string, title: string, extra: Partial<SiteSpace> = {}): SiteSpace => ({
  object: 'site-space',
  id,
  path: title.toLowerCase(),
  space: {} as SiteSpace['space'],
  title,
  default: false,
  draft: false,
  hasAdvancedCustomizationFeature: false,
  urls: {},
  hidden: false,
  ...extra,
});

const profile: PublishedSite = {
  object: 'published-content-site',
  site: {
    object: 'site',
    id: 'site1',
    type: 'basic',
    appliedType: 'basic',
    title: 'Docs',
    visibility: 'public',
    defaultLevel: null,
    permissions: {},
    published: true,
    siteSpaces: 4,
    createdAt: '2026-01-01T00:00:00.000Z',
    agentsContext: 'included',
    features: [],
    urls: { published: 'http://x/s/site1' },
  },
  structure: {
    type: 'sections',
    structure: [
      {
        object: 'site-section-group',
        id: 'g1',
        title: 'Products',
        draft: false,
        sections: [],
        children: [
          {
            object: 'site-section',
            id: 's1',
            title: 'API',
            path: 'api',
            default: true,
            draft: false,
            siteSpaces: [siteSpace('a', 'V2', { default: true }), siteSpace('b', 'V1', { hidden: true, draft: true })],
            urls: {},
          },
          { object: 'site-section-group', id: 'g2', title: 'Labs', sectionGroup: 'g1', draft: true, sections: [], children: [] },
        ],
      },
      {
        object: 'site-section',
        id: 's2',
        title: 'Guides',
        path: 'guides',
        default: false,
        draft: false,
        condition: 'visitor.claims.unsigned.beta === true',
        siteSpaces: [siteSpace('c', 'Start', { default: true })],
        urls: {},
      },
    ],
  },
  customizations: { site: {}, siteSpaces: {} },
  scripts: [],
};

describe('the published tree', () => {
  it('draws sections, groups and site spaces in order, marking defaults, hidden ones, drafts and conditions', () => {
    expect(publishedTree(profile)).toBe(
      [
        'Docs  site1',
        'published · public · http://x/s/site1',
        '├─ Products/  g1',
        '│  ├─ API  /api  [default]  s1',
        '│  │  ├─ V2  /v2  [default]  a',
        '│  │  └─ V1  /v1  (hidden)  (draft)  b',
        '│  └─ Labs/  (draft)  g2',
        '└─ Guides  /guides  if visitor.claims.unsigned.beta === true  s2',
        '   └─ Start  /start  [default]  c',
        '',
      ].join('\n'),
    );
  });

  it('paints ids with the given brush, and says when nothing is published', () => {
    const empty: PublishedSite = { ...profile, site: { ...profile.site, published: false }, structure: { type: 'siteSpaces', structure: [] } };
    expect(publishedTree(empty, (s) => `<${s}>`)).toBe('Docs  <site1>\nnot published · public · http://x/s/site1\n<(nothing published yet)>\n');
  });

  it('lists every node depth first', () => {
    expect(nodesOf(profile).map((n) => n.id)).toEqual(['g1', 's1', 'a', 'b', 'g2', 's2', 'c']);
  });
});
