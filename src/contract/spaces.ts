/** Spaces: the containers of pages and files. */
import { z } from 'zod';
import { defineOp, id, listOf, pageQuery, pathId, Permissions, positionOf, qBool, Role, Timestamp, Urls } from './op.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const EDIT_MODES = ['live', 'locked'] as const;
/** Language codes the sandbox accepts (the service's full list is not shown). */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'ja', 'zh', 'pt-br', 'nl', 'no', 'ru', 'ko', 'sv'] as const;

export const MergeRules = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inherit') }),
  z.object({
    type: z.literal('rules'),
    rules: z.array(
      z.object({ rule: z.literal('require_specific_reviewers'), users: z.array(id()).min(1).max(100) }),
    ).max(10),
  }),
]);
export type MergeRules = z.infer<typeof MergeRules>;

export const spaceTitle = z.string().max(50);
export const spaceEmoji = z.string().max(50);

/** The fields of a Space (a listed space adds its trash information). */
const spaceShape = () => ({
  object: z.literal('space'),
  id: z.string(),
  title: z.string(),
  emoji: z.string(),
  visibility: z.enum(VISIBILITIES),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Timestamp.optional(),
  editMode: z.enum(EDIT_MODES).optional(),
  mergeRules: MergeRules,
  urls: Urls,
  organization: z.string(),
  parent: z.string().optional(),
  language: z.string().optional(),
  revision: z.string(),
  defaultLevel: Role.nullable(),
  comments: z.number(),
  changeRequests: z.number(),
  changeRequestsOpen: z.number(),
  changeRequestsDraft: z.number(),
  permissions: Permissions,
});
export const Space = z.lazy(() => z.object(spaceShape()));
export type Space = z.infer<typeof Space>;

const org = z.object({ organizationId: pathId() });
const space = z.object({ spaceId: pathId() });

export const CreateSpaceBody = z.strictObject({
  title: spaceTitle.optional(),
  emoji: spaceEmoji.optional(),
  parent: id().optional(),
  language: z.enum(LANGUAGES).optional(),
  editMode: z.enum(EDIT_MODES).optional(),
});

/**
 * The further one-of group of the service's PATCH body is not shown, so this body is not strict:
 * fields it does not name are ignored rather than refused.
 */
export const UpdateSpaceBody = z.object({
  editMode: z.enum(EDIT_MODES).optional(),
  title: spaceTitle.optional(),
  defaultLevel: Role.nullable().optional(),
  language: z.enum(LANGUAGES).optional(),
  mergeRules: MergeRules.optional(),
  emoji: spaceEmoji.optional(),
});
export const MoveSpaceBody = z.strictObject({
  parent: id().nullable().optional(),
  position: positionOf('space', 'collection').optional(),
});
export const TransferSpaceBody = z.strictObject({
  organization: id(),
  /** A collection of the target organization; omitted: the target organization's root. */
  parent: id().optional(),
});

/** The retention of a deleted space (service-api.md, Limits). */
export const RETENTION_DAYS = 7;

/**
 * Sandbox extension: with `deleted=true` the organization's list holds its deleted spaces that can
 * still be restored, each with `trash` (the service has no list of deleted spaces).
 */
export const TrashInfo = z.lazy(() => z.object({ restorableUntil: Timestamp, secondsLeft: z.number() }));
export const ListedSpace = z.lazy(() => z.object({ ...spaceShape(), trash: TrashInfo.optional() }));
export type ListedSpace = z.infer<typeof ListedSpace>;

export const ops = {
  createSpace: defineOp({
    id: 'createSpace', method: 'POST', path: '/orgs/{organizationId}/spaces',
    params: org, body: CreateSpaceBody, response: Space, status: 201,
  }),
  listSpaces: defineOp({
    id: 'listSpaces', method: 'GET', path: '/orgs/{organizationId}/spaces',
    params: org, query: z.object({ ...pageQuery, deleted: qBool().optional() }),
    response: listOf(ListedSpace), paginated: true,
  }),
  getSpace: defineOp({
    id: 'getSpace', method: 'GET', path: '/spaces/{spaceId}',
    params: space, query: z.object({ shareKey: z.string().max(256).optional() }), response: Space,
  }),
  updateSpace: defineOp({
    id: 'updateSpace', method: 'PATCH', path: '/spaces/{spaceId}', params: space, body: UpdateSpaceBody, response: Space,
  }),
  deleteSpace: defineOp({
    id: 'deleteSpace', method: 'DELETE', path: '/spaces/{spaceId}', params: space, status: 204,
  }),
  restoreSpace: defineOp({
    id: 'restoreSpace', method: 'POST', path: '/spaces/{spaceId}/restore', params: space, response: Space, status: 200,
  }),
  duplicateSpace: defineOp({
    id: 'duplicateSpace', method: 'POST', path: '/spaces/{spaceId}/duplicate', params: space, response: Space, status: 201,
  }),
  moveSpace: defineOp({
    id: 'moveSpace', method: 'POST', path: '/spaces/{spaceId}/move', params: space, body: MoveSpaceBody, response: Space, status: 200,
  }),
  transferSpace: defineOp({
    id: 'transferSpace', method: 'POST', path: '/spaces/{spaceId}/transfer',
    params: space, body: TransferSpaceBody, response: Space, status: 200,
  }),
};
