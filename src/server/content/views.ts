/**
 * API objects of content (Revision, Page, File) built from a `ContentScope`: which revision, of
 * which space, seen from which app URL. A change request builds its own scope and gets the same
 * views under its own URLs.
 */
import { createHash } from 'node:crypto';
import type { File, Page, Revision } from '../../contract/content.js';
import { markdownToDocument } from '../lib/markdown.js';
import type { RevisionRec, SpaceRec, Store } from '../store.js';
import { blobOf, contentOf, messageOf, revisionOf, type FileRec, type PageRec, type RevisionContent } from './model.js';

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
}

/** The scope of a space's active revision. */
export function spaceScope(store: Store, baseUrl: string, space: SpaceRec): ContentScope {
  const rev = revisionOf(store, space.revision);
  return { store, baseUrl, org: space.org, space: space.id, rev, content: contentOf(rev), appUrl: `${baseUrl}/app/s/${space.id}` };
}

export interface ViewOptions {
  /** Include git metadata (default true). */
  metadata?: boolean;
  /** Compute computed pages (default true). */
  computed?: boolean;
}

export interface PageBodyOptions extends ViewOptions {
  format?: 'document' | 'markdown';
  /** Replace variable expressions (`{{ space.vars.name }}`, `{{ page.vars.name }}`) by their values. */
  evaluated?: boolean;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export function revisionView(scope: ContentScope, opts: ViewOptions = {}): Revision {
  const { rev, content } = scope;
  return {
    object: 'revision', id: rev.id, parents: rev.parents,
    pages: pageTree(scope, content.pages, '', opts),
    files: content.files.map((f) => fileView(scope, f, opts)),
    reusableContents: [],
    variables: content.variables,
    createdAt: rev.createdAt,
    ...(opts.metadata !== false
      ? { git: { oid: sha1(JSON.stringify(rev.content ?? null)), message: messageOf(rev), createdByService: true, ref: 'refs/heads/main' } }
      : {}),
    urls: { app: scope.appUrl, published: `${scope.baseUrl}/p/${scope.space}`, public: `${scope.baseUrl}/p/${scope.space}` },
    type: rev.type,
  };
}

/** The page tree below `parentPath`, without page bodies. */
export function pageTree(scope: ContentScope, pages: readonly PageRec[], parentPath: string, opts: ViewOptions = {}): Page[] {
  return pages.map((p) => pageView(scope, p, parentPath ? `${parentPath}/${p.slug}` : p.slug, opts));
}

/** One page with its subtree; its body (Markdown or Document) when `format` is given. */
export function pageView(scope: ContentScope, page: PageRec, path: string, opts: PageBodyOptions = {}): Page {
  const view: Page = {
    object: 'page', id: page.id, title: page.title,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    type: 'document', slug: page.slug, path,
    ...(page.description !== undefined ? { description: page.description } : {}),
    createdAt: page.createdAt, updatedAt: page.updatedAt,
    hidden: page.hidden ?? false,
    ...(page.layout ? { layout: page.layout } : {}),
    ...(page.variables ? { variables: page.variables } : {}),
    ...(page.computed ? { computed: page.computed } : {}),
    ...(opts.metadata !== false
      ? { git: { oid: sha1(page.markdown), path: page.pages.length > 0 ? `${path}/README.md` : `${path}.md` } }
      : {}),
    urls: { app: `${scope.appUrl}/${path}` },
  };
  if (opts.format) {
    const markdown = pageMarkdown(scope.content, page, opts);
    if (markdown !== undefined) {
      if (opts.format === 'markdown') view.markdown = markdown;
      else view.document = markdownToDocument(markdown);
    }
  }
  view.pages = pageTree(scope, page.pages, path, { metadata: opts.metadata, computed: opts.computed });
  return view;
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
  return markdown.replace(/\{\{\s*(space|page)\.vars\.([\w-]+)\s*\}\}/g, (_, where: string, name: string) =>
    (where === 'page' ? page.variables?.[name] : content.variables[name]) ?? '',
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
    object: 'file', id: file.id, name: file.name, contentType: file.contentType,
    downloadURL: `data:${file.contentType};base64,${blobOf(scope.store, file.blob)}`, size: file.size,
    ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    ...(opts.metadata !== false ? { git: { oid: file.blob.slice(0, 40), path: `.gitbook/assets/${file.name}` } } : {}),
  };
}
