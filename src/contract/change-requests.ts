/**
 * Change requests: proposed edits to a space, numbered per space, reviewed and merged. Each has its
 * own line of revisions (`{cr}/content...`, read with the space content's schemas), brought up to
 * date with the space (`update`), merged into it (`merge`), and exported as a PDF (`pdf`).
 */
import { z } from 'zod';
import {
  Backlink,
  contentQuery,
  Document,
  File,
  ImportContentBody,
  ImportContentResult,
  LinkList,
  Page,
  pageReadQuery,
  Revision,
  TemplateRef,
} from './content.js';
import { defineOp, listOf, pageQuery, pathId, Permissions, qBool, Timestamp, Urls } from './op.js';
import { User } from './orgs.js';

export const CR_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CR_STATUSES)[number];
/** The statuses a PATCH may set: `merged` comes only from a merge, and a merged change request is final. */
export const CR_EDIT_STATUSES = ['draft', 'open', 'archived'] as const;

export const crSubject = z.string().max(100);

/** An external link of a change request (`ref` a URL), as PATCH sets it: `id` names one to keep. */
export const ChangeRequestLinkInput = z.object({
  id: z.string().optional(),
  ref: z.object({ kind: z.literal('url'), url: z.string() }),
  title: z.string().max(128).optional(),
});
export const CR_LINKS_MAX = 10;

export const ChangeRequest = z.lazy(() =>
  z.object({
    object: z.literal('change-request'),
    id: z.string(),
    number: z.number(),
    status: z.enum(CR_STATUSES),
    subject: z.string(),
    description: Document.optional(),
    createdBy: User.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    space: z.string(),
    revision: z.string(),
    revisionInitial: z.string(),
    revisionMergedAncestor: z.string().optional(),
    revisionMerged: z.string().optional(),
    /** Who merged it and when (a merged change request). */
    mergedBy: User.optional(),
    mergedAt: Timestamp.optional(),
    comments: z.number(),
    links: z.array(ChangeRequestLinkInput.extend({ id: z.string() })).optional(),
    outdated: z.boolean(),
    conversationsIssuesCluster: z.string().optional(),
    urls: Urls,
    permissions: Permissions,
  }),
);
export type ChangeRequest = z.infer<typeof ChangeRequest>;

/**
 * `subject` (at most 100 characters: the seed's limit, and the document's ChangeRequestSubject),
 * `template` (applied to its content), `agentTaskId` (the seed's: an agent task to implement),
 * `conversationsIssuesCluster` (a sandbox extension: the issues cluster it addresses, which the list
 * filters on); further free properties are allowed (and ignored), as the document says.
 */
export const CreateChangeRequestBody = z.looseObject({
  subject: crSubject.optional(),
  agentTaskId: z.string().optional(),
  template: TemplateRef.optional(),
  conversationsIssuesCluster: z.string().optional(),
});
export type CreateChangeRequestBody = z.output<typeof CreateChangeRequestBody>;
/** Fields the document's body does not name are ignored (it allows them). */
export const UpdateChangeRequestBody = z.object({
  subject: crSubject.optional(),
  description: Document.optional(),
  /** The change request's external links, as a whole: those not given are removed. */
  links: z.array(ChangeRequestLinkInput).max(CR_LINKS_MAX).optional(),
  status: z.enum(CR_EDIT_STATUSES).optional(),
});
export type UpdateChangeRequestBody = z.output<typeof UpdateChangeRequestBody>;

/** How the lists are ordered, most recent first: by last update (the default) or by creation. */
export const CR_ORDERS = ['updatedAt', 'createdAt'] as const;

/** The organization list's `finding`: without (`none`, the default) or with (`all`) change requests from triage. */
export const CR_FINDINGS = ['none', 'all'] as const;

/** Filters both lists take (user ids, as the document: any string), and their order. */
const listFilters = {
  ...pageQuery,
  orderBy: z.enum(CR_ORDERS).optional(),
  creator: z.string().optional(),
  contributor: z.string().optional(),
  requestedReviewer: z.string().optional(),
  /** The seed's filter (the document does not have it). */
  conversationsIssuesCluster: z.string().optional(),
  /** Only those linked to this site topic: the sandbox has no topics, so none (docs/compatibility.md). */
  topic: z.string().optional(),
};
/** The space's list: one `status` (default `open`). */
export const ChangeRequestListQuery = z.object({ ...listFilters, status: z.enum(CR_STATUSES).optional() });
/**
 * The organization's list: `status` is one status or several (the parameter repeated), default
 * `open`; none at all (an empty list) is the default too.
 */
export const OrgChangeRequestListQuery = z.object({
  ...listFilters,
  /** Only the change requests of this space. */
  space: z.string().optional(),
  /** Only those of the spaces this site publishes (its site spaces). */
  site: z.string().optional(),
  /** Only those a style guide check run opened: the sandbox runs none, so none (docs/compatibility.md). */
  styleguideRun: z.string().optional(),
  /** Whether change requests from triage are listed (default `none`): the sandbox has no triage, so either lists the same. */
  finding: z.enum(CR_FINDINGS).optional(),
  status: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(CR_STATUSES))).optional(),
});
export interface ChangeRequestFilters {
  orderBy?: (typeof CR_ORDERS)[number];
  /** The organization's list: one space only. */
  space?: string;
  /** The organization's list: the spaces of one site only. */
  site?: string;
  /** A site topic, a style guide run: the sandbox has neither, so a list filtered by one is empty. */
  topic?: string;
  styleguideRun?: string;
  finding?: (typeof CR_FINDINGS)[number];
  /** The statuses listed (default: open). */
  status?: ChangeRequestStatus | ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  conversationsIssuesCluster?: string;
}

/** `merge` and `update` succeeded; `conflicts`: the space and the change request changed the same pages, nothing changed. */
export const MERGE_RESULTS = ['merge', 'update', 'conflicts'] as const;
/** A page both sides changed (the sandbox names them; the interface document shows only `revision` and `result`). */
export const ConflictingPage = z.lazy(() => z.object({ id: z.string(), title: z.string(), path: z.string() }));
export type ConflictingPage = z.infer<typeof ConflictingPage>;
export const MergeResult = z.lazy(() =>
  z.object({
    /** The new revision; with `conflicts`, the revision that stays (the space's, or the change request's). */
    revision: z.string(),
    result: z.enum(MERGE_RESULTS),
    conflicts: z.array(ConflictingPage).optional(),
  }),
);
export type MergeResult = z.infer<typeof MergeResult>;

/**
 * `page` alone: that page and its subpages; with `only=true`: that page alone; neither: every page.
 * (`only=true` without `page` is the sandbox's 400, in the handler: the document accepts the query.)
 */
export const PdfQuery = z.object({ only: qBool().optional(), page: z.string().optional() });
export const PdfResult = z.lazy(() => z.object({ url: z.string() }));

export const CrPageQuery = z.object(pageReadQuery);

const org = z.object({ organizationId: pathId() });
const space = z.object({ spaceId: pathId() });
/** `changeRequestId` is the change request's id or its number in the space. */
export const crParams = z.object({ spaceId: pathId(), changeRequestId: pathId() });
const crPage = crParams.extend({ pageId: pathId() });
const crFile = crParams.extend({ fileId: pathId() });
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

export const ops = {
  listChangeRequests: defineOp({
    id: 'listChangeRequests',
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests',
    params: space,
    query: ChangeRequestListQuery,
    response: listOf(ChangeRequest),
    paginated: true,
  }),
  createChangeRequest: defineOp({
    id: 'createChangeRequest',
    method: 'POST',
    path: '/spaces/{spaceId}/change-requests',
    params: space,
    body: CreateChangeRequestBody,
    response: ChangeRequest,
    status: 201,
  }),
  getChangeRequest: defineOp({
    id: 'getChangeRequest',
    method: 'GET',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    params: crParams,
    response: ChangeRequest,
  }),
  updateChangeRequest: defineOp({
    id: 'updateChangeRequest',
    method: 'PATCH',
    path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    params: crParams,
    body: UpdateChangeRequestBody,
    response: ChangeRequest,
  }),
  listOrganizationChangeRequests: defineOp({
    id: 'listOrganizationChangeRequests',
    method: 'GET',
    path: '/orgs/{organizationId}/change-requests',
    params: org,
    query: OrgChangeRequestListQuery,
    response: listOf(ChangeRequest),
    paginated: true,
  }),
  mergeChangeRequest: defineOp({
    id: 'mergeChangeRequest',
    method: 'POST',
    path: `${CR}/merge`,
    params: crParams,
    response: MergeResult,
    status: 200,
  }),
  updateChangeRequestFromSpace: defineOp({
    id: 'updateChangeRequestFromSpace',
    method: 'POST',
    path: `${CR}/update`,
    params: crParams,
    response: MergeResult,
    status: 200,
  }),
  getChangeRequestPdf: defineOp({
    id: 'getChangeRequestPdf',
    method: 'GET',
    path: `${CR}/pdf`,
    params: crParams,
    query: PdfQuery,
    response: PdfResult,
  }),
  getChangeRequestContent: defineOp({
    id: 'getChangeRequestContent',
    method: 'GET',
    path: `${CR}/content`,
    params: crParams,
    query: z.object(contentQuery),
    response: Revision,
  }),
  importChangeRequestContent: defineOp({
    id: 'importChangeRequestContent',
    method: 'POST',
    path: `${CR}/content/import`,
    params: crParams,
    body: ImportContentBody,
    response: ImportContentResult,
    status: 201,
  }),
  listChangeRequestPages: defineOp({
    id: 'listChangeRequestPages',
    method: 'GET',
    path: `${CR}/content/pages`,
    params: crParams,
    query: z.object(contentQuery),
    response: z.object({ pages: z.array(Page) }),
  }),
  listChangeRequestFiles: defineOp({
    id: 'listChangeRequestFiles',
    method: 'GET',
    path: `${CR}/content/files`,
    params: crParams,
    query: z.object({ ...pageQuery, ...contentQuery }),
    response: listOf(File),
    paginated: true,
  }),
  getChangeRequestFile: defineOp({
    id: 'getChangeRequestFile',
    method: 'GET',
    path: `${CR}/content/files/{fileId}`,
    params: crFile,
    query: z.object(contentQuery),
    response: File,
  }),
  listChangeRequestFileBacklinks: defineOp({
    id: 'listChangeRequestFileBacklinks',
    method: 'GET',
    path: `${CR}/content/files/{fileId}/backlinks`,
    params: crFile,
    query: z.object(pageQuery),
    response: listOf(Backlink),
    paginated: true,
  }),
  getChangeRequestPage: defineOp({
    id: 'getChangeRequestPage',
    method: 'GET',
    path: `${CR}/content/page/{pageId}`,
    params: crPage,
    query: CrPageQuery,
    response: Page,
  }),
  listChangeRequestPageLinks: defineOp({
    id: 'listChangeRequestPageLinks',
    method: 'GET',
    path: `${CR}/content/page/{pageId}/links`,
    params: crPage,
    query: z.object(pageQuery),
    response: LinkList,
    paginated: true,
  }),
};
