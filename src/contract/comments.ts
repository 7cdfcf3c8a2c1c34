/**
 * Comments: two identical families, on a space (`{s}/comments...`) and on a change request
 * (`{cr}/comments...`), declared once by `commentOps` and told apart by their op-id suffix
 * (`InSpace`, `InChangeRequest`). Replies, reactions, resolution and the list of commenters.
 */
import { z } from 'zod';
import { crParams } from './change-requests.js';
import { Document } from './content.js';
import { Member, ORDERS } from './members.js';
import { defineOp, listOf, pageQuery, pathId, Permissions, Timestamp, Urls } from './op.js';
import { User } from './orgs.js';

// ---------------------------------------------------------------------------------------------
// Reactions: any text the official document allows (an emoji such as 👍, or a name such as :+1:).

/** Reactions to add or take back; an empty list changes nothing. */
const reactionList = z.array(z.string());

// ---------------------------------------------------------------------------------------------
// Resources

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export const COMMENT_STATUS_FILTERS = ['all', ...COMMENT_STATUSES] as const;
export const COMMENT_FORMATS = ['markdown', 'document'] as const;
export const COMMENT_MAX_CHARS = 65_536;

const Reaction = z.lazy(() =>
  z.object({
    emoji: z.string(),
    count: z.number(),
    users: z.array(z.object({ user: User, reactedAt: Timestamp })),
  }),
);

/** `{markdown}` by default; `{document}` (the rich-text form) with `format=document`. */
const BodyOut = z.lazy(() => z.union([z.object({ markdown: z.string() }), z.object({ document: Document })]));

const CommentTarget = z.lazy(() =>
  z.object({
    space: z.string(),
    changeRequest: z.string().optional(),
    revision: z.string().optional(),
    page: z
      .object({
        id: z.string(),
        title: z.string().optional(),
        emoji: z.string().optional(),
        path: z.string().optional(),
        outdated: z.boolean().optional(),
      })
      .optional(),
    node: z.object({ id: z.string(), preview: z.string().optional() }).optional(),
    tableCell: z.object({ record: z.string(), definition: z.string() }).optional(),
  }),
);

const resolution = {
  status: z.enum(COMMENT_STATUSES),
  resolvedAt: Timestamp.optional(),
  resolvedBy: User.optional(),
};

export const Comment = z.lazy(() =>
  z.object({
    object: z.literal('comment'),
    id: z.string(),
    postedBy: User,
    postedAt: Timestamp,
    editedAt: Timestamp.optional(),
    reactions: z.array(Reaction),
    replies: z.number(),
    repliers: z.array(z.object({ updatedAt: Timestamp, count: z.number(), user: User })),
    body: BodyOut,
    target: CommentTarget,
    urls: Urls,
    permissions: Permissions,
    ...resolution,
  }),
);
export type Comment = z.infer<typeof Comment>;

export const CommentReply = z.lazy(() =>
  z.object({
    object: z.literal('comment-reply'),
    id: z.string(),
    postedBy: User,
    postedAt: Timestamp,
    editedAt: Timestamp.optional(),
    reactions: z.array(Reaction),
    body: BodyOut,
    urls: Urls,
    permissions: Permissions,
    /** Only on replies of change-request comments that were resolved or reopened. */
    status: resolution.status.optional(),
    resolvedAt: resolution.resolvedAt,
    resolvedBy: resolution.resolvedBy,
  }),
);
export type CommentReply = z.infer<typeof CommentReply>;

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * The text of a comment or a reply, as the official document's Document: Markdown (`{markdown}`),
 * rich text (`{document}`, stored as the Markdown it reads as), or nothing (`{}`, which the sandbox
 * refuses where text is needed). Empty text and the size limit are the sandbox's checks, not the schema's.
 */
export const CommentBody = z.union([z.strictObject({ markdown: z.string() }), z.strictObject({ document: Document }), z.strictObject({})]);
export type CommentBody = z.output<typeof CommentBody>;

export const PostCommentBody = z.strictObject({
  body: CommentBody,
  node: z.string().optional(),
  page: z.string().optional(),
  tableCell: z.strictObject({ record: z.string(), definition: z.string() }).optional(),
});
export const UpdateCommentBody = z.strictObject({
  resolved: z.boolean().optional(),
  body: CommentBody.optional(),
  addedReactions: reactionList.optional(),
  removedReactions: reactionList.optional(),
});
export const PostReplyBody = z.strictObject({ body: CommentBody });
export const UpdateReplyBody = z.strictObject({
  body: CommentBody.optional(),
  addedReactions: reactionList.optional(),
  removedReactions: reactionList.optional(),
});
/** The change-request family also resolves replies. */
export const UpdateCrReplyBody = UpdateReplyBody.extend({ resolved: z.boolean().optional() });

/** `authors`: user ids, as a repeated parameter (`authors=a&authors=b`), a comma list, or both; none is no filter. */
const userList = z.preprocess(
  (v) =>
    typeof v === 'string' || Array.isArray(v)
      ? [v]
          .flat()
          .flatMap((s) => String(s).split(','))
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string()),
);

const format = { format: z.enum(COMMENT_FORMATS).optional() };
export const ListCommentsQuery = z.object({
  ...pageQuery,
  ...format,
  order: z.enum(ORDERS).optional(),
  status: z.enum(COMMENT_STATUS_FILTERS).optional(),
  targetPage: z.string().optional(),
  authors: userList.optional(),
});
export const FormatQuery = z.object(format);
export const ListRepliesQuery = z.object({ ...pageQuery, ...format });

// ---------------------------------------------------------------------------------------------
// Operations

/**
 * One family of comment operations under `base`, ids suffixed with `suffix`. `replyPostQuery`: the
 * query of a reply's post (the document gives the change request's a `format` for its answer, not
 * the space's).
 */
function commentOps<S extends z.ZodRawShape, RB extends z.ZodType, RQ extends z.ZodType>(
  base: string,
  params: z.ZodObject<S>,
  suffix: string,
  replyUpdate: RB,
  replyPostQuery: RQ,
) {
  const comment = z.object({ ...params.shape, commentId: pathId() });
  const reply = z.object({ ...comment.shape, commentReplyId: pathId() });
  const c = `${base}/comments/{commentId}`;
  return {
    listComments: defineOp({
      id: `listComments${suffix}`,
      method: 'GET',
      path: `${base}/comments`,
      params,
      query: ListCommentsQuery,
      response: listOf(Comment),
      paginated: true,
    }),
    postComment: defineOp({
      id: `postComment${suffix}`,
      method: 'POST',
      path: `${base}/comments`,
      params,
      body: PostCommentBody,
      response: Comment,
      status: 201,
    }),
    getComment: defineOp({
      id: `getComment${suffix}`,
      method: 'GET',
      path: c,
      params: comment,
      query: FormatQuery,
      response: Comment,
    }),
    updateComment: defineOp({
      id: `updateComment${suffix}`,
      method: 'PUT',
      path: c,
      params: comment,
      body: UpdateCommentBody,
      response: Comment,
    }),
    deleteComment: defineOp({
      id: `deleteComment${suffix}`,
      method: 'DELETE',
      path: c,
      params: comment,
      status: 204,
    }),
    listCommentReplies: defineOp({
      id: `listCommentReplies${suffix}`,
      method: 'GET',
      path: `${c}/replies`,
      params: comment,
      query: ListRepliesQuery,
      response: listOf(CommentReply),
      paginated: true,
    }),
    postCommentReply: defineOp({
      id: `postCommentReply${suffix}`,
      method: 'POST',
      path: `${c}/replies`,
      params: comment,
      query: replyPostQuery,
      body: PostReplyBody,
      response: CommentReply,
      status: 201,
    }),
    getCommentReply: defineOp({
      id: `getCommentReply${suffix}`,
      method: 'GET',
      path: `${c}/replies/{commentReplyId}`,
      params: reply,
      query: FormatQuery,
      response: CommentReply,
    }),
    updateCommentReply: defineOp({
      id: `updateCommentReply${suffix}`,
      method: 'PUT',
      path: `${c}/replies/{commentReplyId}`,
      params: reply,
      body: replyUpdate,
      response: CommentReply,
    }),
    deleteCommentReply: defineOp({
      id: `deleteCommentReply${suffix}`,
      method: 'DELETE',
      path: `${c}/replies/{commentReplyId}`,
      params: reply,
      status: 204,
    }),
    listCommenters: defineOp({
      id: `listCommenters${suffix}`,
      method: 'GET',
      path: `${base}/commenters`,
      params,
      query: z.object(pageQuery),
      response: listOf(Member),
      paginated: true,
    }),
  };
}

/** `{listComments: op}` + `'InSpace'` → `{listCommentsInSpace: op}`: the op-id of each operation is its key. */
export function withSuffix<T extends Record<string, unknown>, S extends string>(family: T, suffix: S) {
  return Object.fromEntries(Object.entries(family).map(([k, v]) => [k + suffix, v])) as {
    [K in keyof T & string as `${K}${S}`]: T[K];
  };
}

/** The operations of each family, by their short names (the CLI picks a family with `--cr`). */
export const spaceCommentOps = commentOps('/spaces/{spaceId}', z.object({ spaceId: pathId() }), 'InSpace', UpdateReplyBody, z.object({}).strict());
export const crCommentOps = commentOps('/spaces/{spaceId}/change-requests/{changeRequestId}', crParams, 'InChangeRequest', UpdateCrReplyBody, FormatQuery);

export const ops = {
  ...withSuffix(spaceCommentOps, 'InSpace'),
  ...withSuffix(crCommentOps, 'InChangeRequest'),
};
