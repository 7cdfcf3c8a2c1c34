/** Spaces: the containers of pages and files. */
import { z } from 'zod';
import { TemplateRef } from './content.js';
import { DefaultLevel, defineOp, id, listOf, pageQuery, pathId, Permissions, positionOf, qBool, Timestamp, Urls } from './op.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export const EDIT_MODES = ['live', 'locked'] as const;
/** Content languages (the official document's TranslationLanguage). */
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

/** Merge rules that name users (who must review, one of whom must review, or who may bypass the rules). */
export const USER_MERGE_RULES = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
/** Merge rules about the change request itself (the official document's list). */
export const PLAIN_MERGE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
] as const;

/** One merge rule (the official document's MergeRulesConfiguration items). */
export const MergeRule = z.discriminatedUnion('rule', [
  ...USER_MERGE_RULES.map((rule) => z.object({ rule: z.literal(rule), users: z.array(z.string()).max(100) })),
  ...PLAIN_MERGE_RULES.map((rule) => z.object({ rule: z.literal(rule) })),
  z.object({ rule: z.literal('custom'), expression: z.string().max(1024), message: z.string().max(1024).optional() }),
] as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
export type MergeRule =
  | { rule: (typeof USER_MERGE_RULES)[number]; users: string[] }
  | { rule: (typeof PLAIN_MERGE_RULES)[number] }
  | { rule: 'custom'; expression: string; message?: string };

/** A space's merge rules: the organization's (`inherit`), its own list, or none at all. */
export const MergeRules = z.discriminatedUnion('type', [
  z.object({ type: z.literal('inherit') }),
  z.object({ type: z.literal('rules'), rules: z.array(MergeRule).max(20) }),
  z.object({ type: z.literal('none') }),
]) as unknown as z.ZodType<MergeRules>;
export type MergeRules = { type: 'inherit' } | { type: 'rules'; rules: MergeRule[] } | { type: 'none' };

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
  defaultLevel: DefaultLevel,
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
  /** A completely empty space (no page): what the sandbox makes anyway. */
  empty: z.literal(true).optional(),
  /** A space made from a template (its pages, and the files it references). */
  template: TemplateRef.optional(),
  /** Content from a computed source (an integration): the document has it; the sandbox refuses it by name. */
  computedSource: z.record(z.string(), z.unknown()).optional(),
});

/** An icon: the URL of an image (the official document's URL: a URI of at most 2048 characters). */
export const iconUrl = z.url().max(2048);

/**
 * The official document's body: the fields, plus one of an emoji, an icon (an image URL), or neither
 * (`null` removes them). Fields it does not name are ignored rather than refused.
 */
export const UpdateSpaceBody = z
  .object({
    editMode: z.enum(EDIT_MODES).optional(),
    title: spaceTitle.optional(),
    defaultLevel: DefaultLevel.optional(),
    language: z.enum(LANGUAGES).optional(),
    mergeRules: MergeRules.optional(),
    emoji: spaceEmoji.nullable().optional(),
    icon: iconUrl.nullable().optional(),
  })
  .refine((b) => !(typeof b.emoji === 'string' && typeof b.icon === 'string'), { message: 'give an emoji or an icon, not both', path: ['icon'] });
export type UpdateSpaceBody = z.output<typeof UpdateSpaceBody>;
export const MoveSpaceBody = z.strictObject({
  parent: id().nullable().optional(),
  position: positionOf('space', 'collection').optional(),
});
export type MoveSpaceBody = z.output<typeof MoveSpaceBody>;
export const TransferSpaceBody = z.strictObject({
  organization: id(),
  /** A collection of the target organization; omitted: the target organization's root. */
  parent: id().optional(),
});
export type TransferSpaceBody = z.output<typeof TransferSpaceBody>;

/** How long a deleted space can be restored before it is purged for good. */
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
    id: 'createSpace',
    method: 'POST',
    path: '/orgs/{organizationId}/spaces',
    params: org,
    body: CreateSpaceBody,
    response: Space,
    status: 201,
  }),
  listSpaces: defineOp({
    id: 'listSpaces',
    method: 'GET',
    path: '/orgs/{organizationId}/spaces',
    params: org,
    query: z.object({ ...pageQuery, deleted: qBool().optional() }),
    response: listOf(ListedSpace),
    paginated: true,
  }),
  getSpace: defineOp({
    id: 'getSpace',
    method: 'GET',
    path: '/spaces/{spaceId}',
    params: space,
    query: z.object({ shareKey: z.string().optional() }),
    response: Space,
    cacheable: true,
    visitors: true,
  }),
  updateSpace: defineOp({
    id: 'updateSpace',
    method: 'PATCH',
    path: '/spaces/{spaceId}',
    params: space,
    body: UpdateSpaceBody,
    response: Space,
  }),
  deleteSpace: defineOp({
    id: 'deleteSpace',
    method: 'DELETE',
    path: '/spaces/{spaceId}',
    params: space,
    status: 204,
  }),
  restoreSpace: defineOp({
    id: 'restoreSpace',
    method: 'POST',
    path: '/spaces/{spaceId}/restore',
    params: space,
    response: Space,
    status: 200,
  }),
  duplicateSpace: defineOp({
    id: 'duplicateSpace',
    method: 'POST',
    path: '/spaces/{spaceId}/duplicate',
    params: space,
    response: Space,
    status: 201,
  }),
  moveSpace: defineOp({
    id: 'moveSpace',
    method: 'POST',
    path: '/spaces/{spaceId}/move',
    params: space,
    body: MoveSpaceBody,
    response: Space,
    status: 200,
  }),
  transferSpace: defineOp({
    id: 'transferSpace',
    method: 'POST',
    path: '/spaces/{spaceId}/transfer',
    params: space,
    body: TransferSpaceBody,
    response: Space,
    status: 200,
  }),
};
