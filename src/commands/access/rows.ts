/** How `access who` and `access of` show their answers: one flat row per person or target (tables, TSV, JSON). */
import { withExtras, type Column } from '../../cli/output.js';
import type { Role } from '../../contract/op.js';
import { describeReason, type OrgView, type Person, type Reason, type TargetKind } from './model.js';

/** Where a role comes from: the reason's type, the target whose grant or default level gives it, the team. */
interface Source {
  reason: Reason['type'];
  sourceKind?: TargetKind;
  sourceId?: string;
  team?: string;
  why: string;
}

function sourceOf(org: OrgView, reason: Reason, person: Person): Source {
  return {
    reason: reason.type,
    ...('on' in reason ? { sourceKind: reason.on, sourceId: reason.id } : {}),
    ...(reason.type === 'team' ? { team: reason.team } : {}),
    why: describeReason(org, reason, person),
  };
}

export interface WhoRow extends Source {
  id: string;
  name: string;
  email?: string;
  orgRole: Role | 'guest';
  role: Role;
}

export function whoRow(org: OrgView, person: Person, role: Role, reason: Reason): WhoRow {
  return {
    id: person.id,
    name: person.name,
    ...(person.email ? { email: person.email } : {}),
    orgRole: person.role ?? 'guest',
    role,
    ...sourceOf(org, reason, person),
  };
}

export interface OfRow extends Source {
  kind: TargetKind;
  id: string;
  title: string;
  role: Role;
}

export function ofRow(org: OrgView, person: Person, kind: TargetKind, target: { id: string; title: string }, role: Role, reason: Reason): OfRow {
  return { kind, id: target.id, title: target.title, role, ...sourceOf(org, reason, person) };
}

const source: Column<Source>[] = ['sourceKind', 'sourceId', 'team'];
/** The columns shown; `--fields` may name any field of a row (orgRole, sourceKind, sourceId, team too). */
export const whoColumns: Column<WhoRow>[] = withExtras<WhoRow>(['id', 'name', 'email', 'role', 'reason', 'why'], ['orgRole', ...source]);
export const ofColumns: Column<OfRow>[] = withExtras<OfRow>(['kind', 'id', 'title', 'role', 'reason', 'why'], source);
