/** How sites and their structure show in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import type { Site, SiteSection, SiteSectionGroup, SiteSpace } from '../../contract/sites.js';

export const siteFields: Column<Site>[] = [
  'id',
  'title',
  'type',
  'visibility',
  'published',
  'siteSpaces',
  'basename',
  { key: 'proxy', value: (s) => s.proxy?.origin },
  'agentsContext',
  'defaultLevel',
  { key: 'adaptiveContent', value: (s) => s.adaptiveContent?.enabled },
  { key: 'features', value: (s) => s.features.map((f) => f.id).join(',') },
  'createdAt',
  { key: 'url', value: (s) => s.urls.published },
];

export const siteColumns: Column<Site>[] = withExtras(
  ['id', 'title', 'visibility', 'published', 'siteSpaces', { key: 'url', value: (s) => s.urls.published }],
  siteFields,
);

export const sectionColumns: Column<SiteSection>[] = [
  'id',
  'title',
  'path',
  'default',
  { key: 'group', value: (s) => s.sectionGroup },
  { key: 'siteSpaces', value: (s) => s.siteSpaces.map((ss) => ss.id).join(',') },
  'icon',
  'condition',
  'draft',
];
export const sectionFields: Column<SiteSection>[] = [
  'id',
  'title',
  'path',
  'default',
  'draft',
  { key: 'group', value: (s) => s.sectionGroup },
  'icon',
  'description',
  'condition',
  { key: 'siteSpaces', value: (s) => s.siteSpaces.map((ss) => ss.id).join(',') },
  { key: 'url', value: (s) => s.urls.published },
];

const childIds = (g: SiteSectionGroup) => g.children.map((c) => c.id).join(',');
export const groupColumns: Column<SiteSectionGroup>[] = [
  'id',
  'title',
  { key: 'parent', value: (g) => g.sectionGroup },
  { key: 'children', value: childIds },
  'icon',
  'draft',
];

export const siteSpaceColumns: Column<SiteSpace>[] = [
  'id',
  'path',
  'section',
  { key: 'space', value: (ss) => ss.space.id },
  'title',
  'default',
  'hidden',
  'condition',
  'draft',
];
export const siteSpaceFields: Column<SiteSpace>[] = [...siteSpaceColumns, 'pageId', { key: 'url', value: (ss) => ss.urls.published }];
