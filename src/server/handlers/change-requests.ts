/**
 * Change requests: numbered per space, listed with filters in a space and across an organization.
 * Each has its own line of revisions (its content), branched from the space's revision; `update`
 * merges the space's newer content into it, `merge` makes it the space's new revision, and `pdf`
 * exports it at a signed URL (downloads.ts).
 */
import type { ChangeRequest, ChangeRequestFilters, ChangeRequestStatus, ConflictingPage, MergeResult } from '../../contract/change-requests.js';
import { ops } from '../../contract/change-requests.js';
import type { MergeRule } from '../../contract/spaces.js';
import { orgFor } from '../access.js';
import {
  applyTemplate,
  backlinks,
  commitToSpace,
  contentOf,
  describePages,
  fileView,
  filesOfReadableSpaces,
  findFile,
  findPage,
  linkItemsInSlices,
  linkList,
  linksInSlices,
  mergeInSlices,
  newRevision,
  pageMarkdown,
  pageTree,
  pageView,
  importWebsite,
  revisionOf,
  revisionView,
  walkPages,
  type ContentScope,
  type PageRec,
  type RevisionContent,
  type RevisionKind,
  type TemplateParams,
} from '../content/index.js';
import { downloadUrl } from '../downloads.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors.js';
import { changeRequestCounters, defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { readBoundMs, withDocuments } from '../markdown-reads.js';
import { TaskStopped } from '../worker/pool.js';
import { sandboxWorker } from '../worker/shared.js';
import { paginate, scopeOf } from '../paginate.js';
import type { RevisionRec, SpaceRec, Store } from '../store.js';
import { effectiveMergeRules, userView } from './orgs.js';
import { spaceFor, visibleSpaces } from './spaces.js';

export interface ChangeRequestRec {
  id: string;
  /** 1, 2, 3... in its space, in creation order. */
  number: number;
  space: string;
  status: ChangeRequestStatus;
  subject: string;
  description?: ChangeRequest['description'];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** Who merged it, and when. */
  mergedBy?: string;
  mergedAt?: string;
  conversationsIssuesCluster?: string;
  /** Its external links (PATCH `links`). */
  links?: { id: string; ref: { kind: 'url'; url: string }; title?: string }[];
  /** Users who created or changed it, in order of first contribution. */
  contributors: string[];
}

interface ChangeRequestState {
  byId: Map<string, ChangeRequestRec>;
  /** space id → ids of its change requests, in number order (index = number - 1: none is ever removed alone). */
  bySpace: Map<string, string[]>;
}

export function crState(store: Store): ChangeRequestState {
  return store.slice<ChangeRequestState>('changeRequests', () => ({ byId: new Map(), bySpace: new Map() }));
}

/** The change requests of a space, in number order. */
function spaceChangeRequests(store: Store, spaceId: string): ChangeRequestRec[] {
  const { byId, bySpace } = crState(store);
  return (bySpace.get(spaceId) ?? []).map((id) => byId.get(id)!);
}

/** The space counters this family contributes. */
function spaceCountersOf(store: Store, spaceId: string) {
  const all = spaceChangeRequests(store, spaceId);
  return {
    changeRequests: all.length,
    changeRequestsOpen: all.filter((cr) => cr.status === 'open').length,
    changeRequestsDraft: all.filter((cr) => cr.status === 'draft').length,
  };
}

function dropSpace(store: Store, spaceId: string): void {
  const state = crState(store);
  for (const id of state.bySpace.get(spaceId) ?? []) state.byId.delete(id);
  state.bySpace.delete(spaceId);
}

/** The space revision a change request's changes are measured from: where it branched, or its last update. */
function crBase(cr: ChangeRequestRec): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/** A change request is outdated when the space's revision moved since it branched or was last updated. */
function isOutdated(space: SpaceRec, cr: ChangeRequestRec): boolean {
  return cr.status !== 'merged' && space.revision !== crBase(cr);
}

type SpacePermissions = ReturnType<typeof spaceFor>['permissions'];

/** What the merge rules are judged on: who merges, and the change request as it is. */
export interface MergeFacts {
  space: string;
  /** The change request's number, for messages. */
  number: number;
  /** The user who merges. */
  merger: string;
  /** The change request's author. */
  author: string;
  outdated: boolean;
  subject: string;
  /** Whether its description holds any text. */
  described: boolean;
}

const BYPASS_ONLY = 'only a user the rules allow to bypass them (allow_bypass) may merge';

/**
 * Why `rules` forbid the merge, or undefined when they allow it (every rule must pass; a user of an
 * `allow_bypass` rule skips them all). The service's reviews are not modelled: in the sandbox **the
 * merge is the review** — the user who merges reviews and approves the change request as they merge
 * it, and there is no other review. The author's own merge is no review (nobody reviews their own
 * change request). So:
 * - `require_specific_reviewers`: every user listed must have reviewed: met when the merger is the
 *   only one listed (and not the author); a rule listing several users is met only by a bypass;
 * - `require_one_of_specific_reviewers`: the merger is one of the users listed (and not the author);
 * - `require_at_least_one_review`, `require_at_least_one_approved_review`: the merger is not the author;
 * - `require_all_reviews_approved`: always met (the only review, the merge, approves);
 * - `require_agent_review`: never met (the sandbox runs no agents);
 * - `require_up_to_date_change_request`: the change request is not outdated;
 * - `require_change_request_subject` / `_description`: it has a subject / a description with text;
 * - `require_author_to_merge`: the merger is the author (with a review rule, only a bypass can merge);
 * - `custom`: the sandbox cannot evaluate expressions, so a custom rule is never met: its `message`
 *   (or a default) says why, and only a bypass can merge.
 * Every failing rule is named, in order.
 */
export function mergeRulesFailure(rules: readonly MergeRule[], f: MergeFacts): string | undefined {
  if (rules.some((r) => r.rule === 'allow_bypass' && r.users.includes(f.merger))) return undefined;
  const reviewer = f.merger !== f.author ? f.merger : undefined;
  const selfReview = `the merge is the review, and the author (${f.author}) does not review their own change request`;
  const cr = `change request ${f.number}`;
  const failures: string[] = [];
  for (const rule of rules) {
    const tag = `(mergeRules ${rule.rule})`;
    switch (rule.rule) {
      case 'allow_bypass':
      case 'require_all_reviews_approved':
        break;
      case 'require_specific_reviewers': {
        if (rule.users.every((u) => u === reviewer)) break;
        const who = `space ${f.space} requires a review by ${rule.users.join(' and ')} to merge ${tag}`;
        failures.push(
          new Set(rule.users).size > 1
            ? `${who}: the merge is the only review in the sandbox, so ${BYPASS_ONLY}`
            : rule.users[0] === f.author
              ? `${who}: ${selfReview}`
              : `${who}: the merge is the review, so only ${rule.users[0]} may merge`,
        );
        break;
      }
      case 'require_one_of_specific_reviewers': {
        if (reviewer !== undefined && rule.users.includes(reviewer)) break;
        const who = `space ${f.space} requires a review by one of ${rule.users.join(', ') || '(no user)'} to merge ${tag}`;
        failures.push(rule.users.includes(f.merger) ? `${who}: ${selfReview}` : `${who}: the merge is the review, so one of them must merge`);
        break;
      }
      case 'require_at_least_one_review':
      case 'require_at_least_one_approved_review':
        if (reviewer === undefined)
          failures.push(
            `space ${f.space} requires ${rule.rule === 'require_at_least_one_review' ? 'a review' : 'an approved review'} to merge ${tag}: ${selfReview}, so someone else must merge`,
          );
        break;
      case 'require_agent_review':
        failures.push(`space ${f.space} requires a review by the agent to merge ${tag}: the sandbox runs no agents, so ${BYPASS_ONLY}`);
        break;
      case 'require_up_to_date_change_request':
        if (f.outdated) failures.push(`${cr} is not up to date with space ${f.space} ${tag}: update it first (docsctl cr update ${f.space} ${f.number})`);
        break;
      case 'require_change_request_subject':
        if (f.subject.trim() === '') failures.push(`${cr} has no subject ${tag}: give it one (docsctl cr edit ${f.space} ${f.number} --subject TEXT)`);
        break;
      case 'require_change_request_description':
        if (!f.described) failures.push(`${cr} has no description ${tag}: give it one (docsctl cr edit ${f.space} ${f.number} --description TEXT)`);
        break;
      case 'require_author_to_merge':
        if (f.merger !== f.author) failures.push(`only the author of ${cr} (${f.author}) may merge it ${tag}`);
        break;
      case 'custom':
        failures.push(
          `${rule.message ?? 'a custom merge rule does not allow this merge'} ${tag}: the sandbox cannot evaluate its expression (${rule.expression}), so ${BYPASS_ONLY}`,
        );
        break;
    }
  }
  return failures.length > 0 ? failures.join('; ') : undefined;
}

/** Whether a Document holds any text (a description that says something). */
function hasText(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const n = node as { text?: unknown; leaves?: unknown[]; nodes?: unknown[] };
  if (typeof n.text === 'string' && n.text.trim() !== '') return true;
  return [...(n.leaves ?? []), ...(n.nodes ?? [])].some(hasText);
}

/** The merge rules in force on a space: its own; `inherit` takes the organization's (effectiveMergeRules). */
function rulesOf(store: Store, space: SpaceRec): readonly MergeRule[] {
  const rules = effectiveMergeRules(store, space);
  return rules.type === 'rules' ? rules.rules : [];
}

/**
 * Why the caller may not merge `cr` into the space, or undefined when they may: the review role
 * (the space's `merge` permission), an unlocked space, and the space's merge rules (see
 * `mergeRulesFailure`).
 */
function mergeForbidden(ctx: HandlerCtx, space: SpaceRec, permissions: SpacePermissions, cr: ChangeRequestRec): string | undefined {
  if (!permissions.merge) return `merging a change request needs the review role or above on space ${space.id}`;
  if (space.editMode === 'locked') return `space ${space.id} is locked (editMode locked): nothing can be merged into it`;
  return mergeRulesFailure(rulesOf(ctx.store, space), {
    space: space.id,
    number: cr.number,
    merger: ctx.caller.user.id,
    author: cr.createdBy,
    outdated: isOutdated(space, cr),
    subject: cr.subject,
    described: hasText(cr.description),
  });
}

/** Draft and open change requests can be merged; an archived one must be reopened first. */
const MERGEABLE: readonly ChangeRequestStatus[] = ['draft', 'open'];

function changeRequestView(ctx: HandlerCtx, space: SpaceRec, cr: ChangeRequestRec, permissions: SpacePermissions): ChangeRequest {
  const counters = changeRequestCounters(ctx.store, cr);
  const creator = ctx.store.data.users.get(cr.createdBy);
  const open = cr.status !== 'merged';
  const mergeable = MERGEABLE.includes(cr.status) && mergeForbidden(ctx, space, permissions, cr) === undefined;
  const merger = cr.mergedBy ? ctx.store.data.users.get(cr.mergedBy) : undefined;
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    ...(cr.description !== undefined ? { description: cr.description } : {}),
    ...(creator ? { createdBy: userView(ctx, creator) } : {}),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    space: cr.space,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    ...(merger ? { mergedBy: userView(ctx, merger) } : {}),
    ...(cr.mergedAt ? { mergedAt: cr.mergedAt } : {}),
    comments: counters.comments,
    outdated: isOutdated(space, cr),
    ...(cr.links ? { links: cr.links } : {}),
    ...(cr.conversationsIssuesCluster ? { conversationsIssuesCluster: cr.conversationsIssuesCluster } : {}),
    urls: { location: `${ctx.baseUrl}/v1/spaces/${cr.space}/change-requests/${cr.id}`, app: crAppUrl(ctx.baseUrl, cr) },
    permissions: {
      view: true,
      edit: open && permissions.edit,
      comment: permissions.comment,
      merge: mergeable,
      review: open && permissions.review,
    },
  };
}

/** The change request with this id as the caller sees it, or undefined when it is gone or hidden from them. */
export function changeRequestViewById(ctx: HandlerCtx, id: string): ChangeRequest | undefined {
  const cr = crState(ctx.store).byId.get(id);
  if (!cr) return undefined;
  try {
    const { space, permissions } = spaceFor(ctx, cr.space);
    return changeRequestView(ctx, space, cr, permissions);
  } catch (err) {
    if (err instanceof HttpError) return undefined;
    throw err;
  }
}

/**
 * A change request of a space the caller may see, by id or by number, with the caller's role and
 * permissions on the space. 404 when it is not in that space.
 */
export function crFor(ctx: HandlerCtx, spaceId: string, ref: string) {
  const found = spaceFor(ctx, spaceId);
  const state = crState(ctx.store);
  const byNumber = /^[1-9]\d{0,9}$/.test(ref) ? state.byId.get(state.bySpace.get(spaceId)?.[Number(ref) - 1] ?? '') : undefined;
  const cr = byNumber ?? state.byId.get(ref);
  if (!cr || cr.space !== spaceId) throw notFound(`no change request ${ref} in space ${spaceId}`);
  return { ...found, cr };
}

/** 403 unless the caller may edit change requests of the space (edit role or above, space not locked). */
function requireCrEdit(space: SpaceRec, permissions: { edit: boolean }, what: string): void {
  if (permissions.edit) return;
  throw forbidden(
    space.editMode === 'locked' ? `${what}: space ${space.id} is locked (editMode locked)` : `${what} needs the edit role or above on space ${space.id}`,
  );
}

/** Record that a user changed a change request. */
function touchChangeRequest(ctx: HandlerCtx, cr: ChangeRequestRec): void {
  cr.updatedAt = ctx.store.now();
  if (!cr.contributors.includes(ctx.caller.user.id)) cr.contributors.push(ctx.caller.user.id);
}

const crAppUrl = (baseUrl: string, cr: ChangeRequestRec) => `${baseUrl}/app/s/${cr.space}/~/changes/${cr.number}`;
const crName = (cr: ChangeRequestRec) => `change request ${cr.number} of space ${cr.space}`;

/** Record `content` as the change request's new revision, child of its current one; the space is not touched. */
export function commitToChangeRequest(
  store: Store,
  cr: ChangeRequestRec,
  content: RevisionContent,
  message: string,
  parents = [cr.revision],
  kind?: RevisionKind,
): RevisionRec {
  const rev = newRevision(store, cr.space, parents, content, message, kind);
  cr.revision = rev.id;
  return rev;
}

/** A change request's content as the content views show it: its own revision, under its app URL. */
function crScope(ctx: HandlerCtx, space: SpaceRec, cr: ChangeRequestRec): ContentScope {
  const rev = revisionOf(ctx.store, cr.revision);
  return {
    store: ctx.store,
    baseUrl: ctx.baseUrl,
    org: space.org,
    space: space.id,
    rev,
    content: contentOf(rev),
    appUrl: crAppUrl(ctx.baseUrl, cr),
    changeRequest: (id) => changeRequestViewById(ctx, id),
  };
}

/** Files of other spaces a template may reference, as the caller may read them. */
export function templateFiles(ctx: HandlerCtx) {
  return filesOfReadableSpaces(ctx.store, (id) => spaceFor(ctx, id).space);
}

/**
 * Apply a template to a change request's content (`POST {s}/content/template` with
 * `changeRequestId`): a new revision of the change request; the space does not move.
 */
export function applyTemplateToChangeRequest(ctx: HandlerCtx, spaceId: string, ref: string, id: string, params?: TemplateParams): void {
  const { cr } = writable(ctx, { spaceId, changeRequestId: ref }, 'applying a template to a change request');
  const content = applyTemplate(ctx.store, cr.space, contentAt(ctx.store, cr.revision), id, params, templateFiles(ctx));
  commitToChangeRequest(ctx.store, cr, content, `Apply template ${id}`);
  touchChangeRequest(ctx, cr);
}

/** The content of a change request the caller may view. */
function readable(ctx: HandlerCtx, params: { spaceId: string; changeRequestId: string }) {
  const found = crFor(ctx, params.spaceId, params.changeRequestId);
  return { ...found, scope: crScope(ctx, found.space, found.cr) };
}

/** A change request whose content the caller may change: edit role, space not locked, not merged. */
function writable(ctx: HandlerCtx, params: { spaceId: string; changeRequestId: string }, what: string) {
  const found = crFor(ctx, params.spaceId, params.changeRequestId);
  requireCrEdit(found.space, found.permissions, what);
  if (found.cr.status === 'merged') throw badRequest(`${crName(found.cr)} is merged: ${what} is no longer possible`);
  return found;
}

function pageIn(scope: ContentScope, cr: ChangeRequestRec, pageId: string) {
  const entry = findPage(scope.content, pageId);
  if (!entry) throw notFound(`no page ${pageId} in ${crName(cr)}`);
  return entry;
}

function fileIn(scope: ContentScope, cr: ChangeRequestRec, fileId: string) {
  const file = findFile(scope.content, fileId);
  if (!file) throw notFound(`no file ${fileId} in ${crName(cr)}`);
  return file;
}

const contentAt = (store: Store, revisionId: string) => contentOf(revisionOf(store, revisionId));

/**
 * Three-way merge of `theirs` into `ours` since `base` (page by page, see content/merge.ts), in
 * slices; the conflicting pages described from `theirs`, then `ours`, then `base` (a page one side removed).
 */
async function merge(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent) {
  const { content, conflicts } = await mergeInSlices(base, ours, theirs);
  return { content, conflicts: describePages(conflicts, theirs, ours, base) };
}

/** Times a merge is made again because what it merged changed while it ran, before it gives up (409). */
const MERGE_ATTEMPTS = 3;

/**
 * The merge of the revisions `at()` names (base, ours, theirs), which are the request's checks too:
 * they run again once the merge is made (it pauses, and other requests run); when the revisions
 * moved meanwhile, the merge is made again from the new ones.
 */
async function mergeNow<T extends { revisions: readonly [string, string, string] }>(ctx: HandlerCtx, at: () => T) {
  for (let attempt = 1; ; attempt++) {
    const before = at();
    const [base, ours, theirs] = before.revisions.map((id) => contentAt(ctx.store, id));
    const merged = await merge(base, ours, theirs);
    const after = at();
    if (after.revisions.every((id, i) => id === before.revisions[i])) return { ...after, merged };
    if (attempt === MERGE_ATTEMPTS) throw conflict(`the change request or its space changed ${MERGE_ATTEMPTS} times while it was being merged: try again`);
  }
}

function conflictsResult(revision: string, conflicts: ConflictingPage[]): MergeResult {
  return { revision, result: 'conflicts', conflicts };
}

/**
 * A change request's links as PATCH sets them: the list given, whole (links left out are removed);
 * an item with `id` updates that link, one without is a new link with a new id.
 */
function crLinks(
  cr: ChangeRequestRec,
  input: readonly { id?: string; ref: { kind: 'url'; url: string }; title?: string }[],
): NonNullable<ChangeRequestRec['links']> {
  const known = new Set((cr.links ?? []).map((l) => l.id));
  const seen = new Set<string>();
  return input.map((item, i) => {
    if (item.id !== undefined) {
      if (!known.has(item.id)) throw badRequest(`links.${i}.id: change request ${cr.number} has no link ${item.id} (leave id out to add a link)`);
      if (seen.has(item.id)) throw badRequest(`links.${i}.id: link ${item.id} is given twice`);
      seen.add(item.id);
    }
    return { id: item.id ?? newId(), ref: { kind: 'url', url: item.ref.url }, ...(item.title !== undefined ? { title: item.title } : {}) };
  });
}

const PDF_DOWNLOAD = 'change-request-pdf';
const pdfFilename = (cr: ChangeRequestRec, page?: PageRec) => `change-request-${cr.number}${page ? `-${page.slug}` : ''}.pdf`;

/** The users a space's merge rules name as reviewers: its change requests request their review. */
function requestedReviewers(store: Store, space: SpaceRec): string[] {
  return rulesOf(store, space).flatMap((r) => (r.rule === 'require_specific_reviewers' || r.rule === 'require_one_of_specific_reviewers' ? r.users : []));
}

/** The statuses a list shows: those asked for, `open` when none is. */
function statusesOf(f: ChangeRequestFilters): ChangeRequestStatus[] {
  const asked = f.status === undefined ? [] : Array.isArray(f.status) ? f.status : [f.status];
  return asked.length > 0 ? [...new Set(asked)].sort() : ['open'];
}

function matches(store: Store, space: SpaceRec, f: ChangeRequestFilters) {
  const statuses = statusesOf(f);
  const reviewers = f.requestedReviewer === undefined ? undefined : requestedReviewers(store, space);
  return (cr: ChangeRequestRec) =>
    statuses.includes(cr.status) &&
    (f.creator === undefined || cr.createdBy === f.creator) &&
    (f.contributor === undefined || cr.contributors.includes(f.contributor)) &&
    (reviewers === undefined || reviewers.includes(f.requestedReviewer!)) &&
    (f.conversationsIssuesCluster === undefined || cr.conversationsIssuesCluster === f.conversationsIssuesCluster);
}

const filterScope = (f: ChangeRequestFilters) => [
  statusesOf(f),
  f.creator,
  f.contributor,
  f.requestedReviewer,
  f.conversationsIssuesCluster,
  f.orderBy ?? 'updatedAt',
  f.space,
];

/**
 * Most recent first, by `orderBy` (the document's default: `updatedAt`), then newest created, then by
 * space id and highest number.
 */
function listOrder(f: ChangeRequestFilters) {
  const key = f.orderBy ?? 'updatedAt';
  return (a: { space: SpaceRec; cr: ChangeRequestRec }, b: { space: SpaceRec; cr: ChangeRequestRec }) =>
    b.cr[key].localeCompare(a.cr[key]) || b.cr.createdAt.localeCompare(a.cr.createdAt) || a.space.id.localeCompare(b.space.id) || b.cr.number - a.cr.number;
}

const handlers: Handlers<typeof ops> = {
  listChangeRequests: (ctx, { params, query }) => {
    const { space, permissions } = spaceFor(ctx, params.spaceId);
    const all = spaceChangeRequests(ctx.store, space.id)
      .filter(matches(ctx.store, space, query))
      .map((cr) => ({ space, cr }))
      .sort(listOrder(query))
      .map(({ cr }) => cr);
    const page = paginate(all, query, (cr) => cr.id, scopeOf('change-requests', space.id, ...filterScope(query)));
    return { ...page, items: page.items.map((cr) => changeRequestView(ctx, space, cr, permissions)) };
  },

  createChangeRequest: (ctx, { params, body }) => {
    const { space, permissions } = spaceFor(ctx, params.spaceId);
    requireCrEdit(space, permissions, 'creating a change request');
    if (body.agentTaskId !== undefined) {
      throw badRequest(`agentTaskId: the sandbox runs no agents, so it cannot implement agent task ${body.agentTaskId}; create the change request without it`);
    }
    // A template applies to the change request's own content (checked before anything is stored).
    const templated = body.template
      ? applyTemplate(ctx.store, space.id, contentAt(ctx.store, space.revision), body.template.id, body.template.params, templateFiles(ctx))
      : undefined;
    const state = crState(ctx.store);
    let ids = state.bySpace.get(space.id);
    if (!ids) state.bySpace.set(space.id, (ids = []));
    // Handlers run synchronously: the number is taken and the record stored in the same tick.
    const now = ctx.store.now();
    const cr: ChangeRequestRec = {
      id: newId(),
      number: ids.length + 1,
      space: space.id,
      status: 'draft',
      subject: body.subject ?? '',
      createdBy: ctx.caller.user.id,
      createdAt: now,
      updatedAt: now,
      revision: space.revision,
      revisionInitial: space.revision,
      ...(body.conversationsIssuesCluster !== undefined ? { conversationsIssuesCluster: body.conversationsIssuesCluster } : {}),
      contributors: [ctx.caller.user.id],
    };
    if (templated) commitToChangeRequest(ctx.store, cr, templated, `Apply template ${body.template!.id}`);
    state.byId.set(cr.id, cr);
    ids.push(cr.id);
    return changeRequestView(ctx, space, cr, permissions);
  },

  getChangeRequest: (ctx, { params }) => {
    const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
    return changeRequestView(ctx, space, cr, permissions);
  },

  updateChangeRequest: (ctx, { params, body }) => {
    const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
    requireCrEdit(space, permissions, 'editing a change request');
    if (cr.status === 'merged') throw badRequest(`change request ${cr.number} is merged: it can no longer be edited`);
    if (Object.keys(body).length === 0) return changeRequestView(ctx, space, cr, permissions);
    if (body.subject !== undefined) cr.subject = body.subject;
    if (body.description !== undefined) cr.description = body.description;
    if (body.links !== undefined) cr.links = crLinks(cr, body.links);
    if (body.status !== undefined) cr.status = body.status;
    touchChangeRequest(ctx, cr);
    return changeRequestView(ctx, space, cr, permissions);
  },

  listOrganizationChangeRequests: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const found: { space: SpaceRec; cr: ChangeRequestRec; permissions: ReturnType<typeof spaceFor>['permissions'] }[] = [];
    for (const space of visibleSpaces(ctx, params.organizationId, query.space === undefined ? undefined : (s) => s.id === query.space)) {
      const { permissions } = spaceFor(ctx, space.id);
      for (const cr of spaceChangeRequests(ctx.store, space.id).filter(matches(ctx.store, space, query))) found.push({ space, cr, permissions });
    }
    found.sort(listOrder(query));
    const page = paginate(found, query, (x) => x.cr.id, scopeOf('org-change-requests', params.organizationId, ...filterScope(query)));
    return {
      ...page,
      items: page.items.map(({ space, cr, permissions }) => changeRequestView(ctx, space, cr, permissions)),
    };
  },

  mergeChangeRequest: async (ctx, { params }) => {
    const mergeable = () => {
      const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
      if (!permissions.merge) throw forbidden(`merging a change request needs the review role or above on space ${space.id}`);
      if (cr.status === 'merged') throw badRequest(`${crName(cr)} is already merged (revision ${cr.revisionMerged})`);
      if (!MERGEABLE.includes(cr.status)) throw badRequest(`${crName(cr)} is ${cr.status}: reopen it (status open) to merge it`);
      const denied = mergeForbidden(ctx, space, permissions, cr);
      if (denied) throw forbidden(denied);
      return { space, cr, revisions: [crBase(cr), space.revision, cr.revision] as const };
    };
    const found = mergeable();
    // The space has not moved since the change request branched (or was updated): its content is the result.
    const { space, cr, merged } =
      found.space.revision === crBase(found.cr)
        ? { ...found, merged: { content: contentAt(ctx.store, found.cr.revision), conflicts: [] } }
        : await mergeNow(ctx, mergeable);
    if (merged.conflicts.length > 0) return conflictsResult(space.revision, merged.conflicts);
    const subject = cr.subject ? `: ${cr.subject}` : '';
    const rev = commitToSpace(ctx.store, space, merged.content, `Merge change request #${cr.number}${subject}`, { type: 'merge', mergedFrom: cr.id });
    cr.status = 'merged';
    cr.revisionMerged = rev.id;
    cr.mergedBy = ctx.caller.user.id;
    cr.mergedAt = rev.createdAt;
    cr.updatedAt = rev.createdAt;
    return { revision: rev.id, result: 'merge' };
  },

  updateChangeRequestFromSpace: async (ctx, { params }) => {
    const updatable = () => {
      const { space, cr } = writable(ctx, params, 'updating a change request');
      return { space, cr, revisions: [crBase(cr), cr.revision, space.revision] as const };
    };
    let { space, cr } = updatable();
    const base = crBase(cr);
    if (space.revision === base) return { revision: cr.revision, result: 'update' };
    if (cr.revision === base) {
      // Nothing changed in the change request yet: it moves to the space's revision.
      cr.revision = space.revision;
    } else {
      const now = await mergeNow(ctx, updatable);
      ({ space, cr } = now);
      const { merged } = now;
      if (merged.conflicts.length > 0) return conflictsResult(cr.revision, merged.conflicts);
      commitToChangeRequest(ctx.store, cr, merged.content, `Update from space revision ${space.revision}`, [cr.revision, space.revision], { type: 'update' });
    }
    cr.revisionMergedAncestor = space.revision;
    touchChangeRequest(ctx, cr);
    return { revision: cr.revision, result: 'update' };
  },

  getChangeRequestPdf: (ctx, { params, query }) => {
    const { space, cr, scope } = readable(ctx, params);
    // The document accepts `only` without `page`; the sandbox has no page to make it alone.
    if (query.only && query.page === undefined) throw badRequest('page: only=true needs a page');
    const page = query.page === undefined ? undefined : pageIn(scope, cr, query.page).page;
    const claims = { space: space.id, cr: cr.id, revision: cr.revision, ...(page ? { page: page.id } : {}), ...(query.only ? { only: 'true' } : {}) };
    return { url: downloadUrl(ctx.store, ctx.baseUrl, PDF_DOWNLOAD, claims, pdfFilename(cr, page)) };
  },

  getChangeRequestContent: (ctx, { params, query }) => revisionView(readable(ctx, params).scope, query),

  importChangeRequestContent: async (ctx, { params, body }) => {
    const what = 'importing content into a change request';
    writable(ctx, params, what);
    // The change request may change while the site is read: checked again, and the pages placed on its latest revision.
    const { committed, ...counts } = await importWebsite(ctx.store, body.url, ctx.connection, {
      latest: () => contentAt(ctx.store, writable(ctx, params, what).cr.revision),
      commit: (content) => {
        const { cr } = writable(ctx, params, what);
        const rev = commitToChangeRequest(ctx.store, cr, content, `Import from ${body.url}`);
        touchChangeRequest(ctx, cr);
        return rev;
      },
    });
    return { revision: committed.id, ...counts };
  },

  listChangeRequestPages: (ctx, { params, query }) => {
    const { scope } = readable(ctx, params);
    return { pages: pageTree(scope, scope.content.pages, '', query) };
  },

  listChangeRequestFiles: (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const page = paginate(scope.content.files, query, (f) => f.id, scopeOf('cr-files', cr.id));
    return { ...page, items: page.items.map((f) => fileView(scope, f, query)) };
  },

  getChangeRequestFile: (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    return fileView(scope, fileIn(scope, cr, params.fileId), query);
  },

  listChangeRequestFileBacklinks: async (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const file = fileIn(scope, cr, params.fileId);
    const all = backlinks(scope, await linksInSlices(scope.content, ctx.baseUrl), { file: file.id });
    return paginate(all, query, (b) => b.page ?? '', scopeOf('cr-file-backlinks', cr.id, file.id));
  },

  getChangeRequestPage: (ctx, { params, query }) =>
    withDocuments((documentOf) => {
      const { cr, scope } = readable(ctx, params);
      const { page, path } = pageIn(scope, cr, params.pageId);
      // Every variable is deterministic, so `deterministic-only` evaluates them all; the sandbox has no
      // reusable contents, so `dereferenced` leaves every page as it is.
      return pageView(scope, page, path, { ...query, format: query.format ?? 'document', evaluated: Boolean(query.evaluated), documentOf });
    }),

  listChangeRequestPageLinks: async (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const { page } = pageIn(scope, cr, params.pageId);
    const base = contentAt(ctx.store, crBase(cr));
    const items = await linkItemsInSlices(
      scope,
      (await linksInSlices(scope.content, ctx.baseUrl)).filter((l) => l.from.id === page.id),
    );
    // Broken links this change request introduced: broken here, not broken in the page at the base revision.
    const before = new Set(
      (await linksInSlices(base, ctx.baseUrl)).filter((l) => l.from.id === page.id && l.status === 'broken').map((l) => JSON.stringify(l.target)),
    );
    const introduced = items.filter((i) => i.status === 'broken' && !before.has(JSON.stringify(i.targetReference))).length;
    return linkList(items, query, scopeOf('cr-page-links', cr.id, page.id), introduced);
  },
};

/**
 * A change request's PDF, as it was when the link was made: its pages, or one page (and its subpages
 * unless `only`). Made in the sandbox's worker thread (it reads every page's Markdown), within the
 * time the worker may read that much Markdown (markdown-reads.ts); past it, a 503.
 */
async function pdfDownload(store: Store, claims: Record<string, string>) {
  const space = store.data.spaces.get(claims.space);
  const cr = crState(store).byId.get(claims.cr);
  const rev = store.data.revisions.get(claims.revision);
  if (!space || space.deletedAt || !cr || !rev) throw notFound('no such download: its change request no longer exists');
  const content = contentOf(rev);
  let pages: PageRec[] = [...walkPages(content.pages)].map((e) => e.page);
  if (claims.page !== undefined) {
    const entry = findPage(content, claims.page);
    if (!entry) throw notFound(`no such download: page ${claims.page} is gone`);
    pages = claims.only ? [entry.page] : [...walkPages([entry.page])].map((e) => e.page);
  }
  const title = `${space.title}: change request #${cr.number}${cr.subject ? ` - ${cr.subject}` : ''}`;
  const input = { title, pages: pages.map((p) => ({ title: p.title, markdown: pageMarkdown(content, p, { evaluated: true }) ?? '' })) };
  const timeoutMs = readBoundMs(input.pages.reduce((n, p) => n + p.markdown.length, 0));
  let pdf: Uint8Array;
  try {
    pdf = await sandboxWorker().run('renderPdf', input, { timeoutMs });
  } catch (err) {
    if (err instanceof TaskStopped) throw new HttpError(503, `the PDF could not be made within ${timeoutMs} ms: its pages' Markdown takes too long to read`);
    throw err;
  }
  const body = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  return { contentType: 'application/pdf', filename: pdfFilename(cr, claims.page !== undefined ? pages[0] : undefined), body };
}

export const family = defineFamily({
  ops,
  handlers,
  counters: { space: spaceCountersOf },
  onSpacePurged: dropSpace,
  downloads: { [PDF_DOWNLOAD]: pdfDownload },
});
