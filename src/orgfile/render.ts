/** A plan as people read it (grouped by kind, `+ ~ → -`, a summary line) and as machines do (--json). */
import type { Plan, Summary } from './plan.js';
import type { Change, FieldChange, ItemKind } from './steps.js';
import { plural } from '../cli/text.js';

const SYMBOL = { create: '+', update: '~', move: '→', delete: '-' } as const;

const KIND_TITLES: [ItemKind[], string][] = [
  [['collection'], 'Collections'],
  [['space'], 'Spaces'],
  [['site', 'group', 'section', 'site-space'], 'Sites'],
  [['member'], 'Members'],
  [['saml'], 'SAML providers'],
  [['openapi'], 'OpenAPI specifications'],
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

/** `~ space getting-started (Getting started)` and its fields, indented. */
export function changeLines(c: Change): string[] {
  const name = `${c.kind} ${c.site ? `${c.site}/` : ''}${c.key}`;
  const head = `${SYMBOL[c.action]} ${name}${c.title && c.title !== c.key ? ` (${c.title})` : ''}`;
  const lines = [head];
  for (const f of c.fields ?? []) lines.push(`    ${fieldText(f)}`);
  if (c.note) lines.push(`    ${c.note}`);
  return lines;
}

function summaryLine(s: Summary): string {
  const total = s.create + s.update + s.move + s.delete;
  if (total === 0) return 'No changes: the organization is as the file says.';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.move} to move, ${s.delete} to delete.`;
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
  const { kind, action, key, id, site, title, fields, note } = c;
  return {
    kind,
    action,
    key,
    ...(id !== undefined ? { id } : {}),
    ...(site !== undefined ? { site } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(fields ? { fields } : {}),
    ...(note !== undefined ? { note } : {}),
  };
}
