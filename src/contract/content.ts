/**
 * Space content: revisions, pages, files, links, backlinks and search, plus the import and template
 * bodies. Change requests reuse these schemas for their own `{cr}/content...` endpoints.
 */
import { z } from 'zod';
import { defineOp, id, listOf, listShape, pageQuery, pathId, qBool, Timestamp, Urls } from './op.js';

/** A git object id and where the object lives in a synced repository (omitted with `metadata=false`). */
const GitInfo = z.lazy(() => z.object({ oid: z.string(), path: z.string() }));

/** A reference to a file, as a template parameter or a page cover names it. */
export const FileRef = z.object({ kind: z.literal('file'), file: id(), space: id().optional() });

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

export const PageLayout = z.lazy(() => z.object({
  width: z.string().optional(),
  cover: z.boolean().optional(),
  coverSize: z.string().optional(),
  title: z.boolean().optional(),
  description: z.boolean().optional(),
  tableOfContents: z.boolean().optional(),
  outline: z.boolean().optional(),
  pagination: z.boolean().optional(),
  metadata: z.boolean().optional(),
}));

export const ComputedSource = z.lazy(() => z.object({
  type: z.string(),
  dependencies: z.record(z.string(), z.unknown()).optional(),
  props: z.record(z.string(), z.unknown()).optional(),
}));

/** A block node of a Document; its `nodes` (blocks, texts, inlines) are kept as they are. */
export const BlockNode = z.lazy(() => z.object({
  object: z.literal('block'),
  type: z.string(),
  key: z.string().optional(),
  isVoid: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  nodes: z.array(z.unknown()),
}));

/** A Document of block nodes (the rich-text form of a page). */
export const Document = z.lazy(() => z.object({
  object: z.literal('document'),
  data: z.looseObject({ schemaVersion: z.number().optional() }),
  nodes: z.array(BlockNode),
  meta: z.looseObject({ token: z.string().optional() }).optional(),
}));

export const Page = z.object({
  object: z.literal('page').optional(),
  id: z.string(),
  title: z.string(),
  emoji: z.string().optional(),
  icon: z.string().optional(),
  type: z.string(),
  slug: z.string(),
  path: z.string(),
  description: z.string().optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
  hidden: z.boolean().optional(),
  noIndex: z.boolean().optional(),
  layout: PageLayout.optional(),
  variables: z.record(z.string(), z.string()).optional(),
  computed: ComputedSource.optional(),
  git: GitInfo.optional(),
  urls: Urls,
  /** With `format=markdown`. */
  markdown: z.string().optional(),
  /** With `format=document`. */
  document: Document.optional(),
  get pages(): z.ZodOptional<z.ZodArray<typeof Page>> {
    return z.array(Page).optional();
  },
});
export type Page = z.infer<typeof Page>;

export const File = z.lazy(() => z.object({
  object: z.literal('file').optional(),
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  downloadURL: z.string(),
  size: z.number(),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
  git: GitInfo.optional(),
}));
export type File = z.infer<typeof File>;

export const Revision = z.lazy(() => z.object({
  object: z.literal('revision'),
  id: z.string(),
  parents: z.array(z.string()),
  pages: z.array(Page),
  files: z.array(File),
  reusableContents: z.array(z.object({ id: z.string(), title: z.string(), git: GitInfo.optional() })),
  variables: z.record(z.string(), z.string()),
  createdAt: Timestamp,
  git: z.object({
    oid: z.string(),
    message: z.string(),
    createdByService: z.boolean(),
    url: z.string().optional(),
    ref: z.string().optional(),
  }).optional(),
  urls: Urls,
  type: z.string(),
}));
export type Revision = z.infer<typeof Revision>;

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LinkItem = z.lazy(() => z.object({
  status: z.enum(LINK_STATUSES),
  relation: z.string(),
  targetReference: ContentRef,
  locationReferences: z.array(ContentRef),
}));
export type LinkItem = z.infer<typeof LinkItem>;
export const LinkList = z.lazy(() => z.object({
  ...listShape(LinkItem),
  stats: z.object({ total: z.number(), broken: z.object({ total: z.number(), changeRequest: z.number() }) }),
}));
export type LinkList = z.infer<typeof LinkList>;

/** Where a page or file is referenced from. */
export const Backlink = z.lazy(() => z.looseObject({
  kind: z.string(),
  organization: z.string(),
  space: z.string(),
  versionContext: z.object({ type: z.literal('revision'), revision: z.string() }),
  page: z.string().optional(),
  file: z.string().optional(),
}));
export type Backlink = z.infer<typeof Backlink>;

export const SearchSection = z.lazy(() => z.object({ id: z.string(), title: z.string(), path: z.string(), body: z.string(), urls: Urls }));
export const SearchResult = z.lazy(() => z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  sections: z.array(SearchSection),
  urls: Urls,
}));
export type SearchResult = z.infer<typeof SearchResult>;

export const IMPORT_SOURCES = ['website'] as const;
/** An absolute http(s) URL: nothing else can be fetched. */
export const httpUrl = z.string().max(2048).refine((v) => {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}, 'must be an absolute http:// or https:// URL');

export const ImportContentBody = z.strictObject({ url: httpUrl, source: z.enum(IMPORT_SOURCES) });
export const ImportContentResult = z.lazy(() => z.object({ revision: z.string(), importedResources: z.number(), totalResources: z.number() }));
export type ImportContentResult = z.infer<typeof ImportContentResult>;

/** The template catalog is the service's: any id is accepted here, and the service names the known ones. */
export const ApplyTemplateBody = z.strictObject({
  id: z.string().min(1).max(100),
  params: z.strictObject({ contentRefs: z.record(z.string().min(1).max(100), FileRef).optional() }).optional(),
});

export const PAGE_FORMATS = ['document', 'markdown'] as const;
export const SEARCH_QUERY_MAX = 512;

const space = z.object({ spaceId: pathId() });
const spacePage = z.object({ spaceId: pathId(), pageId: pathId() });
const spaceFile = z.object({ spaceId: pathId(), fileId: pathId() });
/** `metadata` (default true: git metadata included) and `computed` (default true: computed pages filled). */
export const contentQuery = { metadata: qBool().optional(), computed: qBool().optional() };
export const pageReadQuery = {
  ...contentQuery,
  format: z.enum(PAGE_FORMATS).optional(),
  evaluated: qBool().optional(),
};
export const linkQuery = { ...pageQuery, status: z.enum(LINK_STATUSES).optional() };

export const ops = {
  getSpaceContent: defineOp({
    id: 'getSpaceContent', method: 'GET', path: '/spaces/{spaceId}/content',
    params: space, query: z.object(contentQuery), response: Revision,
  }),
  importSpaceContent: defineOp({
    id: 'importSpaceContent', method: 'POST', path: '/spaces/{spaceId}/content/import',
    params: space, body: ImportContentBody, response: ImportContentResult, status: 201,
  }),
  applySpaceTemplate: defineOp({
    id: 'applySpaceTemplate', method: 'POST', path: '/spaces/{spaceId}/content/template',
    params: space, body: ApplyTemplateBody, status: 204,
  }),
  listSpacePages: defineOp({
    id: 'listSpacePages', method: 'GET', path: '/spaces/{spaceId}/content/pages',
    params: space, query: z.object(contentQuery), response: z.object({ pages: z.array(Page) }),
  }),
  listSpaceFiles: defineOp({
    id: 'listSpaceFiles', method: 'GET', path: '/spaces/{spaceId}/content/files',
    params: space, query: z.object({ ...pageQuery, ...contentQuery }), response: listOf(File), paginated: true,
  }),
  getSpaceFile: defineOp({
    id: 'getSpaceFile', method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}',
    params: spaceFile, query: z.object(contentQuery), response: File,
  }),
  listSpaceFileBacklinks: defineOp({
    id: 'listSpaceFileBacklinks', method: 'GET', path: '/spaces/{spaceId}/content/files/{fileId}/backlinks',
    params: spaceFile, query: z.object(pageQuery), response: listOf(Backlink), paginated: true,
  }),
  getSpacePage: defineOp({
    id: 'getSpacePage', method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}',
    params: spacePage, query: z.object(pageReadQuery), response: Page,
  }),
  listSpacePageLinks: defineOp({
    id: 'listSpacePageLinks', method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}/links',
    params: spacePage, query: z.object(linkQuery), response: LinkList, paginated: true,
  }),
  listSpacePageBacklinks: defineOp({
    id: 'listSpacePageBacklinks', method: 'GET', path: '/spaces/{spaceId}/content/page/{pageId}/backlinks',
    params: spacePage, query: z.object(pageQuery), response: listOf(Backlink), paginated: true,
  }),
  listSpaceLinks: defineOp({
    id: 'listSpaceLinks', method: 'GET', path: '/spaces/{spaceId}/links',
    params: space, query: z.object(linkQuery), response: LinkList, paginated: true,
  }),
  searchSpaceContent: defineOp({
    id: 'searchSpaceContent', method: 'GET', path: '/spaces/{spaceId}/search',
    params: space,
    query: z.object({ ...pageQuery, query: z.string().min(1).max(SEARCH_QUERY_MAX) }),
    response: listOf(SearchResult), paginated: true,
  }),
};
