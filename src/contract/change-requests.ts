/**
 * Change requests: proposed edits to a space, numbered per space, reviewed and merged.
 * Their content (`{cr}/content...`), update, merge and pdf build on these schemas.
 */
import { z } from 'zod';
import { ApplyTemplateBody, Document } from './content.js';
import { defineOp, id, listOf, pageQuery, Permissions, Timestamp, Urls } from './op.js';
import { User } from './orgs.js';

export const CR_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CR_STATUSES)[number];
/** The statuses a PATCH may set: `merged` comes only from a merge, and a merged change request is final. */
export const CR_EDIT_STATUSES = ['draft', 'open', 'archived'] as const;

export const crSubject = z.string().max(100);

export const ChangeRequest = z.object({
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
});
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

const org = z.object({ organizationId: id() });
const space = z.object({ spaceId: id() });
/** `changeRequestId` is the change request's id or its number in the space. */
export const crParams = z.object({ spaceId: id(), changeRequestId: id() });

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
};
