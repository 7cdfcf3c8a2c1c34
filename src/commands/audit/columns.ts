/** How audit events show in tables and key/value lines. */
import { withExtras, type Column } from '../../cli/output.js';

type Event = {
  id: string;
  occurredAt: string;
  action: string;
  source: string;
  actor: { type: string; id: string; label?: string };
  target: { type: string; id: string; label?: string };
};

/** `Ada Admin (u_1)`, or the id alone. */
const who = (x: { id: string; label?: string }) => (x.label ? `${x.label} (${x.id})` : x.id);

export const auditFields: Column<Event>[] = [
  'id',
  'occurredAt',
  'action',
  { key: 'actor', value: (e) => who(e.actor) },
  { key: 'target', value: (e) => `${e.target.type} ${who(e.target)}` },
  'source',
  { key: 'actorType', value: (e) => e.actor.type },
  { key: 'actorId', value: (e) => e.actor.id },
  { key: 'targetType', value: (e) => e.target.type },
  { key: 'targetId', value: (e) => e.target.id },
];
export const auditColumns: Column<Event>[] = withExtras(auditFields.slice(0, 5), auditFields);
