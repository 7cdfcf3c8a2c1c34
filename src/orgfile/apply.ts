/**
 * Applying a plan: phase by phase (collections, their moves, spaces, their moves, sites, the
 * organization's members, SAML and OpenAPI, then deletions); within a phase the lanes side by side
 * (a site's steps are one lane: its structure changes in order), each request through the pool.
 * On a failure no new step starts, the running ones finish, and the report says what was applied
 * and what was not; the next run plans from what the service has then, so it continues.
 */
import { readStructure, type Reader } from './live.js';
import type { ApplyExec, Plan, PlanStep } from './plan.js';
import type { Change } from './steps.js';

export interface ApplyResult {
  applied: Change[];
  /** Changes of steps that did not run or did not finish. */
  notApplied: Change[];
  error?: unknown;
  requests: number;
}

export async function applyPlan(plan: Plan, reader: Reader, onDone: (change: Change) => void): Promise<ApplyResult> {
  const applied: Change[] = [];
  const appliedSet = new Set<Change>();
  // The plan's own map: ids learnt here are what a site's structure, read again, is matched with.
  const ids = plan.ids;
  const x: ApplyExec = {
    organizationId: plan.organization,
    send: (op, input) => reader.call(op, input),
    ids,
    idOf(ref) {
      const id = ids.get(ref);
      if (id === undefined) throw new Error(`no id known for ${ref} (it should have been made earlier in this apply)`);
      return id;
    },
    readStructure: (siteId) => readStructure(reader, plan.organization, siteId),
  };
  const done = (c: Change) => {
    if (appliedSet.has(c)) return;
    appliedSet.add(c);
    applied.push(c);
    onDone(c);
  };
  const before = reader.pool.requests;
  let error: unknown;
  const phases = [...new Set(plan.steps.map((s) => s.phase))].sort((a, b) => a - b);
  for (const phase of phases) {
    const lanes = new Map<string | PlanStep, PlanStep[]>();
    for (const s of plan.steps.filter((st) => st.phase === phase)) {
      const lane = s.lane ?? s;
      lanes.set(lane, [...(lanes.get(lane) ?? []), s]);
    }
    await Promise.all(
      [...lanes.values()].map(async (steps) => {
        for (const s of steps) {
          if (error !== undefined) return;
          try {
            await s.run(x, done);
          } catch (e) {
            error ??= e;
            return;
          }
        }
      }),
    );
    if (error !== undefined) break;
  }
  // A site's structure is read again as it goes, and its later changes made from what is there: on
  // success every planned change is made; on a failure, the planned ones not reported done are left.
  const notApplied = error === undefined ? [] : plan.changes.filter((c) => !appliedSet.has(c));
  return { applied, notApplied, ...(error !== undefined ? { error } : {}), requests: reader.pool.requests - before };
}
