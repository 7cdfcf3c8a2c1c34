/** Spaces: the containers of pages and files. */
import { z } from 'zod';
import { defineOp, id, listOf, pageQuery, Permissions, Role, Timestamp, Urls } from './op.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const EDIT_MODES = ['live', 'locked'] as const;
/** Language codes the sandbox accepts (the service's full list is not shown). */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'ja', 'zh', 'pt-br', 'nl', 'no', 'ru', 'ko', 'sv'] as const;

export const MergeRules = z.union([
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

export const Space = z.object({
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
export type Space = z.infer<typeof Space>;

const org = z.object({ organizationId: id() });
const space = z.object({ spaceId: id() });

export const CreateSpaceBody = z.strictObject({
  title: spaceTitle.optional(),
  emoji: spaceEmoji.optional(),
  parent: id().optional(),
  language: z.enum(LANGUAGES).optional(),
  editMode: z.enum(EDIT_MODES).optional(),
});

export const ops = {
  createSpace: defineOp({
    id: 'createSpace', method: 'POST', path: '/orgs/{organizationId}/spaces',
    params: org, body: CreateSpaceBody, response: Space, status: 201,
  }),
  listSpaces: defineOp({
    id: 'listSpaces', method: 'GET', path: '/orgs/{organizationId}/spaces',
    params: org, query: z.object(pageQuery), response: listOf(Space), paginated: true,
  }),
  getSpace: defineOp({
    id: 'getSpace', method: 'GET', path: '/spaces/{spaceId}',
    params: space, query: z.object({ shareKey: z.string().max(256).optional() }), response: Space,
  }),
};
