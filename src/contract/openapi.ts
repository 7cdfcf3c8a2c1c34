/** OpenAPI specifications stored by an organization, each processed into versions. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, Timestamp } from './op.js';

/** An absolute http: or https: URL of at most `max` characters. */
export function httpUrl(max: number) {
  return z.string().max(max).refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    { message: 'must be an http(s) URL' },
  );
}

export const SPEC_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const specSlug = z.string().min(1).max(100).regex(SPEC_SLUG_PATTERN);
export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;

/** Where the specification comes from: a URL the service fetches, or the document itself (JSON or YAML). */
export const SpecSource = z
  .strictObject({ url: httpUrl(2048).optional(), text: z.string().min(1).optional() })
  .refine((s) => (s.url === undefined) !== (s.text === undefined), { message: 'needs exactly one of url or text' });

export const OpenAPISpec = z.lazy(() => z.object({
  object: z.literal('openapi-spec'),
  id: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: z.string(),
  /** The URL the specification is fetched from (absent for a specification given as text). */
  sourceURL: z.string().optional(),
  processingState: z.enum(PROCESSING_STATES),
  visibility: z.enum(SPEC_VISIBILITIES),
  lastVersion: z.string().optional(),
  lastProcessedAt: Timestamp.optional(),
  lastProcessErrorCode: z.enum(PROCESS_ERROR_CODES).optional(),
  lastProcessedErrors: z.array(z.object({ message: z.string(), code: z.string() })).optional(),
  permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  urls: z.object({ location: z.string(), app: z.string(), published: z.string().nullable().optional() }),
}));
export type OpenAPISpec = z.infer<typeof OpenAPISpec>;

export const OpenAPISpecVersion = z.lazy(() => z.object({
  object: z.literal('openapi-spec-version'),
  id: z.string(),
  createdAt: Timestamp.optional(),
  url: z.string().max(2048),
  urls: z.object({ location: z.string() }),
}));
export type OpenAPISpecVersion = z.infer<typeof OpenAPISpecVersion>;

/** A version's document: `filesystem` maps a file name (e.g. `openapi.yaml`) to the parsed document. */
export const OpenAPISpecContent = z.lazy(() => z.object({
  filesystem: z.record(z.string(), z.unknown()),
  url: z.string(),
  urls: z.object({ source: z.string(), public: z.string().nullable() }).optional(),
}));
export type OpenAPISpecContent = z.infer<typeof OpenAPISpecContent>;

export const CreateSpecBody = z.strictObject({ slug: specSlug, source: SpecSource });
export const PutSpecBody = z.strictObject({ source: SpecSource });
export const UpdateSpecBody = z.strictObject({ visibility: z.enum(SPEC_VISIBILITIES) });

const org = z.object({ organizationId: pathId() });
const spec = z.object({ organizationId: pathId(), specSlug: pathId() });
const version = z.object({ organizationId: pathId(), specSlug: pathId(), versionId: pathId() });

export const ops = {
  listOpenAPISpecs: defineOp({
    id: 'listOpenAPISpecs', method: 'GET', path: '/orgs/{organizationId}/openapi',
    params: org, query: z.object(pageQuery), response: listOf(OpenAPISpec), paginated: true,
  }),
  createOpenAPISpec: defineOp({
    id: 'createOpenAPISpec', method: 'POST', path: '/orgs/{organizationId}/openapi',
    params: org, body: CreateSpecBody, response: OpenAPISpec, status: 201,
  }),
  getOpenAPISpec: defineOp({
    id: 'getOpenAPISpec', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}', params: spec, response: OpenAPISpec,
  }),
  /** Create or replace: 201 when the slug was new, 200 when it existed. */
  putOpenAPISpec: defineOp({
    id: 'putOpenAPISpec', method: 'PUT', path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: z.object({ organizationId: pathId(), specSlug }), body: PutSpecBody, response: OpenAPISpec, status: 200,
  }),
  updateOpenAPISpec: defineOp({
    id: 'updateOpenAPISpec', method: 'PATCH', path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: spec, body: UpdateSpecBody, response: OpenAPISpec,
  }),
  deleteOpenAPISpec: defineOp({
    id: 'deleteOpenAPISpec', method: 'DELETE', path: '/orgs/{organizationId}/openapi/{specSlug}', params: spec, status: 204,
  }),
  listOpenAPISpecVersions: defineOp({
    id: 'listOpenAPISpecVersions', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}/versions',
    params: spec, query: z.object(pageQuery), response: listOf(OpenAPISpecVersion), paginated: true,
  }),
  getLatestOpenAPISpecVersion: defineOp({
    id: 'getLatestOpenAPISpecVersion', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    params: spec, response: OpenAPISpecVersion,
  }),
  getLatestOpenAPISpecVersionContent: defineOp({
    id: 'getLatestOpenAPISpecVersionContent', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    params: spec, response: OpenAPISpecContent,
  }),
  getOpenAPISpecVersion: defineOp({
    id: 'getOpenAPISpecVersion', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    params: version, response: OpenAPISpecVersion,
  }),
  getOpenAPISpecVersionContent: defineOp({
    id: 'getOpenAPISpecVersionContent', method: 'GET', path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    params: version, response: OpenAPISpecContent,
  }),
};
