/**
 * A family of the sandbox as one explicit record (as moto's backends): its operations and their
 * handlers, the counters it contributes to other families' views, what it does when a space is
 * purged or a whole state is loaded, and the downloads it serves. `routes.ts` assembles them; the
 * store is given the list (`new Store(clock, families)`). No family registers anything on import.
 */
import type { AnyOp } from '../contract/op.js';
import type { Handler, Handlers } from './handler.js';
import type { FamilyHooks, SpaceCounters, Store } from './store.js';

export interface Family<T extends Record<string, AnyOp> = Record<string, AnyOp>> extends FamilyHooks {
  /** The contract's operations of the family (routes.ts checks each family serves its own). */
  ops: T;
  routes: { op: AnyOp; handler: Handler<AnyOp> }[];
}

/** A family: its operations with their handlers (a missing handler does not compile), and its hooks. */
export function defineFamily<T extends Record<string, AnyOp>>(def: { ops: T; handlers: Handlers<T> } & FamilyHooks): Family<T> {
  const { ops, handlers, ...hooks } = def;
  return { ...hooks, ops, routes: Object.keys(ops).map((k) => ({ op: ops[k] as AnyOp, handler: handlers[k] as Handler<AnyOp> })) };
}

/** A space's counters as every family contributes them (zero where none does). */
export function spaceCounters(store: Store, spaceId: string): SpaceCounters {
  const counters: SpaceCounters = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };
  for (const f of store.families) Object.assign(counters, f.counters?.space?.(store, spaceId));
  return counters;
}

/** A change request's counters as every family contributes them. */
export function changeRequestCounters(store: Store, cr: { id: string; space: string }): { comments: number } {
  const counters = { comments: 0 };
  for (const f of store.families) Object.assign(counters, f.counters?.changeRequest?.(store, cr));
  return counters;
}
