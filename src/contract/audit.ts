/**
 * The organization's audit log (the official document's audit events): what changed, who changed
 * it, on which object, and when. Admins read it; the sandbox records an event for every change it
 * serves (src/server/audit/).
 */
import { z } from 'zod';
import { defineOp, limitQuery, pageQuery, pathId, Timestamp, listOf } from './op.js';

const AUDIT_ACTOR_TYPES = ['user', 'integration', 'installation', 'system', 'support'] as const;
const AUDIT_SOURCES = ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] as const;
/** The official document's `format: uuid` (the rule its validators apply). */
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
/** Events a page holds at most (the official document's). */
const AUDIT_PAGE_MAX = 100;
/** Events a page holds unless `limit` says otherwise (the official document's default). */
export const AUDIT_PAGE_DEFAULT = 20;

function auditEventShape() {
  return {
    object: z.literal('audit-event'),
    id: z.string(),
    occurredAt: Timestamp,
    /** A stable name of the change (the sandbox's: its operation's id, e.g. `createTeam`). */
    action: z.string(),
    actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string(), label: z.string().optional() }),
    source: z.enum(AUDIT_SOURCES),
    /** The object changed: its kind (`team`, `space`, …), id and label when the event was recorded. */
    target: z.object({ type: z.string(), id: z.string(), label: z.string().optional() }),
    urls: z.object({ location: z.string() }),
  };
}

const AuditEvent = z.lazy(() => z.object(auditEventShape()));
export type AuditEvent = z.infer<typeof AuditEvent>;

/** One event with its details (the official document's AuditEventDetails). */
const AuditEventDetails = z.lazy(() =>
  z.object({
    ...auditEventShape(),
    executionId: z.string().optional(),
    correlationId: z.string().optional(),
    causedByEventId: z.string().optional(),
    schemaVersion: z.number().int().min(1),
    payload: z.record(z.string(), z.unknown()),
  }),
);

const AuditEventAction = z.lazy(() => z.object({ object: z.literal('audit-event-action'), id: z.string(), label: z.string() }));
export type AuditEventAction = z.infer<typeof AuditEventAction>;

/** A time as the official document's `format: date-time` (RFC 3339: a date, a time, a zone). */
const dateTime = () => z.iso.datetime({ offset: true, local: false, error: 'must be a date and time such as 2026-01-02T03:04:05Z' });

const org = z.object({ organizationId: pathId() });

export const ops = {
  listAuditEvents: defineOp({
    id: 'listAuditEvents',
    method: 'GET',
    path: '/orgs/{organizationId}/audit-events',
    params: org,
    query: z.object({
      page: pageQuery.page,
      limit: limitQuery(1, AUDIT_PAGE_MAX),
      /** Events at or after this time. */
      from: dateTime().optional(),
      /** Events at or before this time. */
      to: dateTime().optional(),
      action: z.string().optional(),
      /** The actor's id. */
      actor: z.string().optional(),
      /** The target's id. */
      target: z.string().optional(),
    }),
    response: listOf(AuditEvent),
    paginated: true,
  }),
  getAuditEvent: defineOp({
    id: 'getAuditEvent',
    method: 'GET',
    path: '/orgs/{organizationId}/audit-events/{auditEventId}',
    params: z.object({ organizationId: pathId(), auditEventId: z.string().regex(UUID, { message: 'must be a UUID' }) }),
    response: AuditEventDetails,
  }),
  listAuditEventActions: defineOp({
    id: 'listAuditEventActions',
    method: 'GET',
    path: '/orgs/{organizationId}/audit-event-actions',
    params: org,
    response: z.lazy(() => z.object({ items: z.array(AuditEventAction) })),
    cacheable: true,
  }),
};
