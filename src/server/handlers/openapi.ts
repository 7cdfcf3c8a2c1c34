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
import type { OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion } from '../../contract/openapi.js';
import { MAX_REPORTED_ERRORS, ops, type PROCESS_ERROR_CODES, type PROCESSING_STATES, type SPEC_VISIBILITIES, specSlug } from '../../contract/openapi.js';
import { describeIssue } from '../../contract/op.js';
import { atLeast, orgFor, requireRole } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import { Reply, type Handlers, type HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { refusedHost } from '../lib/fetch.js';
import { processOpenApiSource, type OpenApiParseResult, type OpenApiProblem, type OpenApiSource } from '../lib/openapi-source.js';
import { LIMITS } from '../limits.js';
import { sandboxWorker } from '../worker/shared.js';
import { TaskStopped } from '../worker/pool.js';
import { paginate, scopeOf } from '../paginate.js';
import type { Store } from '../store.js';

interface SpecRec {
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

interface SpecVersionRec {
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
function resumeProcessing(store: Store): void {
  for (const spec of state(store).specs.values()) {
    if (spec.processingState === 'pending' || spec.processingState === 'progress') schedule(store, spec);
  }
}

// ---------------------------------------------------------------------------------------------
// Views and access

function specUrls(ctx: HandlerCtx, s: SpecRec) {
  return {
    location: `${ctx.baseUrl}/v1/orgs/${s.org}/openapi/${s.slug}`,
    public: s.visibility === 'public' ? `${ctx.baseUrl}/openapi/${s.org}/${s.slug}` : null,
  };
}

function specPermissions(ctx: HandlerCtx, s: SpecRec) {
  const role = ctx.store.member(s.org, ctx.caller.user.id)?.role ?? null;
  return { view: role !== null || s.visibility === 'public', edit: atLeast(role, 'admin') };
}

function specView(ctx: HandlerCtx, s: SpecRec): OpenAPISpec {
  const urls = specUrls(ctx, s);
  return {
    object: 'openapi-spec',
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    slug: s.slug,
    ...('url' in s.source ? { sourceURL: s.source.url } : {}),
    processingState: s.processingState,
    visibility: s.visibility,
    ...(s.lastVersion !== undefined ? { lastVersion: s.lastVersion } : {}),
    ...(s.lastProcessedAt !== undefined ? { lastProcessedAt: s.lastProcessedAt } : {}),
    ...(s.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
    ...(s.lastProcessedErrors !== undefined ? { lastProcessedErrors: s.lastProcessedErrors } : {}),
    // A state saved before the count existed holds the errors only: those are then all there were.
    lastProcessedErrorCount: s.lastProcessedErrorCount ?? s.lastProcessedErrors?.length ?? 0,
    permissions: specPermissions(ctx, s),
    urls: {
      location: urls.location,
      app: `${ctx.baseUrl}/app/o/${s.org}/openapi/${s.slug}`,
      // Only a public specification has a published address (the official document: "only defined when published").
      ...(urls.public !== null ? { published: urls.public } : {}),
    },
  };
}

/** Where a version's document comes from: its source URL, or (sent as text) its content here. */
function versionUrl(ctx: HandlerCtx, s: SpecRec, v: SpecVersionRec): string {
  return v.sourceURL ?? `${specUrls(ctx, s).location}/versions/${v.id}/content`;
}

function versionView(ctx: HandlerCtx, s: SpecRec, v: SpecVersionRec): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: v.id,
    createdAt: v.createdAt,
    url: versionUrl(ctx, s, v),
    urls: { location: `${specUrls(ctx, s).location}/versions/${v.id}` },
  };
}

function contentView(ctx: HandlerCtx, s: SpecRec, v: SpecVersionRec): OpenAPISpecContent {
  const url = versionUrl(ctx, s, v);
  const published = specUrls(ctx, s).public;
  return { filesystem: v.filesystem, url, urls: { source: url, public: published && `${published}/${v.id}` } };
}

/** The organization's specification with this slug, whatever its case (slugs keep the case they were created with). */
function findSpec(store: Store, orgId: string, slug: string): SpecRec | undefined {
  const wanted = slug.toLowerCase();
  for (const s of state(store).specs.values()) if (s.org === orgId && s.slug.toLowerCase() === wanted) return s;
  return undefined;
}

/** A specification the caller may view: 404 when missing, 403 for a guest and a private one. */
function specFor(ctx: HandlerCtx, orgId: string, slug: string): SpecRec {
  orgFor(ctx.store, ctx.caller, orgId);
  const s = findSpec(ctx.store, orgId, slug);
  if (!s) throw notFound(`no OpenAPI specification ${slug} in organization ${orgId}`);
  if (!specPermissions(ctx, s).view) throw forbidden(`viewing the private specification ${slug} needs a role in the organization`);
  return s;
}

function requireAdmin(ctx: HandlerCtx, orgId: string, what: string): void {
  requireRole(orgFor(ctx.store, ctx.caller, orgId).role, 'admin', what);
}

function versionsOf(store: Store, s: SpecRec): SpecVersionRec[] {
  return [...state(store).versions.values()].filter((v) => v.spec === s.id);
}

function versionFor(ctx: HandlerCtx, s: SpecRec, versionId: string | 'latest'): SpecVersionRec {
  const id = versionId === 'latest' ? s.lastVersion : versionId;
  const v = id === undefined ? undefined : state(ctx.store).versions.get(id);
  if (!v || v.spec !== s.id) {
    throw notFound(
      versionId === 'latest'
        ? `specification ${s.slug} has no version yet (none processed successfully)`
        : `no version ${versionId} of specification ${s.slug}`,
    );
  }
  return v;
}

function newSpec(ctx: HandlerCtx, orgId: string, slug: string, source: OpenApiSource): SpecRec {
  const now = ctx.store.now();
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
  state(ctx.store).specs.set(spec.id, spec);
  schedule(ctx.store, spec);
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

const handlers: Handlers<typeof ops> = {
  listOpenAPISpecs: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const all = [...state(ctx.store).specs.values()].filter((s) => s.org === params.organizationId && specPermissions(ctx, s).view);
    const page = paginate(all, query, (s) => s.id, scopeOf('openapi', params.organizationId));
    return { ...page, items: page.items.map((s) => specView(ctx, s)) };
  },

  createOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'adding an OpenAPI specification');
    const source = sourceOf(ctx.store, body.source);
    const taken = findSpec(ctx.store, params.organizationId, body.slug);
    if (taken) {
      const as = taken.slug === body.slug ? '' : ` as ${taken.slug} (slugs differ by more than case)`;
      throw badRequest(`slug: a specification ${body.slug} already exists in this organization${as} (PUT replaces it)`);
    }
    return specView(ctx, newSpec(ctx, params.organizationId, body.slug, source));
  },

  getOpenAPISpec: (ctx, { params }) => specView(ctx, specFor(ctx, params.organizationId, params.specSlug)),

  putOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'replacing an OpenAPI specification');
    const source = sourceOf(ctx.store, body.source);
    const existing = findSpec(ctx.store, params.organizationId, params.specSlug);
    if (!existing) {
      // The path takes any text; a new specification's slug follows the slug rule.
      const slug = specSlug.safeParse(params.specSlug);
      if (!slug.success) throw badRequest(`specSlug: ${describeIssue(slug.error.issues[0], params.specSlug)}`);
      return new Reply(201, specView(ctx, newSpec(ctx, params.organizationId, params.specSlug, source)));
    }
    existing.source = source;
    existing.processingState = 'pending';
    existing.generation += 1;
    existing.updatedAt = ctx.store.now();
    schedule(ctx.store, existing);
    return new Reply(200, specView(ctx, existing));
  },

  updateOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'changing an OpenAPI specification’s visibility');
    const s = specFor(ctx, params.organizationId, params.specSlug);
    s.visibility = body.visibility;
    s.updatedAt = ctx.store.now();
    return specView(ctx, s);
  },

  deleteOpenAPISpec: (ctx, { params }) => {
    requireAdmin(ctx, params.organizationId, 'deleting an OpenAPI specification');
    const s = findSpec(ctx.store, params.organizationId, params.specSlug);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!s) return undefined;
    const { specs, versions } = state(ctx.store);
    for (const v of versionsOf(ctx.store, s)) versions.delete(v.id);
    specs.delete(s.id);
    return undefined;
  },

  listOpenAPISpecVersions: (ctx, { params, query }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    const newestFirst = versionsOf(ctx.store, s).reverse();
    const page = paginate(newestFirst, query, (v) => v.id, scopeOf('openapi-versions', s.id));
    return { ...page, items: page.items.map((v) => versionView(ctx, s, v)) };
  },

  getLatestOpenAPISpecVersion: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return versionView(ctx, s, versionFor(ctx, s, 'latest'));
  },

  getLatestOpenAPISpecVersionContent: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return contentView(ctx, s, versionFor(ctx, s, 'latest'));
  },

  getOpenAPISpecVersion: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return versionView(ctx, s, versionFor(ctx, s, params.versionId));
  },

  getOpenAPISpecVersionContent: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return contentView(ctx, s, versionFor(ctx, s, params.versionId));
  },
};

export const family = defineFamily({ ops, handlers, onStateImport: resumeProcessing });
