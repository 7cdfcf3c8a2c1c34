/**
 * OpenAPI specifications. A create or put answers at once with `processingState: pending`; the
 * processing (fetch or take the text, parse, check) runs afterwards: `progress`, then `complete`
 * with a new version, or with the error recorded on the specification and the last version kept.
 *
 * Each put bumps the specification's `generation`; a processing run writes its outcome only if the
 * specification still exists with the generation it started from, so a run overtaken by a newer
 * put, a delete or a sandbox reset is dropped.
 *
 * The fetch of a URL follows the store's fetch policy (`serve --allow-fetch`, `fetchTimeoutMs`): a
 * source on a host it refuses is a 400 at once; a redirect to one is a FETCH_ERROR on the spec.
 */
import { MAX_REPORTED_ERRORS, specSlug, type PROCESS_ERROR_CODES, type PROCESSING_STATES, type SPEC_VISIBILITIES } from '../../contract/openapi.js';
import { describeIssue } from '../../contract/op.js';
import { atLeast, orgFor, requireRole, type Actor } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { refusedHost } from '../lib/fetch.js';
import { processOpenApiSource, type OpenApiParseResult, type OpenApiProblem, type OpenApiSource } from '../lib/openapi-source.js';
import { LIMITS } from '../limits.js';
import type { Store } from '../store.js';
import { TaskStopped } from '../worker/pool.js';
import { sandboxWorker } from '../worker/shared.js';

export interface SpecRec {
  id: string;
  org: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  visibility: (typeof SPEC_VISIBILITIES)[number];
  source: OpenApiSource;
  processingState: (typeof PROCESSING_STATES)[number];
  /** Bumped by every put; a processing run only lands on the generation it started from. */
  generation: number;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: (typeof PROCESS_ERROR_CODES)[number];
  /** The first MAX_REPORTED_ERRORS errors of the last processing. */
  lastProcessedErrors?: OpenApiProblem[];
  /** How many errors the last processing found (all of them); absent when it found none. */
  lastProcessedErrorCount?: number;
}

export interface SpecVersionRec {
  id: string;
  spec: string;
  createdAt: string;
  /** The URL it was fetched from; absent when the document was sent as text. */
  sourceURL?: string;
  /** File name (`openapi.json` or `openapi.yaml`) → parsed document. */
  filesystem: Record<string, unknown>;
}

function state(store: Store) {
  return store.slice('openapi', () => ({
    specs: new Map<string, SpecRec>(),
    /** In creation order, so a specification's versions are listed oldest first from here. */
    versions: new Map<string, SpecVersionRec>(),
  }));
}

// ---------------------------------------------------------------------------------------------
// Processing, after the answer

function schedule(store: Store, spec: SpecRec): void {
  const { id, generation } = spec;
  setImmediate(() => {
    runProcessing(store, id, generation).catch((err: unknown) => console.error('[sandbox] OpenAPI processing failed:', err));
  });
}

/** The document read in the sandbox's worker thread (as long as the text: not on the thread that answers requests). */
async function parseInWorker(text: string, maxDepth: number): Promise<OpenApiParseResult> {
  const timeoutMs = LIMITS.loop.workerTaskMs;
  try {
    return await sandboxWorker().run('parseOpenApi', { text, maxDepth }, { timeoutMs });
  } catch (err) {
    if (err instanceof TaskStopped) return { ok: false, errors: [{ code: 'TOO_LONG', message: `reading the document ${err.message}` }] };
    throw err;
  }
}

async function runProcessing(store: Store, specId: string, generation: number): Promise<void> {
  // Looked up afresh each time: the spec may have been deleted, put again, or the sandbox reset.
  const current = () => {
    const spec = state(store).specs.get(specId);
    return spec?.generation === generation ? spec : undefined;
  };
  const started = current();
  if (!started) return;
  started.processingState = 'progress';
  store.backgroundChanged();
  const result = await processOpenApiSource(started.source, { fetch: store.fetchPolicy, parse: parseInWorker });
  const spec = current();
  if (!spec) return;
  const now = store.now();
  spec.processingState = 'complete';
  spec.lastProcessedAt = now;
  spec.updatedAt = now;
  if (!result.ok) {
    spec.lastProcessErrorCode = result.code;
    spec.lastProcessedErrors = result.errors.slice(0, MAX_REPORTED_ERRORS);
    spec.lastProcessedErrorCount = result.errors.length;
    store.backgroundChanged();
    return;
  }
  const version: SpecVersionRec = {
    id: newId(),
    spec: spec.id,
    createdAt: now,
    ...('url' in spec.source ? { sourceURL: spec.source.url } : {}),
    filesystem: { [result.filename]: result.document },
  };
  state(store).versions.set(version.id, version);
  spec.lastVersion = version.id;
  delete spec.lastProcessErrorCode;
  delete spec.lastProcessedErrors;
  delete spec.lastProcessedErrorCount;
  store.backgroundChanged();
}

/** A state loaded from a file (serve --data) may hold specifications whose processing was cut off. */
export function resumeProcessing(store: Store): void {
  for (const spec of state(store).specs.values()) {
    if (spec.processingState === 'pending' || spec.processingState === 'progress') schedule(store, spec);
  }
}

// ---------------------------------------------------------------------------------------------
// Access

export function specPermissions(actor: Actor, s: SpecRec) {
  const role = actor.store.member(s.org, actor.caller.user.id)?.role ?? null;
  return { view: role !== null || s.visibility === 'public', edit: atLeast(role, 'admin') };
}

/** The organization's specification with this slug, whatever its case (slugs keep the case they were created with). */
export function findSpec(store: Store, orgId: string, slug: string): SpecRec | undefined {
  const wanted = slug.toLowerCase();
  for (const s of state(store).specs.values()) if (s.org === orgId && s.slug.toLowerCase() === wanted) return s;
  return undefined;
}

/** A specification the caller may view: 404 when missing, 403 for a guest and a private one. */
export function specFor(actor: Actor, orgId: string, slug: string): SpecRec {
  orgFor(actor.store, actor.caller, orgId);
  const s = findSpec(actor.store, orgId, slug);
  if (!s) throw notFound(`no OpenAPI specification ${slug} in organization ${orgId}`);
  if (!specPermissions(actor, s).view) throw forbidden(`viewing the private specification ${slug} needs a role in the organization`);
  return s;
}

export function requireAdmin(actor: Actor, orgId: string, what: string): void {
  requireRole(orgFor(actor.store, actor.caller, orgId).role, 'admin', what);
}

export function versionsOf(store: Store, s: SpecRec): SpecVersionRec[] {
  return [...state(store).versions.values()].filter((v) => v.spec === s.id);
}

export function versionFor(actor: Actor, s: SpecRec, versionId: string | 'latest'): SpecVersionRec {
  const id = versionId === 'latest' ? s.lastVersion : versionId;
  const v = id === undefined ? undefined : state(actor.store).versions.get(id);
  if (!v || v.spec !== s.id) {
    throw notFound(
      versionId === 'latest'
        ? `specification ${s.slug} has no version yet (none processed successfully)`
        : `no version ${versionId} of specification ${s.slug}`,
    );
  }
  return v;
}

function newSpec(store: Store, orgId: string, slug: string, source: OpenApiSource): SpecRec {
  const now = store.now();
  const spec: SpecRec = {
    id: newId(),
    org: orgId,
    slug,
    createdAt: now,
    updatedAt: now,
    visibility: 'private',
    source,
    processingState: 'pending',
    generation: 1,
  };
  state(store).specs.set(spec.id, spec);
  schedule(store, spec);
  return spec;
}

/** The zod output of the source (both keys optional) as exactly one of its forms; 400 for a URL on a host the sandbox may not fetch. */
function sourceOf(store: Store, body: { url?: string; text?: string }): OpenApiSource {
  if (body.url === undefined) return { text: body.text ?? '' };
  const host = refusedHost(body.url, store.fetchPolicy.allowHosts);
  if (host)
    throw badRequest(`source.url: the sandbox may not fetch from host ${host} (allowed: ${store.fetchPolicy.allowHosts.join(', ')}; see serve --allow-fetch)`);
  return { url: body.url };
}

// ---------------------------------------------------------------------------------------------
// Changes

/** The organization's specifications the caller may view, in creation order. */
export function visibleSpecs(actor: Actor, orgId: string): SpecRec[] {
  return [...state(actor.store).specs.values()].filter((s) => s.org === orgId && specPermissions(actor, s).view);
}

/** A new specification (its slug free in the organization, whatever the case), processed after the answer. */
export function createSpec(store: Store, orgId: string, slug: string, body: { url?: string; text?: string }): SpecRec {
  const source = sourceOf(store, body);
  const taken = findSpec(store, orgId, slug);
  if (taken) {
    const as = taken.slug === slug ? '' : ` as ${taken.slug} (slugs differ by more than case)`;
    throw badRequest(`slug: a specification ${slug} already exists in this organization${as} (PUT replaces it)`);
  }
  return newSpec(store, orgId, slug, source);
}

/** Replace a specification's source (processed again after the answer), or create it: `created` says which. */
export function putSpec(store: Store, orgId: string, slug: string, body: { url?: string; text?: string }): { spec: SpecRec; created: boolean } {
  const source = sourceOf(store, body);
  const existing = findSpec(store, orgId, slug);
  if (!existing) {
    // The path takes any text; a new specification's slug follows the slug rule.
    const checked = specSlug.safeParse(slug);
    if (!checked.success) throw badRequest(`specSlug: ${describeIssue(checked.error.issues[0], slug)}`);
    return { spec: newSpec(store, orgId, slug, source), created: true };
  }
  existing.source = source;
  existing.processingState = 'pending';
  existing.generation += 1;
  existing.updatedAt = store.now();
  schedule(store, existing);
  return { spec: existing, created: false };
}

/** Delete a specification and its versions. */
export function deleteSpec(store: Store, s: SpecRec): void {
  const { specs, versions } = state(store);
  for (const v of versionsOf(store, s)) versions.delete(v.id);
  specs.delete(s.id);
}
