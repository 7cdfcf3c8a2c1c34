/** OpenAPI specifications stored by an organization, each processed into versions. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, pathText, Timestamp } from './op.js';
import { uri } from './orgs.js';

/**
 * A specification's slug: letters (either case) and digits in dash-separated words, 1 to 100
 * characters. Slugs keep the case they were created with, and are found whatever the case they are
 * asked with (`Petstore` and `petstore` are the same specification).
 */
export const SPEC_SLUG_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const specSlug = z.string().min(1).max(100).regex(SPEC_SLUG_PATTERN);
export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
/** How many of a processing's errors a specification lists (`lastProcessedErrorCount` counts them all). */
export const MAX_REPORTED_ERRORS = 20;

/** Where the specification comes from: a URL the service fetches, or the document itself (JSON or YAML). */
export const SpecSource = z
  .strictObject({ url: uri(2048).optional(), text: z.string().min(1).optional() })
  .refine((s) => (s.url === undefined) !== (s.text === undefined), { message: 'needs exactly one of url or text' });

export const OpenAPISpec = z.lazy(() =>
  z.object({
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
    /** The first errors of the last processing (at most MAX_REPORTED_ERRORS). */
    lastProcessedErrors: z.array(z.object({ message: z.string(), code: z.string().optional() })).optional(),
    /** How many errors the last processing found, all of them (0 when it succeeded or has not run). */
    lastProcessedErrorCount: z.number(),
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
    /** `published`: where anyone reads a public specification; absent while it is private. */
    urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
  }),
);
export type OpenAPISpec = z.infer<typeof OpenAPISpec>;

export const OpenAPISpecVersion = z.lazy(() =>
  z.object({
    object: z.literal('openapi-spec-version'),
    id: z.string(),
    createdAt: Timestamp.optional(),
    url: z.string().max(2048),
    urls: z.object({ location: z.string() }),
  }),
);
export type OpenAPISpecVersion = z.infer<typeof OpenAPISpecVersion>;

/** A version's document: `filesystem` maps a file name (e.g. `openapi.yaml`) to the parsed document. */
export const OpenAPISpecContent = z.lazy(() =>
  z.object({
    filesystem: z.record(z.string(), z.unknown()),
    url: z.string(),
    urls: z.object({ source: z.string(), public: z.string().nullable() }).optional(),
  }),
);
export type OpenAPISpecContent = z.infer<typeof OpenAPISpecContent>;

export const CreateSpecBody = z.strictObject({ slug: specSlug, source: SpecSource });
export const PutSpecBody = z.strictObject({ source: SpecSource });
export const UpdateSpecBody = z.strictObject({ visibility: z.enum(SPEC_VISIBILITIES) });

const org = z.object({ organizationId: pathId() });
const spec = z.object({ organizationId: pathId(), specSlug: pathText() });
const version = z.object({ organizationId: pathId(), specSlug: pathText(), versionId: pathText() });

export const ops = {
  listOpenAPISpecs: defineOp({
    id: 'listOpenAPISpecs',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi',
    params: org,
    query: z.object(pageQuery),
    response: listOf(OpenAPISpec),
    paginated: true,
  }),
  createOpenAPISpec: defineOp({
    id: 'createOpenAPISpec',
    method: 'POST',
    path: '/orgs/{organizationId}/openapi',
    params: org,
    body: CreateSpecBody,
    response: OpenAPISpec,
    status: 201,
  }),
  getOpenAPISpec: defineOp({
    id: 'getOpenAPISpec',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: spec,
    response: OpenAPISpec,
  }),
  /** Create or replace: 201 when the slug was new, 200 when it existed. */
  putOpenAPISpec: defineOp({
    id: 'putOpenAPISpec',
    method: 'PUT',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: spec,
    body: PutSpecBody,
    response: OpenAPISpec,
    status: 200,
  }),
  updateOpenAPISpec: defineOp({
    id: 'updateOpenAPISpec',
    method: 'PATCH',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: spec,
    body: UpdateSpecBody,
    response: OpenAPISpec,
  }),
  deleteOpenAPISpec: defineOp({
    id: 'deleteOpenAPISpec',
    method: 'DELETE',
    path: '/orgs/{organizationId}/openapi/{specSlug}',
    params: spec,
    status: 204,
  }),
  listOpenAPISpecVersions: defineOp({
    id: 'listOpenAPISpecVersions',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions',
    params: spec,
    query: z.object(pageQuery),
    response: listOf(OpenAPISpecVersion),
    paginated: true,
  }),
  getLatestOpenAPISpecVersion: defineOp({
    id: 'getLatestOpenAPISpecVersion',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest',
    params: spec,
    response: OpenAPISpecVersion,
  }),
  getLatestOpenAPISpecVersionContent: defineOp({
    id: 'getLatestOpenAPISpecVersionContent',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content',
    params: spec,
    response: OpenAPISpecContent,
  }),
  getOpenAPISpecVersion: defineOp({
    id: 'getOpenAPISpecVersion',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}',
    params: version,
    response: OpenAPISpecVersion,
  }),
  getOpenAPISpecVersionContent: defineOp({
    id: 'getOpenAPISpecVersionContent',
    method: 'GET',
    path: '/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content',
    params: version,
    response: OpenAPISpecContent,
  }),
};
