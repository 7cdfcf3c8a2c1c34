/** What a plan is made of: changes to show, and the steps that make them. */
import type { CallInput } from '../client/api.js';
import type { AnyOp, OpResult } from '../contract/op.js';

export type ItemKind = 'collection' | 'space' | 'site' | 'section' | 'group' | 'site-space' | 'member' | 'saml' | 'openapi';
type Action = 'create' | 'update' | 'move' | 'delete';

export interface FieldChange {
  field: string;
  /** Absent for a value that does not exist yet. */
  from?: unknown;
  to: unknown;
}

/** The request body that makes these changes: each field set to its new value. */
export function bodyOf(fields: FieldChange[]): Record<string, never> {
  return Object.fromEntries(fields.map((f) => [f.field, f.to])) as Record<string, never>;
}

/** One change, as plan shows it and apply reports it. */
export interface Change {
  kind: ItemKind;
  action: Action;
  key: string;
  id?: string;
  /** The site key, for a site's sections, groups and site spaces. */
  site?: string;
  title?: string;
  fields?: FieldChange[];
  /** What else happens, or why (`its 2 spaces go to the trash with it`). */
  note?: string;
}

/** A difference apply cannot make (a read-only field, a member who is not there). */
export interface Drift {
  kind: ItemKind;
  key: string;
  id?: string;
  site?: string;
  field?: string;
  live?: unknown;
  file?: unknown;
  why: string;
}

/** An item the service has and the file does not (deleted only with --prune). */
export interface Kept {
  kind: ItemKind;
  key: string;
  id: string;
  site?: string;
  title?: string;
}

/** What steps run with: requests (bounded, safe on 429), and the ids learnt so far. */
export interface Exec {
  organizationId: string;
  send<O extends AnyOp>(op: O, input?: CallInput<O>): Promise<OpResult<O>>;
  /** Ids by `kind:key` (and `site/kind/key` for a site's parts): matched ones, then created ones. */
  ids: Map<string, string>;
  /** The id of a `kind:key`, or an error saying it is not known (yet). */
  idOf(ref: string): string;
}
