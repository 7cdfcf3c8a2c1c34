/**
 * API objects of content (Revision, Page, File) built from a `ContentScope`: which revision, of
 * which space, seen from which app URL. A change request builds its own scope and gets the same
 * views under its own URLs.
 */
import { createHash } from 'node:crypto';
import type { File, Page, Revision } from '../../contract/content.js';
import { markdownToDocument } from '../lib/markdown.js';
import type { DocumentOf } from '../markdown-reads.js';
import type { RevisionRec, SpaceRec, Store } from '../store.js';
import { resolveDocumentRefs } from './git-refs.js';
import { blobOf, contentOf, kindOf, messageOf, revisionOf, type FileRec, type PageLayout, type PageRec, type RevisionContent } from './model.js';

export interface ContentScope {
  store: Store;
  /** `http://host:port` of the sandbox. */
  baseUrl: string;
  org: string;
  space: string;
  rev: RevisionRec;
  content: RevisionContent;
  /** App URL of this content: the space's, or a change request's. */
  appUrl: string;
  /** The space's published content (its active revision), whose revision has published URLs; a change request's is not. */
  published?: boolean;
  /** The change request with this id as the caller sees it (a merge revision's `mergedFrom`), if it still exists. */
  changeRequest?: (id: string) => Revision['mergedFrom'];
}

/** The scope of a space's active revision. */
export function spaceScope(store: Store, baseUrl: string, space: SpaceRec): ContentScope {
  const rev = revisionOf(store, space.revision);
  return { store, baseUrl, org: space.org, space: space.id, rev, content: contentOf(rev), appUrl: `${baseUrl}/app/s/${space.id}`, published: true };
}

export interface ViewOptions {
  /** Include git metadata (default true). */
  metadata?: boolean;
  /** Compute computed pages (default true). */
  computed?: boolean;
}

export interface PageBodyOptions extends ViewOptions {
  /** The form of page bodies: a Document, or Markdown (the default of lists and revisions). */
  format?: 'document' | 'markdown';
  /** Replace variable expressions (`{{ space.vars.name }}`, `{{ page.vars.name }}`) by their values. */
  evaluated?: boolean;
  /** With `format: 'document'`, how a body is read as a document (a request's: read beforehand, `withDocuments`). */
  documentOf?: DocumentOf;
}

/**
 * Layout options a page has unless it sets them (it shows its title, description, table of
 * contents, outline, pagination, metadata, tags, actions and anchors; no cover: the sandbox's pages
 * have none).
 */
const DEFAULT_LAYOUT: Required<PageLayout> = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export function revisionView(scope: ContentScope, opts: ViewOptions = {}): Revision {
  const { rev, content } = scope;
  const kind = kindOf(rev);
  const mergedFrom = kind.type === 'merge' ? scope.changeRequest?.(kind.mergedFrom) : undefined;
  const visibility = scope.store.data.spaces.get(scope.space)?.visibility;
  const published = `${scope.baseUrl}/p/${scope.space}`;
  return {
    object: 'revision',
    id: rev.id,
    parents: rev.parents,
    pages: pageTree(scope, content.pages, '', opts),
    files: content.files.map((f) => fileView(scope, f, opts)),
    reusableContents: [],
    // The sandbox has no tags: none is defined in any revision.
    tags: [],
    variables: content.variables,
    createdAt: rev.createdAt,
    ...(opts.metadata !== false
      ? {
          git: {
            oid: sha1(JSON.stringify(rev.content ?? null)),
            message: messageOf(rev),
            createdByService: true,
            createdByGitBook: true,
            ref: 'refs/heads/main',
          },
        }
      : {}),
    // Published URLs only for a space's active revision: `published` unless the space is private, `public` when it is public.
    urls: {
      app: scope.appUrl,
      ...(scope.published && visibility !== 'private' ? { published } : {}),
      ...(scope.published && visibility === 'public' ? { public: published } : {}),
    },
    // A merge revision whose change request is gone (it cannot be: they go with their space) would show as edits.
    ...(kind.type === 'merge' && mergedFrom
      ? { type: 'merge' as const, mergedFrom }
      : { type: kind.type === 'update' ? ('update' as const) : ('edits' as const) }),
  };
}

/** The page tree below `parentPath`, each page with its body (Markdown unless `format` says otherwise). */
export function pageTree(scope: ContentScope, pages: readonly PageRec[], parentPath: string, opts: PageBodyOptions = {}): Page[] {
  return pages.map((p) => pageView(scope, p, parentPath ? `${parentPath}/${p.slug}` : p.slug, opts));
}

/**
 * One page with its subtree, each as a page of the official document's kinds:
 * - a page with a body is a document page (`type: "document"`, `kind: "sheet"`), with its body as
 *   `markdown`, or as a `document` with `format: "document"`, its `layout` (defaults filled in) and its
 *   `tags` (none: the sandbox has no tags);
 * - a computed page, with `computed: false`, is a computed page (`type: "computed"`) showing its
 *   source; computed (the default), it is the document page it computes to. (The document would mark
 *   a generated page with `computed` and `computedSeed`, but its schema cannot accept them together:
 *   the other branch of its oneOf takes any page. So the generated page carries its body only.)
 */
export function pageView(scope: ContentScope, page: PageRec, path: string, opts: PageBodyOptions = {}): Page {
  const common = {
    object: 'page' as const,
    id: page.id,
    title: page.title,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    slug: page.slug,
    path,
    ...(page.description !== undefined ? { description: page.description } : {}),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    hidden: page.hidden ?? false,
    ...(page.variables ? { variables: page.variables } : {}),
    ...(opts.metadata !== false ? { git: { oid: sha1(page.markdown), path: page.pages.length > 0 ? `${path}/README.md` : `${path}.md` } } : {}),
    urls: { app: `${scope.appUrl}/${path}` },
  };
  const pages = pageTree(scope, page.pages, path, opts);
  // A group (its pages under a heading) and a link (to a URL or a page) have no body.
  if (page.type === 'group') return { ...common, kind: 'group', type: 'group', pages };
  if (page.type === 'link') {
    const { slug: _slug, path: _path, urls: _urls, git: _git, ...rest } = common;
    return {
      ...rest,
      kind: 'link',
      type: 'link',
      target: page.target ?? { kind: 'url', url: '' },
      ...(page.target?.kind === 'url' ? { href: page.target.url } : {}),
    };
  }
  const markdown = pageMarkdown(scope.content, page, opts);
  if (markdown === undefined) return { ...common, type: 'computed', computed: computedSourceView(page.computed!), pages };
  return {
    ...common,
    kind: 'sheet',
    type: 'document',
    layout: { ...DEFAULT_LAYOUT, ...page.layout },
    tags: [],
    ...(opts.format === 'document'
      ? { document: resolveDocumentRefs((opts.documentOf ?? markdownToDocument)(markdown), scope.content, page, path) }
      : { markdown }),
    pages,
  };
}

/** A computed page's source as the document describes it: an OpenAPI reference says whether it documents the models. */
function computedSourceView(source: NonNullable<PageRec['computed']>): NonNullable<Page['computed']> {
  if (source.type !== 'builtin:openapi') return source;
  return { ...source, props: { models: false, ...source.props } };
}

/**
 * The Markdown a page shows: its own, or for a computed page the computed content (undefined
 * with `computed: false`); variables replaced when `evaluated`.
 */
export function pageMarkdown(content: RevisionContent, page: PageRec, opts: PageBodyOptions = {}): string | undefined {
  let markdown = page.markdown;
  if (page.computed) {
    if (opts.computed === false) return undefined;
    markdown = computeMarkdown(page.computed);
  }
  if (!opts.evaluated) return markdown;
  return markdown.replace(
    /\{\{\s*(space|page)\.vars\.([\w-]+)\s*\}\}/g,
    (_, where: string, name: string) => (where === 'page' ? page.variables?.[name] : content.variables[name]) ?? '',
  );
}

/** The sandbox computes one kind of content: the outline of an API reference generated from an OpenAPI spec. */
function computeMarkdown(source: NonNullable<PageRec['computed']>): string {
  if (source.type !== 'builtin:openapi') return '';
  const ref = (source.dependencies?.spec as { ref?: { spec?: string } } | undefined)?.ref;
  const spec = ref?.spec ?? 'unknown';
  return `# API reference\n\nThis page is generated from the OpenAPI specification \`${spec}\` of the organization.\n`;
}

/**
 * A file; its `downloadURL` is a `data:` URL of its bytes (the sandbox serves nothing outside
 * `/v1`, and imported files are bounded in size).
 */
export function fileView(scope: ContentScope, file: FileRec, opts: ViewOptions = {}): File {
  return {
    object: 'file',
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: `data:${file.contentType};base64,${blobOf(scope.store, file.blob)}`,
    size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    ...(opts.metadata !== false ? { git: { oid: file.blob.slice(0, 40), path: `.gitbook/assets/${file.name}` } } : {}),
  };
}
