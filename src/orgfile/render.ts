/** A plan as people read it (grouped by kind, `+ ~ → -`, a summary line) and as machines do (--json). */
import type { Plan, Summary } from './plan.js';
import type { Change, FieldChange, ItemKind } from './steps.js';
import { plural } from '../cli/text.js';

const SYMBOL = { create: '+', update: '~', move: '→', delete: '-', restore: '↺' } as const;

const KIND_TITLES: [ItemKind[], string][] = [
  [['collection'], 'Collections'],
  [['space'], 'Spaces'],
  [['site', 'group', 'section', 'site-space'], 'Sites'],
  [['team', 'team-member'], 'Teams'],
  [['member'], 'Members'],
  [['saml'], 'SAML providers'],
  [['openapi'], 'OpenAPI specifications'],
  [['organization'], 'Organization settings'],
  [['grant'], 'Access'],
];

function value(v: unknown): string {
  if (v === undefined) return '(none)';
  if (typeof v === 'string') return JSON.stringify(v);
  const text = JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function fieldText(f: FieldChange): string {
  return 'from' in f ? `${f.field}: ${value(f.from)} → ${value(f.to)}` : `${f.field}: ${value(f.to)}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The differences between two nested values, leaf by leaf (`mergeRules.rules[0].users[0]: "rex" →
 * "ann"`): a changed reviewer is seen, not two long values cut at the same place.
 */
function leafChanges(path: string, from: unknown, to: unknown, out: string[]): string[] {
  if (isRecord(from) && isRecord(to)) {
    for (const k of [...new Set([...Object.keys(from), ...Object.keys(to)])]) leafChanges(`${path}.${k}`, from[k], to[k], out);
  } else if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    from.forEach((x, i) => leafChanges(`${path}[${i}]`, x, to[i], out));
  } else if (JSON.stringify(from) !== JSON.stringify(to)) {
    out.push(`${path}: ${value(from)} → ${value(to)}`);
  }
  return out;
}

/** A field's lines: `field: old → new`, or for nested values each leaf that differs. */
function fieldLines(f: FieldChange): string[] {
  const nested = (v: unknown) => isRecord(v) || Array.isArray(v);
  if ('from' in f && nested(f.from) && nested(f.to)) {
    const leaves = leafChanges(f.field, f.from, f.to, []);
    if (leaves.length) return leaves;
  }
  return [fieldText(f)];
}

/** `~ space getting-started (Getting started)` and its fields, indented; `!` what cannot be undone. */
export function changeLines(c: Change): string[] {
  const name = `${c.kind} ${c.site ? `${c.site}/` : ''}${c.key}`;
  const head = `${SYMBOL[c.action]} ${name}${c.title && c.title !== c.key ? ` (${c.title})` : ''}`;
  const lines = [head];
  for (const f of c.fields ?? []) lines.push(...fieldLines(f).map((l) => `    ${l}`));
  if (c.note) lines.push(`    ${c.note}`);
  if (c.irreversible) lines.push(`    ! cannot be undone: ${c.irreversible}`);
  return lines;
}

function summaryLine(s: Summary): string {
  const total = s.create + s.update + s.move + s.delete + (s.restore ?? 0);
  if (total === 0) return 'No changes: the organization is as the file says.';
  return `Plan: ${s.create} to create, ${s.restore ? `${s.restore} to restore, ` : ''}${s.update} to update, ${s.move} to move, ${s.delete} to delete.`;
}

/** `2 of them cannot be undone (!)`, when some cannot. */
function irreversibleLine(changes: Change[]): string | undefined {
  const n = changes.filter((c) => c.irreversible).length;
  return n ? `${n === 1 ? 'One change' : `${n} changes`} cannot be undone (marked !): read them before applying.` : undefined;
}

/** What a plan shows: a plan just made, or a saved one. */
export type Shown = Pick<Plan, 'organization' | 'source' | 'prune' | 'changes' | 'drift' | 'kept' | 'summary'>;

export function renderPlan(plan: Shown): string {
  const out: string[] = [`Organization ${plan.organization}, from ${plan.source}${plan.prune ? ' (--prune)' : ''}`, ''];
  for (const [kinds, title] of KIND_TITLES) {
    const changes = plan.changes.filter((c) => kinds.includes(c.kind));
    if (!changes.length) continue;
    out.push(`${title}:`);
    for (const c of changes) out.push(...changeLines(c).map((l) => `  ${l}`));
    out.push('');
  }
  if (plan.drift.length) {
    out.push('Not applied (apply cannot make these):');
    for (const d of plan.drift) {
      const name = `${d.kind} ${d.site ? `${d.site}/` : ''}${d.key}`;
      out.push(`  ! ${name}${d.field ? ` ${d.field}: ${value(d.live)} (file: ${value(d.file)})` : ''}: ${d.why}`);
    }
    out.push('');
  }
  if (plan.kept.length && !plan.prune) {
    const shown = plan.kept.slice(0, 10).map((k) => `${k.kind} ${k.site ? `${k.site}/` : ''}${k.key}`);
    out.push(
      `Kept: ${plural(plan.kept.length, 'item')} of the kinds the file declares ${plan.kept.length === 1 ? 'is' : 'are'} not in it (--prune deletes them): ${shown.join(', ')}${plan.kept.length > 10 ? ', …' : ''}`,
    );
    out.push('');
  }
  const irreversible = irreversibleLine(plan.changes);
  if (irreversible) out.push(irreversible);
  out.push(summaryLine(plan.summary));
  return out.join('\n') + '\n';
}

/** The plan for machines: every change with its fields, what cannot be applied, what is kept. */
export function planJson(plan: Shown) {
  return {
    organization: plan.organization,
    source: plan.source,
    prune: plan.prune,
    summary: plan.summary,
    changes: plan.changes.map(changeOf),
    drift: plan.drift,
    kept: plan.kept,
  };
}

/** A change as shown: without the requests that make it (a certificate's text is sent, never shown). */
function changeOf(c: Change): Change {
  const { kind, action, key, id, site, title, fields, note, irreversible } = c;
  return {
    kind,
    action,
    key,
    ...(id !== undefined ? { id } : {}),
    ...(site !== undefined ? { site } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(fields ? { fields } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(irreversible !== undefined ? { irreversible } : {}),
  };
}
