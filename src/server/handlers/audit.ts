/**
 * The organization's audit log (contract/audit.ts), for its admins (the official document: "Access
 * is restricted to organization administrators"). The sandbox has no plans: every organization has
 * its log. Events are recorded by audit/model.ts, for every family's writes.
 */
import { AUDIT_PAGE_DEFAULT, type AuditEvent, type AuditEventAction, ops } from '../../contract/audit.js';
import { families } from '../../contract/index.js';
import type { AnyOp } from '../../contract/op.js';
import { orgFor, requireRole } from '../access.js';
import { actionLabel, audited, auditState, eventsOf, type AuditEventRec } from '../audit/model.js';
import { notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';

function eventView(ctx: HandlerCtx, e: AuditEventRec): AuditEvent {
  return {
    object: 'audit-event',
    id: e.id,
    occurredAt: e.occurredAt,
    action: e.action,
    actor: e.actor,
    source: 'api',
    target: e.target,
    urls: { location: `${ctx.baseUrl}/v1/orgs/${e.org}/audit-events/${e.id}` },
  };
}

/** Every action the sandbox records: its audited operations, by id. */
let actions: AuditEventAction[] | undefined;
function allActions(): AuditEventAction[] {
  actions ??= Object.values(families)
    .flatMap((f) => Object.values(f) as AnyOp[])
    .filter(audited)
    .map((op) => ({ object: 'audit-event-action' as const, id: op.id, label: actionLabel(op) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return actions;
}

const handlers: Handlers<typeof ops> = {
  listAuditEvents: (ctx, { params, query }) => {
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'admin', 'reading the audit log');
    const { page: _page, limit, ...filter } = query;
    const events = eventsOf(ctx.store, params.organizationId, filter);
    const page = paginate(events, { ...query, limit: limit ?? AUDIT_PAGE_DEFAULT }, (e) => e.id, scopeOf('audit', params.organizationId, filter));
    return { ...page, items: page.items.map((e) => eventView(ctx, e)) };
  },

  getAuditEvent: (ctx, { params }) => {
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'admin', 'reading the audit log');
    const e = auditState(ctx.store).events.get(params.auditEventId.replace(/^urn:uuid:/i, '').toLowerCase());
    if (!e || e.org !== params.organizationId) throw notFound(`no audit event ${params.auditEventId} in organization ${params.organizationId}`);
    return { ...eventView(ctx, e), schemaVersion: 1, payload: e.payload };
  },

  listAuditEventActions: (ctx, { params }) => {
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'admin', 'reading the audit log');
    return { items: allActions() };
  },
};

export const family = defineFamily({ ops, handlers });
