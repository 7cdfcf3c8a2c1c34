/** How content shows in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import type { ContentRef, File, Page, Revision, SearchResult } from '../../contract/content.js';
import type { PageRow } from './lookup.js';

/** Page id → path, of the pages that have one (a link page has none). */
export function pathsById(pages: readonly PageRow[]): Map<string, string> {
  return new Map(pages.flatMap((p) => (p.path !== undefined ? [[p.id, p.path] as const] : [])));
}

/** A content reference as text: a page by its path (`paths`, else its id), `/path#anchor`, `file:ID`, a URL, `space:ID`. */
export function refText(ref: ContentRef, paths: Map<string, string> | undefined): string {
  const page = ref.page !== undefined ? `/${paths?.get(ref.page) ?? ref.page}` : undefined;
  switch (ref.kind) {
    case 'page':
      return page ?? '';
    case 'anchor':
      return `${page ?? ''}#${ref.anchor ?? ''}`;
    case 'file':
      return `file:${ref.file ?? ''}`;
    default: {
      const id = (ref as Record<string, unknown>)[ref.kind];
      return ref.url ?? (typeof id === 'string' ? `${ref.kind}:${id}` : JSON.stringify(ref));
    }
  }
}

/** Where a page is: `/path`, or for a link page (no path) `→ ` and its target. */
export function pageWhere(p: PageRow, paths: Map<string, string> | undefined): string {
  if (p.path !== undefined) return `/${p.path}`;
  if (p.target) return `→ ${p.href ?? refText(p.target, paths)}`;
  return p.href ? `→ ${p.href}` : '';
}

const countPages = (pages: readonly Page[]): number => pages.reduce((n, p) => n + 1 + countPages(p.pages ?? []), 0);
const dimensions = (f: File) => (f.dimensions ? `${f.dimensions.width}x${f.dimensions.height}` : '');

export const revisionFields: Column<Revision>[] = [
  'id',
  { key: 'parents', value: (r) => r.parents.join(', ') },
  'createdAt',
  { key: 'message', value: (r) => r.git?.message },
  { key: 'pages', value: (r) => countPages(r.pages) },
  { key: 'files', value: (r) => r.files.length },
  {
    key: 'variables',
    value: (r) =>
      Object.entries(r.variables)
        .map(([k, v]) => `${k}=${v}`)
        .join(', '),
  },
  'type',
  { key: 'mergedFrom', value: (r) => (r.mergedFrom ? `#${String((r.mergedFrom as { number?: unknown }).number)}` : undefined) },
  { key: 'url', value: (r) => r.urls.app },
];

export const pageColumns: Column<PageRow>[] = [
  'id',
  'path',
  'title',
  'hidden',
  { key: 'target', value: (p) => (p.target ? refText(p.target, undefined) : p.href), extra: true },
];
export const pageFields: Column<Page>[] = [
  'id',
  'title',
  'path',
  'slug',
  'type',
  'emoji',
  'description',
  'hidden',
  'createdAt',
  'updatedAt',
  { key: 'subpages', value: (p) => p.pages?.length ?? 0 },
  { key: 'computed', value: (p) => p.computed?.type },
  { key: 'target', value: (p) => (p.target ? refText(p.target, undefined) : p.href) },
  { key: 'url', value: (p) => p.urls?.app },
];

export const fileFields: Column<File>[] = [
  'id',
  'name',
  'contentType',
  'size',
  { key: 'dimensions', value: dimensions },
  { key: 'gitPath', value: (f) => f.git?.path },
];
export const fileColumns: Column<File>[] = withExtras(['id', 'name', 'contentType', 'size', { key: 'dimensions', value: dimensions }], fileFields);

export const searchColumns: Column<SearchResult>[] = [
  'id',
  'path',
  'title',
  { key: 'sections', value: (r) => r.sections.map((s) => s.title).join('; ') },
  { key: 'url', value: (r) => r.urls.app },
];
