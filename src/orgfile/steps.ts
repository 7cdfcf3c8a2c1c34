/** What a plan is made of: changes to show, and the steps that make them. */
import type { AnyOp } from '../contract/op.js';
export type ItemKind =
  | 'collection'
  | 'space'
  | 'site'
  | 'section'
  | 'group'
  | 'site-space'
  | 'team'
  | 'team-member'
  | 'member'
  | 'saml'
  | 'openapi'
  | 'grant'
  | 'organization';
/** `restore`: a space deleted in the app, still in the file with its id, taken out of the trash. */
type Action = 'create' | 'update' | 'move' | 'delete' | 'restore';

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
  /** What cannot be undone, when the change cannot (`they must be invited again`). */
  irreversible?: string;
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

/**
 * An id not known when planning: the one an earlier step's answer gives (`collection:KEY`,
 * `space:KEY`, `site:KEY`, `SITE/section/KEY`…). Stands for a string in a request's params or body.
 */
export interface IdRef {
  $ref: string;
}

export function ref(name: string): IdRef {
  return { $ref: name };
}

function isRef(v: unknown): v is IdRef {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as IdRef).$ref === 'string' && Object.keys(v).length === 1;
}

/** One request of a step, as data: the operation (its id in the contract), its params and body. */
export interface StepRequest {
  op: string;
  params: Record<string, string | IdRef>;
  body?: unknown;
  /** Ids its answer gives, kept for later steps: ref → where in the answer (`id`, `siteSpaces.-1.id`). */
  saves?: Record<string, string>;
  /** publishSite: an answer asking for a checkout is a failure. */
  checkout?: true;
  /** OpenAPI create or put: wait for the processing, and fail when it failed. */
  waitProcessing?: true;
  /** moveSiteSpace: when the service answers that its path is taken there, send these first, then again. */
  onPathTaken?: StepRequest[];
}

/**
 * What apply does, as data (what a saved plan stores): the change it makes, shown by plan, and the
 * requests that make it, sent in order. Steps run phase by phase (see PHASES); within a phase side
 * by side, except the steps of a lane (a site's), which run in order, and a step that needs an id
 * another step of the phase makes, which waits for it.
 */
export interface Step extends Change {
  phase: Phase;
  lane?: string;
  requests: StepRequest[];
  /** A variable (`${env:NAME}`) whose value the step must send and the plan did not have: apply refuses it (see unsetVariables). */
  needsEnv?: string;
}

/** The steps that need a value the plan did not have (an unset `${env:NAME}`): `saml okta: certificate: ${env:OKTA_CERT}`. */
export function unsetVariables(steps: Step[]): { step: Step; variable: string }[] {
  return steps.flatMap((step) => (step.needsEnv !== undefined ? [{ step, variable: step.needsEnv }] : []));
}

/**
 * The dependency order: creations top-down (a collection before what it holds, collections before
 * spaces before sites, which show spaces), moves after creations, teams (with their members), the
 * organization's own kinds (members, SAML providers, whose default team may be new, OpenAPI), its
 * settings (single sign-on needs the SAML provider; the default site, the site), then the grants,
 * which name content and teams made above; then deletions bottom-up: grants taken away, members,
 * providers and specifications, teams (after the grants that named them), sites, then the spaces
 * they showed, then the collections that held them.
 */
export const PHASES = [
  'collections',
  'collection-moves',
  'spaces',
  'space-moves',
  'sites',
  'teams',
  'organization',
  'settings',
  'grants',
  'delete-grants',
  'delete-organization',
  'delete-teams',
  'delete-sites',
  'delete-spaces',
  'delete-collections',
] as const;
export type Phase = (typeof PHASES)[number];

/** Every id reference a value holds. */
export function refsIn(v: unknown, out: string[] = []): string[] {
  if (isRef(v)) out.push(v.$ref);
  else if (Array.isArray(v)) for (const x of v) refsIn(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) refsIn(x, out);
  return out;
}

/** A value with its references replaced by the ids they stand for. */
export function resolveRefs<T>(v: T, idOf: (ref: string) => string): T {
  if (isRef(v)) return idOf(v.$ref) as T;
  if (Array.isArray(v)) return v.map((x) => resolveRefs(x, idOf)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveRefs(x, idOf)])) as T;
  return v;
}

/** A request of a step: the operation by its id, params and body as the contract takes them (ids not known yet as references). */
export function request(op: AnyOp, params: Record<string, string | IdRef>, body?: unknown): StepRequest {
  return { op: op.id, params, ...(body !== undefined ? { body } : {}) };
}
