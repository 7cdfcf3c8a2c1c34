/** Comments and replies as the API shows them to the caller. */
import type { z } from 'zod';
import type { Comment, CommentReply, FormatQuery } from '../../contract/comments.js';
import { contentOf, findPage, revisionOf } from '../content/model.js';
import type { HandlerCtx } from '../handler.js';
import type { DocumentOf } from '../markdown-reads.js';
import { userView } from '../orgs/views.js';
import { mayChange, state, type CommentRec, type PostRec, type ReplyRec, type Thread } from './model.js';

/** How a view shows bodies: as Markdown, or as documents (read beforehand: markdown-reads.ts `withDocuments`). */
export type Show = 'markdown' | DocumentOf;

export const showOf = (format: z.output<typeof FormatQuery>['format'], documentOf: DocumentOf): Show => (format === 'document' ? documentOf : 'markdown');

function userRef(ctx: HandlerCtx, userId: string) {
  const u = ctx.store.data.users.get(userId);
  return u ? userView(ctx, u) : { object: 'user' as const, id: userId, displayName: userId, urls: { location: `${ctx.baseUrl}/v1/users/${userId}` } };
}

function postView(ctx: HandlerCtx, thread: Thread, post: PostRec, show: Show, location: string) {
  return {
    id: post.id,
    postedBy: userRef(ctx, post.postedBy),
    postedAt: post.postedAt,
    ...(post.editedAt ? { editedAt: post.editedAt } : {}),
    reactions: post.reactions.map((r) => ({
      emoji: r.emoji,
      count: r.users.length,
      users: r.users.map((u) => ({ user: userRef(ctx, u.user), reactedAt: u.reactedAt })),
    })),
    body: show === 'markdown' ? { markdown: post.markdown } : { document: show(post.markdown) },
    urls: { location, app: `${ctx.baseUrl}/app${thread.path.replace(/^\/spaces/, '/s')}?comment=${post.id}` },
    permissions: { view: true, edit: mayChange(ctx, thread, post), reply: thread.permissions.comment, delete: mayChange(ctx, thread, post) },
    ...(post.status ? { status: post.status } : {}),
    ...(post.resolvedAt ? { resolvedAt: post.resolvedAt } : {}),
    ...(post.resolvedBy ? { resolvedBy: userRef(ctx, post.resolvedBy) } : {}),
  };
}

const commentUrl = (ctx: HandlerCtx, thread: Thread, id: string) => `${ctx.baseUrl}/v1${thread.path}/comments/${id}`;

export function commentView(ctx: HandlerCtx, thread: Thread, c: CommentRec, show: Show): Comment {
  const { replies } = state(ctx.store);
  const repliers = new Map<string, { count: number; updatedAt: string }>();
  for (const id of c.replies) {
    const r = replies.get(id)!;
    const at = r.editedAt ?? r.postedAt;
    const seen = repliers.get(r.postedBy);
    repliers.set(r.postedBy, { count: (seen?.count ?? 0) + 1, updatedAt: seen && seen.updatedAt > at ? seen.updatedAt : at });
  }
  const page = c.page && findPage(contentOf(revisionOf(ctx.store, thread.revision)), c.page.id);
  return {
    object: 'comment',
    ...postView(ctx, thread, c, show, commentUrl(ctx, thread, c.id)),
    status: c.status,
    replies: c.replies.length,
    repliers: [...repliers].map(([user, r]) => ({ updatedAt: r.updatedAt, count: r.count, user: userRef(ctx, user) })),
    target: {
      space: c.space,
      ...(c.changeRequest ? { changeRequest: c.changeRequest } : {}),
      revision: c.revision,
      ...(c.page
        ? {
            page: page
              ? { id: page.page.id, title: page.page.title, ...(page.page.emoji ? { emoji: page.page.emoji } : {}), path: page.path, outdated: false }
              : { ...c.page, outdated: true },
          }
        : {}),
      ...(c.node ? { node: { id: c.node } } : {}),
      ...(c.tableCell ? { tableCell: c.tableCell } : {}),
    },
  };
}

export function replyView(ctx: HandlerCtx, thread: Thread, c: CommentRec, r: ReplyRec, show: Show): CommentReply {
  return { object: 'comment-reply', ...postView(ctx, thread, r, show, `${commentUrl(ctx, thread, c.id)}/replies/${r.id}`) };
}
