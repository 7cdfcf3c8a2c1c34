/**
 * Change requests: the family's records and state (numbered per space), who may edit and merge them,
 * the merge rules, the filters and order of the lists, and the changes themselves: create, edit,
 * merge into the space, update from the space (three-way merges, content/merge.ts), apply a template.
 * Each has its own line of revisions (its content), branched from the space's revision.
 */
import type {
  ChangeRequest,
  ChangeRequestFilters,
  ChangeRequestStatus,
  ConflictingPage,
  CreateChangeRequestBody,
  MergeResult,
  UpdateChangeRequestBody,
} from '../../contract/change-requests.js';
import type { LinkItem } from '../../contract/content.js';
import type { MergeRule } from '../../contract/spaces.js';
import type { Actor } from '../access.js';
import {
  applyTemplate,
  commitToSpace,
  contentOf,
  describePages,
  findFile,
  findPage,
  mergeInSlices,
  newRevision,
  revisionOf,
  type ContentScope,
  type LinkOccurrence,
  type RevisionContent,
  type RevisionKind,
  type TemplateParams,
} from '../content/index.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { effectiveMergeRules } from '../orgs/model.js';
import { encode } from '../persist/codec.js';
import { siteSpacesOf, sitesState } from '../sites/state.js';
import { spaceFor, templateFiles, visibleSpaces, type SpacePermissions } from '../spaces/model.js';
import type { RevisionRec, SpaceRec, Store } from '../store.js';

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
export function spaceCountersOf(store: Store, spaceId: string) {
  const all = spaceChangeRequests(store, spaceId);
  return {
    changeRequests: all.length,
    changeRequestsOpen: all.filter((cr) => cr.status === 'open').length,
    changeRequestsDraft: all.filter((cr) => cr.status === 'draft').length,
  };
}

export function dropSpace(store: Store, spaceId: string): void {
  const state = crState(store);
  for (const id of state.bySpace.get(spaceId) ?? []) state.byId.delete(id);
  state.bySpace.delete(spaceId);
}

/** The space revision a change request's changes are measured from: where it branched, or its last update. */
export function crBase(cr: ChangeRequestRec): string {
  return cr.revisionMergedAncestor ?? cr.revisionInitial;
}

/** A change request is outdated when the space's revision moved since it branched or was last updated. */
export function isOutdated(space: SpaceRec, cr: ChangeRequestRec): boolean {
  return cr.status !== 'merged' && space.revision !== crBase(cr);
}

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
export function mergeForbidden(actor: Actor, space: SpaceRec, permissions: SpacePermissions, cr: ChangeRequestRec): string | undefined {
  if (!permissions.merge) return `merging a change request needs the review role or above on space ${space.id}`;
  if (space.editMode === 'locked') return `space ${space.id} is locked (editMode locked): nothing can be merged into it`;
  return mergeRulesFailure(rulesOf(actor.store, space), {
    space: space.id,
    number: cr.number,
    merger: actor.caller.user.id,
    author: cr.createdBy,
    outdated: isOutdated(space, cr),
    subject: cr.subject,
    described: hasText(cr.description),
  });
}

/** Draft and open change requests can be merged; an archived one must be reopened first. */
export const MERGEABLE: readonly ChangeRequestStatus[] = ['draft', 'open'];

/**
 * A change request of a space the caller may see, by id or by number, with the caller's role and
 * permissions on the space. 404 when it is not in that space.
 */
export function crFor(actor: Actor, spaceId: string, ref: string) {
  const found = spaceFor(actor, spaceId);
  const state = crState(actor.store);
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
export function touchChangeRequest(actor: Actor, cr: ChangeRequestRec): void {
  cr.updatedAt = actor.store.now();
  if (!cr.contributors.includes(actor.caller.user.id)) cr.contributors.push(actor.caller.user.id);
}

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

/**
 * Apply a template to a change request's content (`POST {s}/content/template` with
 * `changeRequestId`): a new revision of the change request; the space does not move.
 */
export function applyTemplateToChangeRequest(actor: Actor, spaceId: string, ref: string, id: string, params?: TemplateParams): void {
  const { cr } = writable(actor, { spaceId, changeRequestId: ref }, 'applying a template to a change request');
  const content = applyTemplate(actor.store, cr.space, contentAt(actor.store, cr.revision), id, params, templateFiles(actor));
  commitToChangeRequest(actor.store, cr, content, `Apply template ${id}`);
  touchChangeRequest(actor, cr);
}

/** A change request whose content the caller may change: edit role, space not locked, not merged. */
export function writable(actor: Actor, params: { spaceId: string; changeRequestId: string }, what: string) {
  const found = crFor(actor, params.spaceId, params.changeRequestId);
  requireCrEdit(found.space, found.permissions, what);
  if (found.cr.status === 'merged') throw badRequest(`${crName(found.cr)} is merged: ${what} is no longer possible`);
  return found;
}

export function pageIn(scope: ContentScope, cr: ChangeRequestRec, pageId: string) {
  const entry = findPage(scope.content, pageId);
  if (!entry) throw notFound(`no page ${pageId} in ${crName(cr)}`);
  return entry;
}

export function fileIn(scope: ContentScope, cr: ChangeRequestRec, fileId: string) {
  const file = findFile(scope.content, fileId);
  if (!file) throw notFound(`no file ${fileId} in ${crName(cr)}`);
  return file;
}

export const contentAt = (store: Store, revisionId: string) => contentOf(revisionOf(store, revisionId));

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
async function mergeNow<T extends { revisions: readonly [string, string, string] }>(actor: Actor, at: () => T) {
  for (let attempt = 1; ; attempt++) {
    const before = at();
    const [base, ours, theirs] = before.revisions.map((id) => contentAt(actor.store, id));
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
  // No site topics and no style guide runs in the sandbox: nothing is linked to one (`finding`: no triage, no effect).
  if (f.topic !== undefined || f.styleguideRun !== undefined) return () => false;
  return (cr: ChangeRequestRec) =>
    statuses.includes(cr.status) &&
    (f.creator === undefined || cr.createdBy === f.creator) &&
    (f.contributor === undefined || cr.contributors.includes(f.contributor)) &&
    (reviewers === undefined || reviewers.includes(f.requestedReviewer!)) &&
    (f.conversationsIssuesCluster === undefined || cr.conversationsIssuesCluster === f.conversationsIssuesCluster);
}

export const filterScope = (f: ChangeRequestFilters) => [
  statusesOf(f),
  f.creator,
  f.contributor,
  f.requestedReviewer,
  f.conversationsIssuesCluster,
  f.orderBy ?? 'updatedAt',
  f.space,
  f.site,
  f.topic,
  f.styleguideRun,
];

/** The spaces a site of the organization publishes (its site spaces); none for another organization's site or a missing one. */
function spacesOfSite(store: Store, orgId: string, siteId: string): Set<string> {
  const st = sitesState(store);
  const site = st.sites.get(siteId);
  return new Set(site && site.org === orgId ? siteSpacesOf(st, site).map((ss) => ss.space) : []);
}

/**
 * Most recent first, by `orderBy` (the document's default: `updatedAt`), then newest created, then by
 * space id and highest number.
 */
function listOrder(f: ChangeRequestFilters) {
  const key = f.orderBy ?? 'updatedAt';
  return (a: { space: SpaceRec; cr: ChangeRequestRec }, b: { space: SpaceRec; cr: ChangeRequestRec }) =>
    b.cr[key].localeCompare(a.cr[key]) || b.cr.createdAt.localeCompare(a.cr.createdAt) || a.space.id.localeCompare(b.space.id) || b.cr.number - a.cr.number;
}

/** A change request of a space: its record, its space, and the caller's permissions on the space. */
export interface FoundChangeRequest {
  space: SpaceRec;
  cr: ChangeRequestRec;
  permissions: SpacePermissions;
}

/** The change requests of a space the caller may see that match the filters, in list order. */
export function listOfSpace(store: Store, space: SpaceRec, f: ChangeRequestFilters): ChangeRequestRec[] {
  return spaceChangeRequests(store, space.id)
    .filter(matches(store, space, f))
    .map((cr) => ({ space, cr }))
    .sort(listOrder(f))
    .map(({ cr }) => cr);
}

/**
 * The change requests of an organization's spaces the caller may see (of `f.space` alone, of the
 * spaces `f.site` publishes) that match the filters, in list order.
 */
export function listOfOrganization(actor: Actor, orgId: string, f: ChangeRequestFilters): FoundChangeRequest[] {
  const found: FoundChangeRequest[] = [];
  const ofSite = f.site === undefined ? undefined : spacesOfSite(actor.store, orgId, f.site);
  const wanted = (s: SpaceRec) => (f.space === undefined || s.id === f.space) && (ofSite === undefined || ofSite.has(s.id));
  for (const space of visibleSpaces(actor, orgId, f.space === undefined && ofSite === undefined ? undefined : wanted)) {
    const { permissions } = spaceFor(actor, space.id);
    for (const cr of spaceChangeRequests(actor.store, space.id).filter(matches(actor.store, space, f))) found.push({ space, cr, permissions });
  }
  return found.sort(listOrder(f));
}

/** A new draft change request of a space, branched from its revision (a template applied to its content). */
export function createChangeRequest(actor: Actor, { space, permissions }: Omit<FoundChangeRequest, 'cr'>, body: CreateChangeRequestBody): ChangeRequestRec {
  const { store } = actor;
  requireCrEdit(space, permissions, 'creating a change request');
  if (body.agentTaskId !== undefined) {
    throw badRequest(`agentTaskId: the sandbox runs no agents, so it cannot implement agent task ${body.agentTaskId}; create the change request without it`);
  }
  // A template applies to the change request's own content (checked before anything is stored).
  const templated = body.template
    ? applyTemplate(store, space.id, contentAt(store, space.revision), body.template.id, body.template.params, templateFiles(actor))
    : undefined;
  const state = crState(store);
  let ids = state.bySpace.get(space.id);
  if (!ids) state.bySpace.set(space.id, (ids = []));
  // Synchronous: the number is taken and the record stored in the same tick.
  const now = store.now();
  const cr: ChangeRequestRec = {
    id: newId(),
    number: ids.length + 1,
    space: space.id,
    status: 'draft',
    subject: body.subject ?? '',
    createdBy: actor.caller.user.id,
    createdAt: now,
    updatedAt: now,
    revision: space.revision,
    revisionInitial: space.revision,
    ...(body.conversationsIssuesCluster !== undefined ? { conversationsIssuesCluster: body.conversationsIssuesCluster } : {}),
    contributors: [actor.caller.user.id],
  };
  if (templated) commitToChangeRequest(store, cr, templated, `Apply template ${body.template!.id}`);
  state.byId.set(cr.id, cr);
  ids.push(cr.id);
  return cr;
}

/** Edit a change request (`PATCH`): subject, description, links, status; a merged one no longer changes. Whether anything changed. */
export function editChangeRequest(actor: Actor, { space, cr, permissions }: FoundChangeRequest, body: UpdateChangeRequestBody): boolean {
  requireCrEdit(space, permissions, 'editing a change request');
  if (cr.status === 'merged') throw badRequest(`change request ${cr.number} is merged: it can no longer be edited`);
  if (Object.keys(body).length === 0) return false;
  const before = encode(cr);
  if (body.subject !== undefined) cr.subject = body.subject;
  if (body.description !== undefined) cr.description = body.description;
  if (body.links !== undefined) cr.links = crLinks(cr, body.links);
  if (body.status !== undefined) cr.status = body.status;
  // The values already there: nothing changed, not even the time of the last change or its contributors.
  if (encode(cr) === before) return false;
  touchChangeRequest(actor, cr);
  return true;
}

/**
 * Merge a change request into its space: checked (the review role, an unlocked space, the merge
 * rules), merged three ways when the space moved since it branched; conflicts change nothing.
 */
export async function mergeChangeRequest(actor: Actor, spaceId: string, ref: string): Promise<MergeResult> {
  const { store } = actor;
  const mergeable = () => {
    const { space, cr, permissions } = crFor(actor, spaceId, ref);
    if (!permissions.merge) throw forbidden(`merging a change request needs the review role or above on space ${space.id}`);
    if (cr.status === 'merged') throw badRequest(`${crName(cr)} is already merged (revision ${cr.revisionMerged})`);
    if (!MERGEABLE.includes(cr.status)) throw badRequest(`${crName(cr)} is ${cr.status}: reopen it (status open) to merge it`);
    const denied = mergeForbidden(actor, space, permissions, cr);
    if (denied) throw forbidden(denied);
    return { space, cr, revisions: [crBase(cr), space.revision, cr.revision] as const };
  };
  const found = mergeable();
  // The space has not moved since the change request branched (or was updated): its content is the result.
  const { space, cr, merged } =
    found.space.revision === crBase(found.cr)
      ? { ...found, merged: { content: contentAt(store, found.cr.revision), conflicts: [] } }
      : await mergeNow(actor, mergeable);
  if (merged.conflicts.length > 0) return conflictsResult(space.revision, merged.conflicts);
  const subject = cr.subject ? `: ${cr.subject}` : '';
  const rev = commitToSpace(store, space, merged.content, `Merge change request #${cr.number}${subject}`, { type: 'merge', mergedFrom: cr.id });
  cr.status = 'merged';
  cr.revisionMerged = rev.id;
  cr.mergedBy = actor.caller.user.id;
  cr.mergedAt = rev.createdAt;
  cr.updatedAt = rev.createdAt;
  return { revision: rev.id, result: 'merge' };
}

/** Bring the space's newer content into a change request (a three-way merge when both moved); conflicts change nothing. */
export async function updateFromSpace(actor: Actor, spaceId: string, ref: string): Promise<MergeResult> {
  const updatable = () => {
    const { space, cr } = writable(actor, { spaceId, changeRequestId: ref }, 'updating a change request');
    return { space, cr, revisions: [crBase(cr), cr.revision, space.revision] as const };
  };
  let { space, cr } = updatable();
  const base = crBase(cr);
  if (space.revision === base) return { revision: cr.revision, result: 'update' };
  if (cr.revision === base) {
    // Nothing changed in the change request yet: it moves to the space's revision.
    cr.revision = space.revision;
  } else {
    const now = await mergeNow(actor, updatable);
    ({ space, cr } = now);
    const { merged } = now;
    if (merged.conflicts.length > 0) return conflictsResult(cr.revision, merged.conflicts);
    commitToChangeRequest(actor.store, cr, merged.content, `Update from space revision ${space.revision}`, [cr.revision, space.revision], { type: 'update' });
  }
  cr.revisionMergedAncestor = space.revision;
  touchChangeRequest(actor, cr);
  return { revision: cr.revision, result: 'update' };
}

/**
 * How many of a page's link items (in the change request) are broken links the change request
 * introduced: broken here, and not broken in the page at the base revision (`before`: that
 * revision's links).
 */
export function introducedBrokenLinks(
  items: readonly Pick<LinkItem, 'status' | 'targetReference'>[],
  before: readonly Pick<LinkOccurrence, 'from' | 'status' | 'target'>[],
  pageId: string,
): number {
  const broken = new Set(before.filter((l) => l.from.id === pageId && l.status === 'broken').map((l) => JSON.stringify(l.target)));
  return items.filter((i) => i.status === 'broken' && !broken.has(JSON.stringify(i.targetReference))).length;
}
