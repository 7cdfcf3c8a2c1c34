/**
 * Comments, written once for both families: a thread is a space's own discussion or a change
 * request's. Reading needs the read role, commenting, replying, reacting and resolving the comment
 * role; editing or deleting a comment or reply is for its author (or an admin of the space).
 */
import type { z } from 'zod';
import type {
  Comment,
  CommentBody,
  CommentReply,
  FormatQuery,
  ListCommentsQuery,
  PostCommentBody,
  UpdateCommentBody,
  UpdateCrReplyBody,
} from '../../contract/comments.js';
import { COMMENT_MAX_CHARS, ops, withSuffix } from '../../contract/comments.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import { contentOf, findPage, revisionOf } from '../content/model.js';
import { newId } from '../ids.js';
import { MarkdownTooDeep, type DocumentNode } from '../lib/markdown.js';
import { checkWritten, withDocuments, writeDocument, type DocumentOf } from '../markdown-reads.js';
import { paginate, scopeOf } from '../paginate.js';
import type { SpaceRec, Store } from '../store.js';
import { crFor, type ChangeRequestRec } from '../change-requests/model.js';
import { memberView } from '../members/views.js';
import { userView } from '../orgs/views.js';
import { spaceFor } from '../spaces/model.js';

interface ReactionRec {
  emoji: string;
  users: { user: string; reactedAt: string }[];
}

interface Resolution {
  status?: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
}

interface PostRec extends Resolution {
  id: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionRec[];
}

interface CommentRec extends PostRec {
  space: string;
  /** The change request whose thread it is in; absent in a space's own thread. */
  changeRequest?: string;
  status: 'open' | 'resolved';
  /** Revision of the thread when it was posted. */
  revision: string;
  /** The page it is about, as it was when posted (the view shows it as it is now, when it still exists). */
  page?: { id: string; title: string; emoji?: string; path: string };
  node?: string;
  tableCell?: { record: string; definition: string };
  /** Reply ids in posting order. */
  replies: string[];
}

interface ReplyRec extends PostRec {
  comment: string;
}

interface CommentState {
  comments: Map<string, CommentRec>;
  replies: Map<string, ReplyRec>;
  /** space id → thread key ('' for the space's own thread, else the change request id) → comment ids in posting order. */
  threads: Map<string, Map<string, string[]>>;
}

function state(store: Store): CommentState {
  return store.slice<CommentState>('comments', () => ({ comments: new Map(), replies: new Map(), threads: new Map() }));
}

function threadIds(store: Store, spaceId: string, key: string): string[] {
  return state(store).threads.get(spaceId)?.get(key) ?? [];
}

function openedIn(store: Store, spaceId: string, key: string): number {
  const { comments } = state(store);
  return threadIds(store, spaceId, key).filter((id) => comments.get(id)?.status === 'open').length;
}

function dropSpace(store: Store, spaceId: string): void {
  const s = state(store);
  for (const ids of s.threads.get(spaceId)?.values() ?? []) {
    for (const id of ids) {
      for (const r of s.comments.get(id)?.replies ?? []) s.replies.delete(r);
      s.comments.delete(id);
    }
  }
  s.threads.delete(spaceId);
}

// ---------------------------------------------------------------------------------------------
// Threads and access

/** The path parameters of either family. */
interface Where {
  spaceId: string;
  changeRequestId?: string;
}

interface Thread {
  space: SpaceRec;
  cr?: ChangeRequestRec;
  key: string;
  /** The caller's permissions on the space. */
  permissions: { comment: boolean; admin: boolean };
  /** The thread's current revision (the space's, or the change request's). */
  revision: string;
  /** API path of the thread, below /v1. */
  path: string;
}

function threadFor(ctx: HandlerCtx, where: Where): Thread {
  if (where.changeRequestId === undefined) {
    const { space, permissions } = spaceFor(ctx, where.spaceId);
    return { space, key: '', permissions, revision: space.revision, path: `/spaces/${space.id}` };
  }
  const { space, cr, permissions } = crFor(ctx, where.spaceId, where.changeRequestId);
  return { space, cr, key: cr.id, permissions, revision: cr.revision, path: `/spaces/${space.id}/change-requests/${cr.id}` };
}

function inThread(c: CommentRec, thread: Thread): boolean {
  return c.space === thread.space.id && (c.changeRequest ?? '') === thread.key;
}

function commentIn(ctx: HandlerCtx, thread: Thread, commentId: string): CommentRec {
  const c = state(ctx.store).comments.get(commentId);
  if (!c || !inThread(c, thread))
    throw notFound(`no comment ${commentId} ${thread.cr ? `on change request ${thread.cr.number}` : `in space ${thread.space.id}`}`);
  return c;
}

function replyIn(ctx: HandlerCtx, c: CommentRec, replyId: string): ReplyRec {
  const r = state(ctx.store).replies.get(replyId);
  if (!r || r.comment !== c.id) throw notFound(`no reply ${replyId} to comment ${c.id}`);
  return r;
}

function requireComment(thread: Thread, what: string): void {
  if (!thread.permissions.comment) throw forbidden(`${what} needs the comment role or above on space ${thread.space.id}`);
}

/** The author, or an admin of the space, who may still comment there. */
function mayChange(ctx: HandlerCtx, thread: Thread, post: PostRec): boolean {
  return thread.permissions.comment && (post.postedBy === ctx.caller.user.id || thread.permissions.admin);
}

function requireAuthor(ctx: HandlerCtx, thread: Thread, post: PostRec, verb: 'edit' | 'delete', noun: 'comment' | 'reply'): void {
  requireComment(thread, `${verb === 'edit' ? 'editing' : 'deleting'} a ${noun}`);
  if (!mayChange(ctx, thread, post))
    throw forbidden(`only the author of a ${noun} (or an admin of the space) may ${verb} it; ${post.id} was posted by ${post.postedBy}`);
}

// ---------------------------------------------------------------------------------------------
// Changes: checked first, applied after, so a rejected request changes nothing

/** How a view shows bodies: as Markdown, or as documents (read beforehand: markdown-reads.ts `withDocuments`). */
type Show = 'markdown' | DocumentOf;

const showOf = (format: z.output<typeof FormatQuery>['format'], documentOf: DocumentOf): Show => (format === 'document' ? documentOf : 'markdown');

/**
 * The Markdown a comment's or reply's `body` carries: as sent (`{markdown}`), or read from the rich
 * text (`{document}`). Text is needed (an empty body, `{}`, or blank text is refused) and is at most
 * COMMENT_MAX_CHARS long: the sandbox's own rules, checked here rather than in the schema. Checking
 * its nesting may read it (in the sandbox's worker when it is costly): the caller checks again
 * what may have changed meanwhile.
 */
async function textOf(body: CommentBody): Promise<string> {
  let markdown: string;
  if ('markdown' in body) markdown = body.markdown;
  else if ('document' in body) {
    try {
      markdown = await writeDocument(body.document as unknown as DocumentNode);
    } catch (err) {
      throw badRequest(`body.document: cannot be read as text (${(err as Error).message})`);
    }
  } else markdown = '';
  if (markdown.trim() === '') throw badRequest('body: must not be empty (give markdown or a document with text)');
  if (markdown.length > COMMENT_MAX_CHARS) {
    throw badRequest(`body: must be at most ${COMMENT_MAX_CHARS} characters of Markdown (got ${markdown.length})`);
  }
  try {
    await checkWritten(markdown);
  } catch (err) {
    if (err instanceof MarkdownTooDeep) throw badRequest(`body.${'markdown' in body ? 'markdown' : 'document'}: ${err.message}`);
    throw err;
  }
  return markdown;
}

/** Check reaction changes for the caller; returns the function that applies them. */
function planReactions(ctx: HandlerCtx, post: PostRec, noun: string, added: string[] = [], removed: string[] = []): () => void {
  const user = ctx.caller.user.id;
  for (const [field, list] of [
    ['addedReactions', added],
    ['removedReactions', removed],
  ] as const) {
    const i = list.findIndex((e) => e.trim() === '');
    if (i >= 0) throw badRequest(`${field}.${i}: must not be blank (an emoji such as 👍, or a name such as :+1:)`);
  }
  const both = added.find((e) => removed.includes(e));
  if (both) throw badRequest(`addedReactions, removedReactions: ${both} cannot be both added and removed`);
  const mine = (e: string) => post.reactions.some((r) => r.emoji === e && r.users.some((u) => u.user === user));
  const never = removed.find((e) => !mine(e));
  if (never) throw badRequest(`removedReactions: you have not reacted with ${never} to this ${noun}`);
  return () => {
    const now = ctx.store.now();
    for (const emoji of new Set(added)) {
      if (mine(emoji)) continue;
      let r = post.reactions.find((x) => x.emoji === emoji);
      if (!r) post.reactions.push((r = { emoji, users: [] }));
      r.users.push({ user, reactedAt: now });
    }
    for (const emoji of new Set(removed)) {
      const r = post.reactions.find((x) => x.emoji === emoji)!;
      r.users = r.users.filter((u) => u.user !== user);
    }
    post.reactions = post.reactions.filter((r) => r.users.length > 0);
  };
}

function setResolved(ctx: HandlerCtx, post: Resolution, resolved: boolean): void {
  if (resolved) {
    if (post.status === 'resolved') return;
    post.status = 'resolved';
    post.resolvedAt = ctx.store.now();
    post.resolvedBy = ctx.caller.user.id;
  } else {
    post.status = 'open';
    delete post.resolvedAt;
    delete post.resolvedBy;
  }
}

/**
 * PUT of a comment or a reply: body (author or admin), resolved and reactions (comment role). `find`
 * finds the thread and the post (again after the body's text is read, which may wait).
 */
async function update<P extends PostRec>(
  ctx: HandlerCtx,
  find: () => { thread: Thread; post: P },
  noun: 'comment' | 'reply',
  body: z.output<typeof UpdateCrReplyBody>,
): Promise<{ thread: Thread; post: P }> {
  const check = () => {
    const found = find();
    requireComment(found.thread, `updating a ${noun}`);
    if (body.body !== undefined) requireAuthor(ctx, found.thread, found.post, 'edit', noun);
    return found;
  };
  let markdown: string | undefined;
  if (body.body !== undefined) {
    check();
    markdown = await textOf(body.body);
  }
  const { thread, post } = check();
  const applyReactions = planReactions(ctx, post, noun, body.addedReactions, body.removedReactions);
  if (markdown !== undefined) {
    post.markdown = markdown;
    post.editedAt = ctx.store.now();
  }
  if (body.resolved !== undefined) setResolved(ctx, post, body.resolved);
  applyReactions();
  return { thread, post };
}

// ---------------------------------------------------------------------------------------------
// Views

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

function commentView(ctx: HandlerCtx, thread: Thread, c: CommentRec, show: Show): Comment {
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

function replyView(ctx: HandlerCtx, thread: Thread, c: CommentRec, r: ReplyRec, show: Show): CommentReply {
  return { object: 'comment-reply', ...postView(ctx, thread, r, show, `${commentUrl(ctx, thread, c.id)}/replies/${r.id}`) };
}

// ---------------------------------------------------------------------------------------------
// Handlers, shared by both families

type In<P, Q = unknown, B = unknown> = { params: P; query: Q; body: B };
type CommentParams = Where & { commentId: string };
type ReplyParams = CommentParams & { commentReplyId: string };

const shared = {
  listComments: (ctx: HandlerCtx, { params, query }: In<Where, z.output<typeof ListCommentsQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      const { comments } = state(ctx.store);
      const status = query.status ?? 'all';
      const order = query.order ?? 'desc';
      // No author named (an empty list) is no filter.
      const authors = query.authors?.length ? new Set(query.authors) : undefined;
      const all = threadIds(ctx.store, thread.space.id, thread.key)
        .map((id) => comments.get(id)!)
        .filter(
          (c) =>
            (status === 'all' || c.status === status) &&
            (query.targetPage === undefined || c.page?.id === query.targetPage) &&
            (!authors || authors.has(c.postedBy)),
        );
      if (order === 'desc') all.reverse();
      const scope = scopeOf('comments', thread.space.id, thread.key, status, order, query.targetPage, query.authors);
      const page = paginate(all, query, (c) => c.id, scope);
      return { ...page, items: page.items.map((c) => commentView(ctx, thread, c, showOf(query.format, documentOf))) };
    }),

  postComment: async (ctx: HandlerCtx, { params, body }: In<Where, unknown, z.output<typeof PostCommentBody>>) => {
    requireComment(threadFor(ctx, params), 'commenting');
    const markdown = await textOf(body.body);
    // Again: the thread may have changed while the text was read.
    const thread = threadFor(ctx, params);
    requireComment(thread, 'commenting');
    let page: CommentRec['page'];
    if (body.page !== undefined) {
      const found = findPage(contentOf(revisionOf(ctx.store, thread.revision)), body.page);
      if (!found) throw badRequest(`page: no page ${body.page} in ${thread.cr ? `change request ${thread.cr.number}` : `space ${thread.space.id}`}`);
      page = { id: found.page.id, title: found.page.title, ...(found.page.emoji ? { emoji: found.page.emoji } : {}), path: found.path };
    }
    const c: CommentRec = {
      id: newId(),
      space: thread.space.id,
      ...(thread.cr ? { changeRequest: thread.cr.id } : {}),
      postedBy: ctx.caller.user.id,
      postedAt: ctx.store.now(),
      markdown,
      status: 'open',
      revision: thread.revision,
      ...(page ? { page } : {}),
      ...(body.node !== undefined ? { node: body.node } : {}),
      ...(body.tableCell !== undefined ? { tableCell: body.tableCell } : {}),
      reactions: [],
      replies: [],
    };
    const s = state(ctx.store);
    s.comments.set(c.id, c);
    let spaceThreads = s.threads.get(c.space);
    if (!spaceThreads) s.threads.set(c.space, (spaceThreads = new Map()));
    const ids = spaceThreads.get(thread.key);
    if (ids) ids.push(c.id);
    else spaceThreads.set(thread.key, [c.id]);
    return commentView(ctx, thread, c, 'markdown');
  },

  getComment: (ctx: HandlerCtx, { params, query }: In<CommentParams, z.output<typeof FormatQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      return commentView(ctx, thread, commentIn(ctx, thread, params.commentId), showOf(query.format, documentOf));
    }),

  updateComment: async (ctx: HandlerCtx, { params, body }: In<CommentParams, unknown, z.output<typeof UpdateCommentBody>>) => {
    const { thread, post } = await update(
      ctx,
      () => {
        const thread = threadFor(ctx, params);
        return { thread, post: commentIn(ctx, thread, params.commentId) };
      },
      'comment',
      body,
    );
    return commentView(ctx, thread, post, 'markdown');
  },

  deleteComment: (ctx: HandlerCtx, { params }: In<CommentParams>) => {
    const thread = threadFor(ctx, params);
    const s = state(ctx.store);
    const c = s.comments.get(params.commentId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!c || !inThread(c, thread)) return undefined;
    requireAuthor(ctx, thread, c, 'delete', 'comment');
    for (const id of c.replies) s.replies.delete(id);
    s.comments.delete(c.id);
    const threads = s.threads.get(c.space)!;
    threads.set(
      thread.key,
      threads.get(thread.key)!.filter((id) => id !== c.id),
    );
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

  postCommentReply: async (ctx: HandlerCtx, { params, body }: In<CommentParams, unknown, { body: CommentBody }>) => {
    const check = () => {
      const thread = threadFor(ctx, params);
      const c = commentIn(ctx, thread, params.commentId);
      requireComment(thread, 'replying');
      return { thread, c };
    };
    check();
    const markdown = await textOf(body.body);
    // Again: the comment may have changed while the text was read.
    const { thread, c } = check();
    const r: ReplyRec = {
      id: newId(),
      comment: c.id,
      postedBy: ctx.caller.user.id,
      postedAt: ctx.store.now(),
      markdown,
      reactions: [],
    };
    state(ctx.store).replies.set(r.id, r);
    c.replies.push(r.id);
    return replyView(ctx, thread, c, r, 'markdown');
  },

  getCommentReply: (ctx: HandlerCtx, { params, query }: In<ReplyParams, z.output<typeof FormatQuery>>) =>
    withDocuments((documentOf) => {
      const thread = threadFor(ctx, params);
      const c = commentIn(ctx, thread, params.commentId);
      return replyView(ctx, thread, c, replyIn(ctx, c, params.commentReplyId), showOf(query.format, documentOf));
    }),

  updateCommentReply: async (ctx: HandlerCtx, { params, body }: In<ReplyParams, unknown, z.output<typeof UpdateCrReplyBody>>) => {
    let c: CommentRec | undefined;
    const { thread, post } = await update(
      ctx,
      () => {
        const thread = threadFor(ctx, params);
        c = commentIn(ctx, thread, params.commentId);
        return { thread, post: replyIn(ctx, c, params.commentReplyId) };
      },
      'reply',
      body,
    );
    return replyView(ctx, thread, c!, post, 'markdown');
  },

  deleteCommentReply: (ctx: HandlerCtx, { params }: In<ReplyParams>) => {
    const thread = threadFor(ctx, params);
    const c = commentIn(ctx, thread, params.commentId);
    const s = state(ctx.store);
    const r = s.replies.get(params.commentReplyId);
    if (!r || r.comment !== c.id) return undefined;
    requireAuthor(ctx, thread, r, 'delete', 'reply');
    s.replies.delete(r.id);
    c.replies = c.replies.filter((id) => id !== r.id);
    return undefined;
  },

  listCommenters: (ctx: HandlerCtx, { params, query }: In<Where, { page?: string; limit?: number }>) => {
    const thread = threadFor(ctx, params);
    const s = state(ctx.store);
    const users = new Set<string>();
    for (const id of threadIds(ctx.store, thread.space.id, thread.key)) {
      const c = s.comments.get(id)!;
      users.add(c.postedBy);
      for (const r of c.replies) users.add(s.replies.get(r)!.postedBy);
    }
    // Those who left the organization since are not its members any more: not listed.
    const members = [...users].flatMap((u) => {
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
