/**
 * Space content: revisions, pages, files, links, backlinks and search, plus the import and template
 * bodies. Change requests reuse these schemas for their own `{cr}/content...` endpoints.
 */
import { z } from 'zod';
import { defineOp, listOf, listShape, pageQuery, pathId, qBool, Timestamp, Urls } from './op.js';

/** A git object id and where the object lives in a synced repository (omitted with `metadata=false`). */
const GitInfo = z.lazy(() => z.object({ oid: z.string(), path: z.string() }));

/**
 * A reference to content, as a template's `params.contentRefs` takes it: any kind of the official
 * document's ContentRef (the sandbox's templates then say which kinds they use).
 */
export const ContentRefInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), file: z.string(), space: z.string().optional() }),
  z.object({ kind: z.literal('url'), url: z.string() }),
  z.object({ kind: z.literal('page'), page: z.string(), space: z.string().optional() }),
  z.object({ kind: z.literal('anchor'), anchor: z.string(), space: z.string().optional(), page: z.string().optional() }),
  z.object({ kind: z.literal('user'), user: z.string() }),
  z.object({ kind: z.literal('collection'), collection: z.string() }),
  z.object({ kind: z.literal('space'), space: z.string() }),
  z.object({ kind: z.literal('reusable-content'), reusableContent: z.string(), space: z.string().optional() }),
  z.object({ kind: z.literal('tag'), tag: z.string(), space: z.string().optional() }),
  z.object({ kind: z.literal('openapi'), spec: z.string() }),
]);
export type ContentRefInput = z.infer<typeof ContentRefInput>;

/** What a link points at, or where it is: a page, a file, an anchor in a page, or a URL. */
export const ContentRef = z.looseObject({
  kind: z.string(),
  page: z.string().optional(),
  file: z.string().optional(),
  anchor: z.string().optional(),
  url: z.string().optional(),
  space: z.string().optional(),
});
export type ContentRef = z.infer<typeof ContentRef>;

/** How a page shows (every option, as the official document's RevisionPageLayoutOptions). */
export const PageLayout = z.lazy(() =>
  z.object({
    width: z.enum(['default', 'wide']),
    cover: z.boolean(),
    coverSize: z.enum(['hero', 'full', 'background']),
    coverMask: z.enum(['none', 'radial']),
    title: z.boolean(),
    description: z.boolean(),
    tableOfContents: z.boolean(),
    outline: z.boolean(),
    pagination: z.boolean(),
    metadata: z.boolean(),
    tags: z.boolean(),
    actions: z.boolean(),
    anchors: z.boolean(),
  }),
);

export const ComputedSource = z.lazy(() =>
  z.object({
    type: z.string(),
    dependencies: z.record(z.string(), z.unknown()).optional(),
    props: z.record(z.string(), z.unknown()).optional(),
  }),
);

/**
 * A block node of a Document; its `nodes` (blocks, texts, inlines), `fragments` (a table's cells) and
 * `meta` are kept as they are.
 */
export const BlockNode = z.lazy(() =>
  z.object({
    object: z.literal('block'),
    type: z.string(),
    key: z.string().optional(),
    isVoid: z.boolean().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    nodes: z.array(z.unknown()),
    fragments: z.array(z.unknown()).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  }),
);

/**
 * A Document of block nodes (the rich-text form of a page, a change request's description).
 * `data.schemaVersion` may be left out: the document is then of the latest schema version.
 */
export const Document = z.lazy(() =>
  z.object({
    object: z.literal('document'),
    data: z.looseObject({ schemaVersion: z.number().int().optional() }),
    nodes: z.array(BlockNode),
    meta: z.looseObject({ token: z.string().optional() }).optional(),
  }),
);

/**
 * A page of a revision, of the kinds of the official document's RevisionPage:
 * - `type: "document"` (`kind: "sheet"`): a page with a body, as `markdown` or as a `document`
 *   (exactly one of them), its `layout` and `tags`;
 * - `type: "computed"`: a page whose content is computed from `computed` (e.g. an OpenAPI
 *   reference), as shown with `computed=false`; computed (the default), it is a document page;
 * - `type: "link"` and `type: "group"`, which the sandbox does not make but a service sends: a link
 *   page has no `slug`, `path` or `urls`, only its `target` (and maybe `href`); a group holds pages.
 */
export const Page = z.object({
  object: z.literal('page').optional(),
  id: z.string(),
  title: z.string(),
  kind: z.enum(['sheet', 'link', 'group']).optional(),
  emoji: z.string().optional(),
  icon: z.string().optional(),
  type: z.enum(['document', 'computed', 'link', 'group']),
  /** Not on a link page. */
  slug: z.string().optional(),
  /** Not on a link page. */
  path: z.string().optional(),
  /** A link page's: where it leads. */
  target: ContentRef.optional(),
  href: z.string().optional(),
  description: z.string().optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  layout: PageLayout.optional(),
  tags: z
    .array(z.object({ tag: z.object({ kind: z.literal('tag'), tag: z.string(), space: z.string().optional() }), primary: z.boolean().optional() }))
    .optional(),
  variables: z.record(z.string(), z.string()).optional(),
  computed: ComputedSource.optional(),
  git: GitInfo.optional(),
  /** Not on a link page. */
  urls: Urls.optional(),
  /** A document page's body as Markdown (lists and revisions; a page read with `format=markdown`). */
  markdown: z.string().optional(),
  /** A document page's body as a Document (a page read with `format=document`, the default). */
  document: Document.optional(),
  get pages(): z.ZodOptional<z.ZodArray<typeof Page>> {
    return z.array(Page).optional();
  },
});
export type Page = z.infer<typeof Page>;

export const File = z.lazy(() =>
  z.object({
    object: z.literal('file').optional(),
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    downloadURL: z.string(),
    size: z.number(),
    dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
    git: GitInfo.optional(),
  }),
);
export type File = z.infer<typeof File>;

export const Revision = z.lazy(() =>
  z.object({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()),
    pages: z.array(Page),
    files: z.array(File),
    reusableContents: z.array(z.object({ id: z.string(), title: z.string(), git: GitInfo.optional() })),
    /** The tags defined in the revision (the sandbox has none). */
    tags: z.array(z.object({ slug: z.string(), label: z.string(), color: z.string() })),
    variables: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    git: z
      .object({
        oid: z.string(),
        message: z.string(),
        /** The seed's name of the official document's `createdByGitBook` (both are sent, with one value). */
        createdByService: z.boolean(),
        createdByGitBook: z.boolean(),
        url: z.string().optional(),
        ref: z.string().optional(),
      })
      .optional(),
    urls: Urls,
    /** `edits`; `merge` (made by merging `mergedFrom`); `update` (a change request updated from its space). */
    type: z.enum(['edits', 'merge', 'update']),
    /** The change request merged (a `merge` revision), as a ChangeRequest. */
    mergedFrom: z.looseObject({ object: z.literal('change-request'), id: z.string() }).optional(),
  }),
);
export type Revision = z.infer<typeof Revision>;

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LinkItem = z.lazy(() =>
  z.object({
    status: z.enum(LINK_STATUSES),
    relation: z.string(),
    targetReference: ContentRef,
    locationReferences: z.array(ContentRef),
  }),
);
export type LinkItem = z.infer<typeof LinkItem>;
export const LinkList = z.lazy(() =>
  z.object({
    ...listShape(LinkItem),
    stats: z.object({ total: z.number(), broken: z.object({ total: z.number(), changeRequest: z.number() }) }),
  }),
);
export type LinkList = z.infer<typeof LinkList>;

/** Where a page or file is referenced from. */
export const Backlink = z.lazy(() =>
  z.looseObject({
    kind: z.string(),
    organization: z.string(),
    space: z.string(),
    versionContext: z.object({ type: z.literal('revision'), revision: z.string() }),
    page: z.string().optional(),
    file: z.string().optional(),
  }),
);
export type Backlink = z.infer<typeof Backlink>;

/** A matching section of a page; `score` ranks the sections of a result (higher is better). */
export const SearchSection = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    path: z.string(),
    score: z.number().min(0),
    body: z.string(),
    urls: Urls,
  }),
);
/**
 * A matching page: `score` its relevance (higher is better, unbounded; the results come best first),
 * `rank` its 1-based position among all the results (kept across pages of the list), `ancestors`
 * the titles of the pages above it (top level first), `description` the page's (or empty).
 */
export const SearchResult = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    path: z.string(),
    score: z.number().min(0),
    rank: z.number().int().min(1),
    sections: z.array(SearchSection),
    ancestors: z.array(z.object({ title: z.string() })),
    urls: Urls,
  }),
);
export type SearchResult = z.infer<typeof SearchResult>;

export const IMPORT_SOURCES = ['website'] as const;
/** An absolute http(s) URL: nothing else can be fetched. */
export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      return /^https?:$/.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an absolute http:// or https:// URL');

export const ImportContentBody = z.strictObject({ url: httpUrl, source: z.enum(IMPORT_SOURCES) });
export const ImportContentResult = z.lazy(() => z.object({ revision: z.string(), importedResources: z.number(), totalResources: z.number() }));
export type ImportContentResult = z.infer<typeof ImportContentResult>;

/**
 * A template and its parameters (the official document's ApplySpaceTemplate). The template catalog is
 * the service's: any id is accepted here, and the service names the known ones; the references a
 * template takes are the template's (the sandbox's say which).
 */
export const TemplateRef = z.object({
  id: z.string(),
  params: z.object({ contentRefs: z.record(z.string(), ContentRefInput).optional() }).optional(),
});
/** `changeRequestId`: apply the template to that change request's content instead of the space's. */
export const ApplyTemplateBody = TemplateRef.extend({ changeRequestId: z.string().optional() });

export const PAGE_FORMATS = ['document', 'markdown'] as const;
export const SEARCH_QUERY_MAX = 512;

const space = z.object({ spaceId: pathId() });
const spacePage = z.object({ spaceId: pathId(), pageId: pathId() });
const spaceFile = z.object({ spaceId: pathId(), fileId: pathId() });
/** `metadata` (default true: git metadata included) and `computed` (default true: computed pages filled). */
export const contentQuery = { metadata: qBool().optional(), computed: qBool().optional() };
/** A boolean query parameter that also takes one named mode (`evaluated=deterministic-only`). */
export function qBoolOr<M extends string>(mode: M) {
  return z.enum(['true', 'false', mode] as [string, ...string[]]).transform((v): boolean | M => (v === 'true' ? true : v === 'false' ? false : mode));
}
/**
 * How a page read as Markdown writes its references to content (the document's
 * `format.markdown.refs`): `relative` (the default) as links relative to the page, `stable` as refs
 * holding the identifiers. The sandbox writes links as they were written in either case
 * (docs/compatibility.md, Input rules).
 */
export const MARKDOWN_REFS = ['relative', 'stable'] as const;
/**
 * A page read: `format` (with `format.markdown.refs`), `evaluated` (`true`, `false` or
 * `deterministic-only`), `dereferenced` (`true`, `false` or `reusable-contents`), with `metadata` and
 * `computed`.
 */
export const pageReadQuery = {
  ...contentQuery,
  format: z.enum(PAGE_FORMATS).optional(),
  'format.markdown.refs': z.enum(MARKDOWN_REFS).optional(),
  evaluated: qBoolOr('deterministic-only').optional(),
  dereferenced: qBoolOr('reusable-contents').optional(),
};
export const linkQuery = { ...pageQuery, status: z.enum(LINK_STATUSES).optional() };

export const ops = {
  getSpaceContent: defineOp({
    id: 'getSpaceContent',
    method: 'GET',
    path: '/spaces/{spaceId}/content',
    params: space,
    query: z.object(contentQuery),
    response: Revision,
    cacheable: true,
  }),
  importSpaceContent: defineOp({
    id: 'importSpaceContent',
    method: 'POST',
    path: '/spaces/{spaceId}/content/import',
    params: space,
    body: ImportContentBody,
    response: ImportContentResult,
    status: 201,
  }),
  applySpaceTemplate: defineOp({
    id: 'applySpaceTemplate',
    method: 'POST',
    path: '/spaces/{spaceId}/content/template',
    params: space,
    body: ApplyTemplateBody,
    status: 204,
  }),
  listSpacePages: defineOp({
    id: 'listSpacePages',
    method: 'GET',
    path: '/spaces/{spaceId}/content/pages',
    params: space,
    query: z.object(contentQuery),
    response: z.object({ pages: z.array(Page) }),
    cacheable: true,
  }),
  listSpaceFiles: defineOp({
    id: 'listSpaceFiles',
    method: 'GET',
    path: '/spaces/{spaceId}/content/files',
    params: space,
    query: z.object({ ...pageQuery, ...contentQuery }),
    response: listOf(File),
    paginated: true,
  }),
  getSpaceFile: defineOp({
    id: 'getSpaceFile',
    method: 'GET',
    path: '/spaces/{spaceId}/content/files/{fileId}',
    params: spaceFile,
    query: z.object(contentQuery),
    response: File,
  }),
  listSpaceFileBacklinks: defineOp({
    id: 'listSpaceFileBacklinks',
    method: 'GET',
    path: '/spaces/{spaceId}/content/files/{fileId}/backlinks',
    params: spaceFile,
    query: z.object(pageQuery),
    response: listOf(Backlink),
    paginated: true,
  }),
  getSpacePage: defineOp({
    id: 'getSpacePage',
    method: 'GET',
    path: '/spaces/{spaceId}/content/page/{pageId}',
    params: spacePage,
    query: z.object(pageReadQuery),
    response: Page,
    cacheable: true,
  }),
  listSpacePageLinks: defineOp({
    id: 'listSpacePageLinks',
    method: 'GET',
    path: '/spaces/{spaceId}/content/page/{pageId}/links',
    params: spacePage,
    query: z.object(linkQuery),
    response: LinkList,
    paginated: true,
  }),
  listSpacePageBacklinks: defineOp({
    id: 'listSpacePageBacklinks',
    method: 'GET',
    path: '/spaces/{spaceId}/content/page/{pageId}/backlinks',
    params: spacePage,
    query: z.object(pageQuery),
    response: listOf(Backlink),
    paginated: true,
  }),
  listSpaceLinks: defineOp({
    id: 'listSpaceLinks',
    method: 'GET',
    path: '/spaces/{spaceId}/links',
    params: space,
    query: z.object(linkQuery),
    response: LinkList,
    paginated: true,
  }),
  searchSpaceContent: defineOp({
    id: 'searchSpaceContent',
    method: 'GET',
    path: '/spaces/{spaceId}/search',
    params: space,
    query: z.object({ ...pageQuery, query: z.string().max(SEARCH_QUERY_MAX) }),
    response: listOf(SearchResult),
    paginated: true,
  }),
};
