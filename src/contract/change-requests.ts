/**
 * Change requests: proposed edits to a space, numbered per space, reviewed and merged. Each has its
 * own line of revisions (`{cr}/content...`, read with the space content's schemas), brought up to
 * date with the space (`update`), merged into it (`merge`), and exported as a PDF (`pdf`).
 */
import { z } from 'zod';
import {
  ApplyTemplateBody, Backlink, contentQuery, Document, File, ImportContentBody, ImportContentResult, LinkList,
  Page, PAGE_FORMATS, Revision,
} from './content.js';
import { defineOp, id, listOf, pageQuery, pathId, Permissions, qBool, Timestamp, Urls } from './op.js';
import { User } from './orgs.js';

export const CR_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CR_STATUSES)[number];
/** The statuses a PATCH may set: `merged` comes only from a merge, and a merged change request is final. */
export const CR_EDIT_STATUSES = ['draft', 'open', 'archived'] as const;

export const crSubject = z.string().max(100);

export const ChangeRequest = z.lazy(() => z.object({
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
  comments: z.number(),
  outdated: z.boolean(),
  conversationsIssuesCluster: z.string().optional(),
  urls: Urls,
  permissions: Permissions,
}));
export type ChangeRequest = z.infer<typeof ChangeRequest>;

/** `subject`, an agent task, a template, an issues cluster; further free properties are allowed (and ignored). */
export const CreateChangeRequestBody = z.looseObject({
  subject: crSubject.optional(),
  agentTaskId: id().optional(),
  template: ApplyTemplateBody.optional(),
  conversationsIssuesCluster: id().optional(),
});
export const UpdateChangeRequestBody = z.strictObject({
  subject: crSubject.optional(),
  description: Document.optional(),
  status: z.enum(CR_EDIT_STATUSES).optional(),
});

/** The list filters, for a space and for the organization. `status` defaults to `open`. */
export const ChangeRequestListQuery = z.object({
  ...pageQuery,
  status: z.enum(CR_STATUSES).optional(),
  creator: id().optional(),
  contributor: id().optional(),
  requestedReviewer: id().optional(),
  conversationsIssuesCluster: id().optional(),
});
export type ChangeRequestFilters = z.output<typeof ChangeRequestListQuery>;

/** `merge` and `update` succeeded; `conflicts`: the space and the change request changed the same pages, nothing changed. */
export const MERGE_RESULTS = ['merge', 'update', 'conflicts'] as const;
/** A page both sides changed (the sandbox names them; the interface document shows only `revision` and `result`). */
export const ConflictingPage = z.lazy(() => z.object({ id: z.string(), title: z.string(), path: z.string() }));
export type ConflictingPage = z.infer<typeof ConflictingPage>;
export const MergeResult = z.lazy(() => z.object({
  /** The new revision; with `conflicts`, the revision that stays (the space's, or the change request's). */
  revision: z.string(),
  result: z.enum(MERGE_RESULTS),
  conflicts: z.array(ConflictingPage).optional(),
}));
export type MergeResult = z.infer<typeof MergeResult>;

/** `page` alone: that page and its subpages; with `only=true`: that page alone; neither: every page. */
export const PdfQuery = z.object({ only: qBool().optional(), page: id().optional() })
  .refine((q) => !q.only || q.page !== undefined, { message: 'only=true needs a page', path: ['page'] });
export const PdfResult = z.lazy(() => z.object({ url: z.string() }));

/** A boolean query parameter that also takes one named mode (`evaluated=deterministic-only`). */
function qBoolOr<M extends string>(mode: M) {
  return z.enum(['true', 'false', mode] as [string, ...string[]])
    .transform((v): boolean | M => (v === 'true' ? true : v === 'false' ? false : mode));
}
export const CrPageQuery = z.object({
  ...contentQuery,
  format: z.enum(PAGE_FORMATS).optional(),
  evaluated: qBoolOr('deterministic-only').optional(),
  dereferenced: qBoolOr('reusable-contents').optional(),
});

const org = z.object({ organizationId: pathId() });
const space = z.object({ spaceId: pathId() });
/** `changeRequestId` is the change request's id or its number in the space. */
export const crParams = z.object({ spaceId: pathId(), changeRequestId: pathId() });
const crPage = crParams.extend({ pageId: pathId() });
const crFile = crParams.extend({ fileId: pathId() });
const CR = '/spaces/{spaceId}/change-requests/{changeRequestId}';

export const ops = {
  listChangeRequests: defineOp({
    id: 'listChangeRequests', method: 'GET', path: '/spaces/{spaceId}/change-requests',
    params: space, query: ChangeRequestListQuery, response: listOf(ChangeRequest), paginated: true,
  }),
  createChangeRequest: defineOp({
    id: 'createChangeRequest', method: 'POST', path: '/spaces/{spaceId}/change-requests',
    params: space, body: CreateChangeRequestBody, response: ChangeRequest, status: 201,
  }),
  getChangeRequest: defineOp({
    id: 'getChangeRequest', method: 'GET', path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    params: crParams, response: ChangeRequest,
  }),
  updateChangeRequest: defineOp({
    id: 'updateChangeRequest', method: 'PATCH', path: '/spaces/{spaceId}/change-requests/{changeRequestId}',
    params: crParams, body: UpdateChangeRequestBody, response: ChangeRequest,
  }),
  listOrganizationChangeRequests: defineOp({
    id: 'listOrganizationChangeRequests', method: 'GET', path: '/orgs/{organizationId}/change-requests',
    params: org, query: ChangeRequestListQuery, response: listOf(ChangeRequest), paginated: true,
  }),
  mergeChangeRequest: defineOp({
    id: 'mergeChangeRequest', method: 'POST', path: `${CR}/merge`, params: crParams, response: MergeResult, status: 200,
  }),
  updateChangeRequestFromSpace: defineOp({
    id: 'updateChangeRequestFromSpace', method: 'POST', path: `${CR}/update`, params: crParams, response: MergeResult, status: 200,
  }),
  getChangeRequestPdf: defineOp({
    id: 'getChangeRequestPdf', method: 'GET', path: `${CR}/pdf`, params: crParams, query: PdfQuery, response: PdfResult,
  }),
  getChangeRequestContent: defineOp({
    id: 'getChangeRequestContent', method: 'GET', path: `${CR}/content`,
    params: crParams, query: z.object(contentQuery), response: Revision,
  }),
  importChangeRequestContent: defineOp({
    id: 'importChangeRequestContent', method: 'POST', path: `${CR}/content/import`,
    params: crParams, body: ImportContentBody, response: ImportContentResult, status: 201,
  }),
  listChangeRequestPages: defineOp({
    id: 'listChangeRequestPages', method: 'GET', path: `${CR}/content/pages`,
    params: crParams, query: z.object(contentQuery), response: z.object({ pages: z.array(Page) }),
  }),
  listChangeRequestFiles: defineOp({
    id: 'listChangeRequestFiles', method: 'GET', path: `${CR}/content/files`,
    params: crParams, query: z.object({ ...pageQuery, ...contentQuery }), response: listOf(File), paginated: true,
  }),
  getChangeRequestFile: defineOp({
    id: 'getChangeRequestFile', method: 'GET', path: `${CR}/content/files/{fileId}`,
    params: crFile, query: z.object(contentQuery), response: File,
  }),
  listChangeRequestFileBacklinks: defineOp({
    id: 'listChangeRequestFileBacklinks', method: 'GET', path: `${CR}/content/files/{fileId}/backlinks`,
    params: crFile, query: z.object(pageQuery), response: listOf(Backlink), paginated: true,
  }),
  getChangeRequestPage: defineOp({
    id: 'getChangeRequestPage', method: 'GET', path: `${CR}/content/page/{pageId}`,
    params: crPage, query: CrPageQuery, response: Page,
  }),
  listChangeRequestPageLinks: defineOp({
    id: 'listChangeRequestPageLinks', method: 'GET', path: `${CR}/content/page/{pageId}/links`,
    params: crPage, query: z.object(pageQuery), response: LinkList, paginated: true,
  }),
};
