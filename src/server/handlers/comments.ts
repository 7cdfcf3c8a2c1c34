/**
 * Comments, written once for both families: a thread is a space's own discussion or a change
 * request's (the model: comments/).
 */
import type { z } from 'zod';
import type { CommentBody, FormatQuery, ListCommentsQuery, PostCommentBody, UpdateCommentBody, UpdateCrReplyBody } from '../../contract/comments.js';
import { ops, withSuffix } from '../../contract/comments.js';
import {
  commentersOf,
  commentIn,
  deleteComment,
  deleteReply,
  dropSpace,
  listedComments,
  openedIn,
  postComment,
  postReply,
  replyIn,
  state,
  threadFor,
  update,
  type CommentRec,
  type Where,
} from '../comments/model.js';
import { commentView, replyView, showOf } from '../comments/views.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import { withDocuments } from '../markdown-reads.js';
import { memberView } from '../members/views.js';
import { paginate, scopeOf } from '../paginate.js';

type In<P, Q = unknown, B = unknown> = { params: P; query: Q; body: B };
type CommentParams = Where & { commentId: string };
type ReplyParams = CommentParams & { commentReplyId: string };

const shared = {
  listComments: (ctx: HandlerCtx, { params, query }: In<Where, z.output<typeof ListCommentsQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      const all = listedComments(ctx.store, thread, query);
      const scope = scopeOf('comments', thread.space.id, thread.key, query.status ?? 'all', query.order ?? 'desc', query.targetPage, query.authors);
      const page = paginate(all, query, (c) => c.id, scope);
      return { ...page, items: page.items.map((c) => commentView(ctx, thread, c, showOf(query.format, documentOf))) };
    }),

  postComment: async (ctx: HandlerCtx, { params, body }: In<Where, unknown, z.output<typeof PostCommentBody>>) => {
    const { thread, comment } = await postComment(ctx, params, body);
    return commentView(ctx, thread, comment, 'markdown');
  },

  getComment: (ctx: HandlerCtx, { params, query }: In<CommentParams, z.output<typeof FormatQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      return commentView(ctx, thread, commentIn(ctx, thread, params.commentId), showOf(query.format, documentOf));
    }),

  updateComment: async (ctx: HandlerCtx, { params, body }: In<CommentParams, unknown, z.output<typeof UpdateCommentBody>>) => {
    const { thread, post, changed } = await update(
      ctx,
      () => {
        const thread = threadFor(ctx, params);
        return { thread, post: commentIn(ctx, thread, params.commentId) };
      },
      'comment',
      body,
    );
    if (!changed) ctx.unchanged = true;
    return commentView(ctx, thread, post, 'markdown');
  },

  deleteComment: (ctx: HandlerCtx, { params }: In<CommentParams>) => {
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!deleteComment(ctx, params, params.commentId)) ctx.unchanged = true;
    return undefined;
  },

  listCommentReplies: (ctx: HandlerCtx, { params, query }: In<CommentParams, z.output<typeof FormatQuery> & { page?: string; limit?: number }>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      const c = commentIn(ctx, thread, params.commentId);
      const { replies } = state(ctx.store);
      const page = paginate(
        c.replies.map((id) => replies.get(id)!),
        query,
        (r) => r.id,
        scopeOf('comment-replies', c.id),
      );
      return { ...page, items: page.items.map((r) => replyView(ctx, thread, c, r, showOf(query.format, documentOf))) };
    }),

  /** The reply in Markdown, or as a document with `format=document` (the change request's thread: the space's takes no query). */
  postCommentReply: async (ctx: HandlerCtx, { params, query, body }: In<CommentParams, z.output<typeof FormatQuery>, { body: CommentBody }>) => {
    const { thread, comment, reply } = await postReply(ctx, params, params.commentId, body.body);
    return withDocuments((documentOf) => replyView(ctx, thread, comment, reply, showOf(query.format, documentOf)));
  },

  getCommentReply: (ctx: HandlerCtx, { params, query }: In<ReplyParams, z.output<typeof FormatQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      const c = commentIn(ctx, thread, params.commentId);
      return replyView(ctx, thread, c, replyIn(ctx, c, params.commentReplyId), showOf(query.format, documentOf));
    }),

  updateCommentReply: async (ctx: HandlerCtx, { params, body }: In<ReplyParams, unknown, z.output<typeof UpdateCrReplyBody>>) => {
    let c: CommentRec | undefined;
    const { thread, post, changed } = await update(
      ctx,
      () => {
        const thread = threadFor(ctx, params);
        c = commentIn(ctx, thread, params.commentId);
        return { thread, post: replyIn(ctx, c, params.commentReplyId) };
      },
      'reply',
      body,
    );
    if (!changed) ctx.unchanged = true;
    return replyView(ctx, thread, c!, post, 'markdown');
  },

  deleteCommentReply: (ctx: HandlerCtx, { params }: In<ReplyParams>) => {
    if (!deleteReply(ctx, params, params.commentId, params.commentReplyId)) ctx.unchanged = true;
    return undefined;
  },

  listCommenters: (ctx: HandlerCtx, { params, query }: In<Where, { page?: string; limit?: number }>) => {
    const thread = threadFor(ctx, params);
    // Those who left the organization since are not its members any more: not listed.
    const members = commentersOf(ctx.store, thread).flatMap((u) => {
      const m = ctx.store.member(thread.space.org, u);
      return m && ctx.store.data.users.has(u) ? [memberView(ctx, thread.space.org, m)] : [];
    });
    return paginate(members, query, (m) => m.id, scopeOf('commenters', thread.space.id, thread.key));
  },
};

const handlers: Handlers<typeof ops> = {
  ...withSuffix(shared, 'InSpace'),
  ...withSuffix(shared, 'InChangeRequest'),
};

export const family = defineFamily({
  ops,
  handlers,
  onSpacePurged: dropSpace,
  counters: {
    space: (store, spaceId) => ({ comments: openedIn(store, spaceId, '') }),
    changeRequest: (store, cr) => ({ comments: openedIn(store, cr.space, cr.id) }),
  },
});
