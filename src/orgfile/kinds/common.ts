/** What the kinds' differs share: a step, field lists, values as the API takes them, certificates as a plan shows them. */
import { describeLiveCertificate } from '../certificate.js';
import type { LCollection } from '../model.js';
import type { Change, FieldChange, Phase, Step, StepRequest } from '../steps.js';

export function step(phase: Phase, change: Change, requests: StepRequest[], lane?: string): Step {
  return { ...change, phase, ...(lane ? { lane } : {}), requests };
}

export function fieldsOf(values: Record<string, unknown>): FieldChange[] {
  return Object.entries(values).map(([field, to]) => ({ field, to }));
}

/** Site settings as the API takes them (`adaptiveContent: {enabled}`). */
export function apiSettings(values: Record<string, unknown>): Record<string, never> {
  const out: Record<string, unknown> = { ...values };
  if (typeof out.adaptiveContent === 'boolean') out.adaptiveContent = { enabled: out.adaptiveContent };
  return out as Record<string, never>;
}

export function emptySchema() {
  return { type: 'object', properties: {}, additionalProperties: false };
}

/** A certificate's base64 body, for comparing PEM with a bare body. */
export function certificateBody(text: string): string {
  return text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** A field change whose values are sent but not shown: `shown` is what a plan shows instead. */
export type ShownField = FieldChange & { shown?: { from?: string; to: string | undefined } };

/** A certificate is not shown in a plan: its fingerprint is (and where the file's comes from). */
export function shown(f: ShownField): FieldChange {
  if (!f.shown) return f;
  return { field: f.field, ...(f.shown.from !== undefined ? { from: f.shown.from } : {}), to: f.shown.to };
}

/** The service's certificate as a plan shows it: its fingerprint, or `(none)`. */
export function liveCertificate(text: string): { from: string } {
  return { from: describeLiveCertificate(text) ?? '(none)' };
}

export function subtree(collections: LCollection[], id: string): Set<string> {
  const out = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of collections)
      if (c.parent && out.has(c.parent) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
  }
  return out;
}
