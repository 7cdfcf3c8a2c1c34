/**
 * The organizations' audit log (this family's slice of the state): one event for every change the
 * sandbox serves, recorded by one hook where a successful write finishes (app.ts: `beginAudit`
 * before the handler runs, its `record` after). No HTTP here; handlers/audit.ts serves the log.
 *
 * An event is derived from the operation alone, so every family's writes are covered without code
 * of theirs: its `action` is the operation's id (`createTeam`), its actor the caller, its
 * organization the one the path names (through its space or collection), found before the handler
 * runs (a deleted collection has none after), and its target the object the answer is (`object` and
 * `id`), else the last id of the path (`{teamId}` → a `team`), labelled with its title or name.
 * Its payload says which operation, the ids of the path, and the names of the body's fields (not
 * their values: a body may be large, or hold a certificate). Refused requests record nothing, nor
 * do writes that change nothing (GitBook's log records changes): a write that may find nothing to
 * change (an update giving the values already there) runs in `unlessSame`, which tells the hook.
 */
import { randomUUID } from 'node:crypto';
import type { AnyOp } from '../../contract/op.js';
import type { HandlerCtx } from '../handler.js';
import { encode } from '../persist/codec.js';
import { LIMITS } from '../limits.js';
import type { Store, UserRec } from '../store.js';

export interface AuditEventRec {
  id: string;
  org: string;
  occurredAt: string;
  action: string;
  actor: { type: 'user'; id: string; label: string };
  target: { type: string; id: string; label?: string };
  payload: { operation: string; method: string; params: Record<string, string>; fields?: string[] };
}

/** Operations that change nothing an admin audits: `ping` only records that a member was seen. */
const NOT_AUDITED: ReadonlySet<string> = new Set(['ping']);

/** This family's state: the events by id, oldest first. */
export function auditState(store: Store): { events: Map<string, AuditEventRec> } {
  return store.slice('audit', () => ({ events: new Map<string, AuditEventRec>() }));
}

/** Whether an operation is recorded: every write but NOT_AUDITED. */
export function audited(op: AnyOp): boolean {
  return op.method !== 'GET' && !NOT_AUDITED.has(op.id);
}

/** The action's label: its operation's summary, or its id as words (`createTeam` → `Create team`). */
export function actionLabel(op: AnyOp): string {
  if (op.summary) return op.summary;
  const words = op.id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `changeRequestId` → `change-request`, `specSlug` → `spec`. */
function kindOf(param: string): string {
  return param
    .replace(/(Id|Slug)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

/** The organization a path's ids are in, if any. */
function orgOfParams(store: Store, params: Record<string, string | undefined>): string | undefined {
  if (params.organizationId !== undefined) return store.data.orgs.has(params.organizationId) ? params.organizationId : undefined;
  if (params.spaceId !== undefined) return store.data.spaces.get(params.spaceId)?.org;
  if (params.collectionId !== undefined) return store.data.collections.get(params.collectionId)?.org;
  return undefined;
}

/**
 * Run a write that may find nothing to change (an update giving the values already there, a role
 * set to the role held): `records` are what it may change in place, read before and after it; when
 * they are the same, the write changed nothing and records no audit event (`ctx.unchanged`).
 */
export function unlessSame<T>(ctx: HandlerCtx, records: () => unknown, write: () => T): T {
  const before = encode(records());
  const out = write();
  if (encode(records()) === before) ctx.unchanged = true;
  return out;
}

/** The label of an object the store itself holds (for a target named by the path: a deleted team keeps its title in the log). */
function labelOf(store: Store, kind: string, id: string): string | undefined {
  switch (kind) {
    case 'organization':
      return store.data.orgs.get(id)?.title;
    case 'space':
      return store.data.spaces.get(id)?.title;
    case 'collection':
      return store.data.collections.get(id)?.title;
    case 'team':
      return store.data.teams.get(id)?.title;
    case 'user':
      return store.data.users.get(id)?.displayName;
    default:
      return undefined;
  }
}

/** The object an answer is: `{object, id}` with its title or name. */
function answerTarget(result: unknown): AuditEventRec['target'] | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  if (typeof r.object !== 'string' || typeof r.id !== 'string') return undefined;
  const label = [r.title, r.displayName, r.label, r.subject, r.slug].find((v) => typeof v === 'string' && v !== '');
  return { type: r.object, id: r.id, ...(label !== undefined ? { label: label as string } : {}) };
}

/**
 * Before a write's handler runs: what the event needs that the write may take away (the
 * organization, the label of the object the path names). Undefined when nothing will be recorded.
 * The returned function records the event once the write has succeeded, given its answer.
 */
export function beginAudit(
  store: Store,
  op: AnyOp,
  params: Record<string, string | undefined>,
  body: unknown,
  caller: UserRec,
): ((result: unknown) => void) | undefined {
  if (!audited(op)) return undefined;
  const org = orgOfParams(store, params);
  if (org === undefined) return undefined;
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const last = names[names.length - 1];
  const kind = kindOf(last);
  const id = params[last] ?? '';
  const label = labelOf(store, kind, id);
  const pathTarget = { type: kind, id, ...(label !== undefined ? { label } : {}) };
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : undefined;
  const known = Object.fromEntries(names.map((n) => [n, params[n] ?? '']));
  return (result) => {
    const event: AuditEventRec = {
      id: randomUUID(),
      org,
      occurredAt: store.now(),
      action: op.id,
      actor: { type: 'user', id: caller.id, label: caller.displayName },
      target: answerTarget(result) ?? pathTarget,
      payload: { operation: op.id, method: op.method, params: known, ...(fields ? { fields } : {}) },
    };
    const events = auditState(store).events;
    events.set(event.id, event);
    // Oldest first: past the bound, the first ones go.
    while (events.size > LIMITS.audit.maxEvents) events.delete(events.keys().next().value!);
  };
}

/** An organization's events, newest first, filtered as `listOrganizationAuditEvents` says. */
export function eventsOf(
  store: Store,
  orgId: string,
  filter: { from?: string; to?: string; action?: string; actor?: string; target?: string },
): AuditEventRec[] {
  const from = filter.from === undefined ? -Infinity : Date.parse(filter.from);
  const to = filter.to === undefined ? Infinity : Date.parse(filter.to);
  const out: AuditEventRec[] = [];
  for (const e of auditState(store).events.values()) {
    if (e.org !== orgId) continue;
    const at = Date.parse(e.occurredAt);
    if (at < from || at > to) continue;
    if (filter.action !== undefined && e.action !== filter.action) continue;
    if (filter.actor !== undefined && e.actor.id !== filter.actor) continue;
    if (filter.target !== undefined && e.target.id !== filter.target) continue;
    out.push(e);
  }
  return out.reverse();
}
