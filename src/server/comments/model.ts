/**
 * Comments, written once for both families: a thread is a space's own discussion or a change
 * request's. The records and state, who may do what (reading needs the read role; commenting,
 * replying, reacting and resolving the comment role; editing or deleting a comment or reply is for
 * its author or an admin of the space), and the changes, checked first and applied after, so a
 * rejected request changes nothing.
 */
import type { z } from 'zod';
import type { CommentBody, ListCommentsQuery, PostCommentBody, UpdateCrReplyBody } from '../../contract/comments.js';
import { COMMENT_MAX_CHARS } from '../../contract/comments.js';
import type { Actor } from '../access.js';
import { crFor, type ChangeRequestRec } from '../change-requests/model.js';
import { contentOf, findPage, revisionOf } from '../content/model.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { MarkdownTooDeep, type DocumentNode } from '../lib/markdown.js';
import { checkWritten, writeDocument } from '../markdown-reads.js';
import { encode } from '../persist/codec.js';
import { spaceFor } from '../spaces/model.js';
import type { SpaceRec, Store } from '../store.js';

interface ReactionRec {
  emoji: string;
  users: { user: string; reactedAt: string }[];
}

interface Resolution {
  status?: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
}

export interface PostRec extends Resolution {
  id: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionRec[];
}

export interface CommentRec extends PostRec {
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

export interface ReplyRec extends PostRec {
  comment: string;
}

interface CommentState {
  comments: Map<string, CommentRec>;
  replies: Map<string, ReplyRec>;
  /** space id → thread key ('' for the space's own thread, else the change request id) → comment ids in posting order. */
  threads: Map<string, Map<string, string[]>>;
}

export function state(store: Store): CommentState {
  return store.slice<CommentState>('comments', () => ({ comments: new Map(), replies: new Map(), threads: new Map() }));
}

function threadIds(store: Store, spaceId: string, key: string): string[] {
  return state(store).threads.get(spaceId)?.get(key) ?? [];
}

export function openedIn(store: Store, spaceId: string, key: string): number {
  const { comments } = state(store);
  return threadIds(store, spaceId, key).filter((id) => comments.get(id)?.status === 'open').length;
}

export function dropSpace(store: Store, spaceId: string): void {
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
export interface Where {
  spaceId: string;
  changeRequestId?: string;
}

export interface Thread {
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

export function threadFor(actor: Actor, where: Where): Thread {
  if (where.changeRequestId === undefined) {
    const { space, permissions } = spaceFor(actor, where.spaceId);
    return { space, key: '', permissions, revision: space.revision, path: `/spaces/${space.id}` };
  }
  const { space, cr, permissions } = crFor(actor, where.spaceId, where.changeRequestId);
  return { space, cr, key: cr.id, permissions, revision: cr.revision, path: `/spaces/${space.id}/change-requests/${cr.id}` };
}

function inThread(c: CommentRec, thread: Thread): boolean {
  return c.space === thread.space.id && (c.changeRequest ?? '') === thread.key;
}

export function commentIn(actor: Actor, thread: Thread, commentId: string): CommentRec {
  const c = state(actor.store).comments.get(commentId);
  if (!c || !inThread(c, thread))
    throw notFound(`no comment ${commentId} ${thread.cr ? `on change request ${thread.cr.number}` : `in space ${thread.space.id}`}`);
  return c;
}

export function replyIn(actor: Actor, c: CommentRec, replyId: string): ReplyRec {
  const r = state(actor.store).replies.get(replyId);
  if (!r || r.comment !== c.id) throw notFound(`no reply ${replyId} to comment ${c.id}`);
  return r;
}

function requireComment(thread: Thread, what: string): void {
  if (!thread.permissions.comment) throw forbidden(`${what} needs the comment role or above on space ${thread.space.id}`);
}

/** The author, or an admin of the space, who may still comment there. */
export function mayChange(actor: Actor, thread: Thread, post: PostRec): boolean {
  return thread.permissions.comment && (post.postedBy === actor.caller.user.id || thread.permissions.admin);
}

function requireAuthor(actor: Actor, thread: Thread, post: PostRec, verb: 'edit' | 'delete', noun: 'comment' | 'reply'): void {
  requireComment(thread, `${verb === 'edit' ? 'editing' : 'deleting'} a ${noun}`);
  if (!mayChange(actor, thread, post))
    throw forbidden(`only the author of a ${noun} (or an admin of the space) may ${verb} it; ${post.id} was posted by ${post.postedBy}`);
}

// ---------------------------------------------------------------------------------------------
// Changes: checked first, applied after, so a rejected request changes nothing

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
function planReactions(actor: Actor, post: PostRec, noun: string, added: string[] = [], removed: string[] = []): () => void {
  const user = actor.caller.user.id;
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
    const now = actor.store.now();
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

function setResolved(actor: Actor, post: Resolution, resolved: boolean): void {
  if (resolved) {
    if (post.status === 'resolved') return;
    post.status = 'resolved';
    post.resolvedAt = actor.store.now();
    post.resolvedBy = actor.caller.user.id;
  } else {
    post.status = 'open';
    delete post.resolvedAt;
    delete post.resolvedBy;
  }
}

/**
 * PUT of a comment or a reply: body (author or admin), resolved and reactions (comment role). `find`
 * finds the thread and the post (again after the body's text is read, which may wait). `changed`
 * says whether anything changed: the text it has, its status, reactions already there change
 * nothing, not even `editedAt`.
 */
export async function update<P extends PostRec>(
  actor: Actor,
  find: () => { thread: Thread; post: P },
  noun: 'comment' | 'reply',
  body: z.output<typeof UpdateCrReplyBody>,
): Promise<{ thread: Thread; post: P; changed: boolean }> {
  const check = () => {
    const found = find();
    requireComment(found.thread, `updating a ${noun}`);
    if (body.body !== undefined) requireAuthor(actor, found.thread, found.post, 'edit', noun);
    return found;
  };
  let markdown: string | undefined;
  if (body.body !== undefined) {
    check();
    markdown = await textOf(body.body);
  }
  const { thread, post } = check();
  const applyReactions = planReactions(actor, post, noun, body.addedReactions, body.removedReactions);
  const before = encode(post);
  if (markdown !== undefined && markdown !== post.markdown) {
    post.markdown = markdown;
    post.editedAt = actor.store.now();
  }
  if (body.resolved !== undefined) setResolved(actor, post, body.resolved);
  applyReactions();
  return { thread, post, changed: encode(post) !== before };
}

// ---------------------------------------------------------------------------------------------
// Lists and changes

/** A thread's comments a list shows: by status, page and authors (none named: no filter), oldest first unless `order` is `desc`. */
export function listedComments(store: Store, thread: Thread, query: z.output<typeof ListCommentsQuery>): CommentRec[] {
  const { comments } = state(store);
  const status = query.status ?? 'all';
  // No author named (an empty list) is no filter.
  const authors = query.authors?.length ? new Set(query.authors) : undefined;
  const all = threadIds(store, thread.space.id, thread.key)
    .map((id) => comments.get(id)!)
    .filter(
      (c) =>
        (status === 'all' || c.status === status) &&
        (query.targetPage === undefined || c.page?.id === query.targetPage) &&
        (!authors || authors.has(c.postedBy)),
    );
  if ((query.order ?? 'desc') === 'desc') all.reverse();
  return all;
}

/** Post a comment in a thread (the comment role; `page` names a page of the thread's revision). */
export async function postComment(actor: Actor, where: Where, body: z.output<typeof PostCommentBody>): Promise<{ thread: Thread; comment: CommentRec }> {
  requireComment(threadFor(actor, where), 'commenting');
  const markdown = await textOf(body.body);
  // Again: the thread may have changed while the text was read.
  const thread = threadFor(actor, where);
  requireComment(thread, 'commenting');
  let page: CommentRec['page'];
  if (body.page !== undefined) {
    const found = findPage(contentOf(revisionOf(actor.store, thread.revision)), body.page);
    if (!found) throw badRequest(`page: no page ${body.page} in ${thread.cr ? `change request ${thread.cr.number}` : `space ${thread.space.id}`}`);
    page = { id: found.page.id, title: found.page.title, ...(found.page.emoji ? { emoji: found.page.emoji } : {}), path: found.path };
  }
  const c: CommentRec = {
    id: newId(),
    space: thread.space.id,
    ...(thread.cr ? { changeRequest: thread.cr.id } : {}),
    postedBy: actor.caller.user.id,
    postedAt: actor.store.now(),
    markdown,
    status: 'open',
    revision: thread.revision,
    ...(page ? { page } : {}),
    ...(body.node !== undefined ? { node: body.node } : {}),
    ...(body.tableCell !== undefined ? { tableCell: body.tableCell } : {}),
    reactions: [],
    replies: [],
  };
  const s = state(actor.store);
  s.comments.set(c.id, c);
  let spaceThreads = s.threads.get(c.space);
  if (!spaceThreads) s.threads.set(c.space, (spaceThreads = new Map()));
  const ids = spaceThreads.get(thread.key);
  if (ids) ids.push(c.id);
  else spaceThreads.set(thread.key, [c.id]);
  return { thread, comment: c };
}

/** Delete a comment and its replies (its author, or an admin of the space); a missing one changes nothing (false). */
export function deleteComment(actor: Actor, where: Where, commentId: string): boolean {
  const thread = threadFor(actor, where);
  const s = state(actor.store);
  const c = s.comments.get(commentId);
  if (!c || !inThread(c, thread)) return false;
  requireAuthor(actor, thread, c, 'delete', 'comment');
  for (const id of c.replies) s.replies.delete(id);
  s.comments.delete(c.id);
  const threads = s.threads.get(c.space)!;
  threads.set(
    thread.key,
    threads.get(thread.key)!.filter((id) => id !== c.id),
  );
  return true;
}

/** Reply to a comment (the comment role). */
export async function postReply(
  actor: Actor,
  where: Where,
  commentId: string,
  body: CommentBody,
): Promise<{ thread: Thread; comment: CommentRec; reply: ReplyRec }> {
  const check = () => {
    const thread = threadFor(actor, where);
    const c = commentIn(actor, thread, commentId);
    requireComment(thread, 'replying');
    return { thread, c };
  };
  check();
  const markdown = await textOf(body);
  // Again: the comment may have changed while the text was read.
  const { thread, c } = check();
  const r: ReplyRec = {
    id: newId(),
    comment: c.id,
    postedBy: actor.caller.user.id,
    postedAt: actor.store.now(),
    markdown,
    reactions: [],
  };
  state(actor.store).replies.set(r.id, r);
  c.replies.push(r.id);
  return { thread, comment: c, reply: r };
}

/** Delete a reply (its author, or an admin of the space); a missing one changes nothing (false). */
export function deleteReply(actor: Actor, where: Where, commentId: string, replyId: string): boolean {
  const thread = threadFor(actor, where);
  const c = commentIn(actor, thread, commentId);
  const s = state(actor.store);
  const r = s.replies.get(replyId);
  if (!r || r.comment !== c.id) return false;
  requireAuthor(actor, thread, r, 'delete', 'reply');
  s.replies.delete(r.id);
  c.replies = c.replies.filter((id) => id !== r.id);
  return true;
}

/** The users who commented or replied in a thread, in order of first post. */
export function commentersOf(store: Store, thread: Thread): string[] {
  const s = state(store);
  const users = new Set<string>();
  for (const id of threadIds(store, thread.space.id, thread.key)) {
    const c = s.comments.get(id)!;
    users.add(c.postedBy);
    for (const r of c.replies) users.add(s.replies.get(r)!.postedBy);
  }
  return [...users];
}
