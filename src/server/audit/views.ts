/** The API objects of the audit log (contract/audit.ts). */
import type { AuditEvent } from '../../contract/audit.js';
import type { HandlerCtx } from '../handler.js';
import type { AuditEventRec } from './model.js';

/** An event as listed (the source is always `api`: the sandbox has no app, integrations or workflows). */
export function eventView(ctx: HandlerCtx, e: AuditEventRec): AuditEvent {
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
