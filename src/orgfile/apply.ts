/**
 * Applying a plan: its steps, as data, and nothing else. Phase by phase (PHASES: creations top-down,
 * moves, the organization's kinds, deletions bottom-up); within a phase side by side, the steps of a
 * lane (a site's) in order, and a step that needs an id another step of the phase makes (a
 * collection inside a new one) after it. Each request goes through the pool. On a failure no new
 * step starts, the running ones finish, and the report says what was applied and what was not; the
 * next run plans from what the service has then, so it continues.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, CheckoutNeededError } from '../client/errors.js';
import { ops as collectionOps } from '../contract/collections.js';
import { ops as memberOps } from '../contract/members.js';
import type { AnyOp } from '../contract/op.js';
import { ops as openapiOps, type OpenAPISpec } from '../contract/openapi.js';
import { ops as orgOps } from '../contract/orgs.js';
import { ops as permissionOps } from '../contract/permissions.js';
import { ops as teamOps } from '../contract/teams.js';
import { ops as samlOps } from '../contract/saml.js';
import { isCheckout, ops as siteOps } from '../contract/sites.js';
import { ops as spaceOps } from '../contract/spaces.js';
import type { Reader } from './live.js';
import { ORG_FILE_LIMITS } from './limits.js';
import { PHASES, refsIn, resolveRefs, type Change, type Step, type StepRequest } from './steps.js';

/** The operations a plan's requests name, by their id. */
const OPS = new Map<string, AnyOp>(
  Object.values({ ...collectionOps, ...spaceOps, ...siteOps, ...memberOps, ...samlOps, ...openapiOps, ...teamOps, ...permissionOps, ...orgOps }).map((op) => [
    op.id,
    op as AnyOp,
  ]),
);

/** Whether the contract has an operation of that id (a saved plan's requests are checked with it). */
export function knownOperation(id: string): boolean {
  return OPS.has(id);
}

/** What apply runs: the plan's steps, and the ids known when it was made (`kind:key` → id). */
export interface Runnable {
  organization: string;
  steps: Step[];
  ids: Map<string, string>;
}

export interface ApplyResult {
  applied: Change[];
  /** Changes of steps that did not run or did not finish. */
  notApplied: Change[];
  error?: unknown;
  requests: number;
}

/** A specification whose processing failed (or did not end in time): the apply fails, naming it. */
class ProcessingFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessingFailed';
  }
}

export async function applyPlan(plan: Runnable, reader: Reader, onDone: (change: Change) => void): Promise<ApplyResult> {
  const ids = new Map(plan.ids);
  const idOf = (name: string) => {
    const id = ids.get(name);
    if (id === undefined) throw new Error(`no id known for ${name} (it should have been made earlier in this apply)`);
    return id;
  };
  const applied: Step[] = [];
  const before = reader.pool.requests;
  let error: unknown;

  const send = async (r: StepRequest): Promise<void> => {
    const op = OPS.get(r.op);
    if (!op) throw new Error(`the plan names an operation docsctl does not know: ${r.op}`);
    const params = resolveRefs(r.params, idOf) as Record<string, string>;
    const input = { params, ...(r.body !== undefined ? { body: resolveRefs(r.body, idOf) } : {}) } as never;
    let answer: unknown;
    try {
      answer = await reader.call(op, input);
    } catch (e) {
      if (!(r.onPathTaken && e instanceof ApiError && e.status === 400 && /path/.test(e.message))) throw e;
      for (const first of r.onPathTaken) await send(first);
      answer = await reader.call(op, input);
    }
    if (r.checkout && isCheckout(answer as never)) throw new CheckoutNeededError(params.siteId, (answer as { sessionId: string }).sessionId);
    for (const [name, where] of Object.entries(r.saves ?? {})) {
      const id = pick(answer, where);
      if (typeof id !== 'string') throw new Error(`the answer to ${r.op} has no ${where} (for ${name})`);
      ids.set(name, id);
    }
    if (r.waitProcessing) await waitProcessed(reader, params.organizationId, (r.body as { slug?: string } | undefined)?.slug ?? params.specSlug);
  };

  for (const phase of PHASES) {
    const steps = plan.steps.filter((s) => s.phase === phase);
    if (!steps.length) continue;
    // What a step waits for: the steps of this phase that make the ids it needs, and its lane's previous step.
    const maker = new Map<string, Step>();
    for (const s of steps) for (const r of s.requests) for (const name of Object.keys(r.saves ?? {})) maker.set(name, s);
    const laneBefore = new Map<Step, Step>();
    const laneLast = new Map<string, Step>();
    for (const s of steps) {
      if (!s.lane) continue;
      const previous = laneLast.get(s.lane);
      if (previous) laneBefore.set(s, previous);
      laneLast.set(s.lane, s);
    }
    const started = new Map<Step, Promise<void>>();
    const start = (s: Step): Promise<void> => {
      let run = started.get(s);
      if (run) return run;
      const waits = refsIn(s.requests.map((r) => [r.params, r.body]))
        .map((name) => maker.get(name))
        .filter((m): m is Step => m !== undefined && m !== s);
      const previous = laneBefore.get(s);
      if (previous) waits.push(previous);
      run = Promise.all(waits.map(start)).then(async () => {
        if (error !== undefined) return;
        try {
          for (const r of s.requests) await send(r);
          applied.push(s);
          onDone(s);
        } catch (e) {
          error ??= e;
        }
      });
      started.set(s, run);
      return run;
    };
    const running = steps.map(start);
    await Promise.all(running);
    if (error !== undefined) break;
  }
  const done = new Set<Change>(applied);
  const notApplied = error === undefined ? [] : plan.steps.filter((s) => !done.has(s));
  return { applied, notApplied, ...(error !== undefined ? { error } : {}), requests: reader.pool.requests - before };
}

/** `siteSpaces.-1.id`: a property path, `-1` the last element of an array. */
function pick(v: unknown, where: string): unknown {
  let at = v;
  for (const part of where.split('.')) {
    if (Array.isArray(at)) at = at[part === '-1' ? at.length - 1 : Number(part)];
    else if (at && typeof at === 'object') at = (at as Record<string, unknown>)[part];
    else return undefined;
  }
  return at;
}

/** Poll a specification until its processing ends; a failed processing (or one that does not end in time) fails the apply. */
async function waitProcessed(reader: Reader, organizationId: string, specSlug: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    const spec: OpenAPISpec = await reader.call(openapiOps.getOpenAPISpec, { params: { organizationId, specSlug } });
    if (spec.processingState === 'complete') {
      if (spec.lastProcessErrorCode === undefined) return;
      const first = spec.lastProcessedErrors?.[0]?.message;
      throw new ProcessingFailed(
        `OpenAPI specification ${spec.slug}: processing failed: ${spec.lastProcessErrorCode}${first ? ` (${first})` : ''}${spec.lastVersion ? `; the previous version ${spec.lastVersion} is kept` : ''}`,
      );
    }
    if (performance.now() - started > ORG_FILE_LIMITS.openapiWaitMs) {
      throw new ProcessingFailed(
        `OpenAPI specification ${spec.slug}: still ${spec.processingState} after ${ORG_FILE_LIMITS.openapiWaitMs / 1000} s (the service goes on processing it)`,
      );
    }
    await sleep(ORG_FILE_LIMITS.openapiPollMs);
  }
}
