/** How content shows in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import type { File, Page, Revision, SearchResult } from '../../contract/content.js';
import type { PageRow } from './lookup.js';

const countPages = (pages: readonly Page[]): number => pages.reduce((n, p) => n + 1 + countPages(p.pages ?? []), 0);
const dimensions = (f: File) => (f.dimensions ? `${f.dimensions.width}x${f.dimensions.height}` : '');

export const revisionFields: Column<Revision>[] = [
  'id',
  { key: 'parents', value: (r) => r.parents.join(', ') },
  'createdAt',
  { key: 'message', value: (r) => r.git?.message },
  { key: 'pages', value: (r) => countPages(r.pages) },
  { key: 'files', value: (r) => r.files.length },
  { key: 'variables', value: (r) => Object.entries(r.variables).map(([k, v]) => `${k}=${v}`).join(', ') },
  'type',
  { key: 'mergedFrom', value: (r) => (r.mergedFrom ? `#${String((r.mergedFrom as { number?: unknown }).number)}` : undefined) },
  { key: 'url', value: (r) => r.urls.app },
];

export const pageColumns: Column<PageRow>[] = ['id', 'path', 'title', 'hidden'];
export const pageFields: Column<Page>[] = [
  'id', 'title', 'path', 'slug', 'type', 'emoji', 'description', 'hidden', 'createdAt', 'updatedAt',
  { key: 'subpages', value: (p) => p.pages?.length ?? 0 },
  { key: 'computed', value: (p) => p.computed?.type },
  { key: 'url', value: (p) => p.urls.app },
];

export const fileFields: Column<File>[] = [
  'id', 'name', 'contentType', 'size', { key: 'dimensions', value: dimensions }, { key: 'gitPath', value: (f) => f.git?.path },
];
export const fileColumns: Column<File>[] = withExtras(['id', 'name', 'contentType', 'size', { key: 'dimensions', value: dimensions }], fileFields);

export const searchColumns: Column<SearchResult>[] = [
  'id', 'path', 'title',
  { key: 'sections', value: (r) => r.sections.map((s) => s.title).join('; ') },
  { key: 'url', value: (r) => r.urls.app },
];
