/** OpenAPI specifications and their versions as the API shows them to the caller. */
import type { OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion } from '../../contract/openapi.js';
import type { HandlerCtx } from '../handler.js';
import { specPermissions, type SpecRec, type SpecVersionRec } from './model.js';

function specUrls(ctx: HandlerCtx, s: SpecRec) {
  return {
    location: `${ctx.baseUrl}/v1/orgs/${s.org}/openapi/${s.slug}`,
    public: s.visibility === 'public' ? `${ctx.baseUrl}/openapi/${s.org}/${s.slug}` : null,
  };
}
export function specView(ctx: HandlerCtx, s: SpecRec): OpenAPISpec {
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

export function versionView(ctx: HandlerCtx, s: SpecRec, v: SpecVersionRec): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: v.id,
    createdAt: v.createdAt,
    url: versionUrl(ctx, s, v),
    urls: { location: `${specUrls(ctx, s).location}/versions/${v.id}` },
  };
}

export function contentView(ctx: HandlerCtx, s: SpecRec, v: SpecVersionRec): OpenAPISpecContent {
  const url = versionUrl(ctx, s, v);
  const published = specUrls(ctx, s).public;
  return { filesystem: v.filesystem, url, urls: { source: url, public: published && `${published}/${v.id}` } };
}
