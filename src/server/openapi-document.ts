/**
 * The OpenAPI 3.1 document of the API that docsctl speaks and its sandbox serves, generated from the
 * contract (`src/contract/`): every operation's path, parameters, request body and answer, as JSON
 * Schema 2020-12 made by zod 4's `z.toJSONSchema`. The sandbox serves it at `GET /openapi.json`
 * (docs/api.md); it is built on the first request (building the answers' schemas is the slow part
 * that the CLI never pays), then kept.
 *
 * The contract's named schemas (its PascalCase exports: `Space`, `CreateSpaceBody`, `MergeRules`…)
 * become `components.schemas` under those names, referenced wherever an operation uses them; the
 * schemas a request takes are converted as input (what may be sent), the others as output.
 */
import { z } from 'zod';
import * as changeRequests from '../contract/change-requests.js';
import * as collections from '../contract/collections.js';
import * as comments from '../contract/comments.js';
import * as content from '../contract/content.js';
import { SEED_ONLY_OPS } from '../contract/extensions.js';
import * as members from '../contract/members.js';
import * as op from '../contract/op.js';
import type { AnyOp } from '../contract/op.js';
import * as openapi from '../contract/openapi.js';
import * as orgs from '../contract/orgs.js';
import * as permissions from '../contract/permissions.js';
import * as saml from '../contract/saml.js';
import * as sites from '../contract/sites.js';
import * as spaces from '../contract/spaces.js';
import { OPENAPI_PATH, SANDBOX_ROUTES } from './sandbox-routes.js';

declare const __VERSION__: string;

type Json = any;

/**
 * The families of operations, in the order docs/api.md shows them: tag name, description, module.
 * (Tuples: knip 6 takes a module that is an object's property for one none of whose exports is
 * used, webpro-nl/knip#1669; namedSchemas reads them all.)
 */
const FAMILIES = (
  [
    ['organizations', 'Organizations, users and teams', orgs],
    ['collections', 'Collections', collections],
    ['spaces', 'Spaces', spaces],
    ['content', 'Space content', content],
    ['change-requests', 'Change requests', changeRequests],
    ['comments', 'Comments', comments],
    ['sites', 'Sites', sites],
    ['members', 'Members', members],
    ['permissions', 'Permission grants', permissions],
    ['saml', 'SAML single sign-on', saml],
    ['openapi', 'OpenAPI specifications', openapi],
  ] as const
).map(([tag, title, module]) => ({ tag, title, module }));

/** Request bodies of the sandbox's control routes, where they take one. */
const SANDBOX_BODIES: Record<string, Json> = {
  'PUT /_sandbox/state': { type: 'object', description: 'a state exported by GET /_sandbox/state' },
  'POST /_sandbox/clock': {
    type: 'object',
    required: ['advance'],
    properties: { advance: { type: 'string', description: 'a duration: a number and a unit (ms, s, m, h, d, w)', examples: ['8d', '36h'] } },
  },
  'PUT /_sandbox/faults': { type: 'object', required: ['rules'], properties: { rules: { type: 'array', items: { type: 'object' } } } },
};

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'number', description: 'the HTTP status' },
        message: { type: 'string', description: 'what is wrong, naming the field and the rule' },
      },
    },
  },
};

/** The document without `servers` (which name the host it is served from), built once. */
let built: Json | undefined;

/** The document, served from `baseUrl` (e.g. `http://127.0.0.1:4700`). */
export function openApiDocument(baseUrl?: string): Json {
  built ??= build();
  return baseUrl === undefined ? built : { ...built, servers: [{ url: `${baseUrl}/v1`, description: 'this sandbox' }] };
}

/** `createSpace` → `Create space`. */
function summaryOf(opId: string): string {
  const words = opId
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ');
  return words.map((w, i) => (i === 0 ? w[0].toUpperCase() + w.slice(1) : /^[A-Z]{2,}$/.test(w) || /^[A-Z]+s$/.test(w) ? w : w.toLowerCase())).join(' ');
}

function build(): Json {
  const names = namedSchemas();
  const components = new Components(names);
  const paths: Record<string, Json> = {};
  for (const family of FAMILIES) {
    for (const def of Object.values(family.module.ops) as AnyOp[]) {
      const item = (paths[def.path] ??= {});
      item[def.method.toLowerCase()] = operation(def, family.tag, components);
    }
  }
  // The sandbox's own routes, outside /v1: this document, and the control routes (sandbox admin only).
  const here = { servers: [{ url: '/', description: 'the sandbox itself, outside /v1' }] };
  const sandboxPaths: Record<string, Json> = {
    [OPENAPI_PATH]: {
      ...here,
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document (no token needed)',
        tags: ['sandbox'],
        security: [],
        responses: { 200: { description: 'An OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  };
  for (const r of SANDBOX_ROUTES) {
    const item = (sandboxPaths[r.path] ??= { ...here });
    const body = SANDBOX_BODIES[`${r.method} ${r.path}`];
    item[r.method.toLowerCase()] = {
      operationId: `sandbox${r.method[0]}${r.method.slice(1).toLowerCase()}${r.path.slice('/_sandbox/'.length).replace(/^./, (c) => c.toUpperCase())}`,
      summary: `${r.summary} (sandbox admin only)`,
      tags: ['sandbox'],
      'x-sandbox-only': true,
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      responses: {
        ...(r.method === 'DELETE'
          ? { 204: { description: 'Done' } }
          : { 200: { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } }),
        ...errors(),
      },
    };
  }
  components.prune(paths);
  const version = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';
  return {
    openapi: '3.1.0',
    info: {
      title: 'docsctl: the documentation-hosting service API',
      version,
      summary: 'The API that docsctl speaks and that its sandbox (docsctl serve --memory) serves.',
      description:
        "Generated from docsctl's contract (src/contract/): one definition per operation, shared by the CLI and the sandbox. " +
        'Every path is below /v1. JSON in and out; every 4xx and 5xx answer has the body {"error": {"code", "message"}}; ' +
        'lists are {next?: {page}, count, items} and take the query parameters page (the cursor from next.page) and limit (0..1000, default 50). ' +
        "Operations marked x-seed-only are not in GitBook's published document (see docs/compatibility.md). " +
        'The sandbox also answers HEAD for every GET and OPTIONS (Allow) for every path.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/v1' }],
    security: [{ bearer: [] }],
    tags: [
      ...FAMILIES.map((f) => ({ name: f.tag, description: f.title })),
      { name: 'sandbox', description: "The sandbox's own routes (docsctl serve), outside /v1" },
    ],
    paths: { ...paths, ...sandboxPaths },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A token: the sandbox prints them when it starts' } },
      responses: {
        Error: {
          description:
            'An error: 400 invalid input, 401 no or unknown token, 403 not allowed, 404 no such resource or route, 409 conflict, 413 body too large, 429 rate limited',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      schemas: { ...components.schemas, Error: ERROR_SCHEMA },
    },
  };
}

function errors(): Json {
  return { default: { $ref: '#/components/responses/Error' } };
}

function operation(def: AnyOp, tag: string, components: Components): Json {
  const parameters = [...parametersOf(def.params, 'path', components, def.id), ...parametersOf(def.query, 'query', components, def.id)];
  const out: Json = {
    operationId: def.id,
    summary: def.summary ?? summaryOf(def.id),
    tags: [tag],
    ...(SEED_ONLY_OPS.has(def.id) ? { 'x-seed-only': true } : {}),
    ...(def.paginated ? { 'x-paginated': true } : {}),
  };
  if (parameters.length) out.parameters = parameters;
  if (def.hasBody) {
    out.requestBody = {
      required: !def.body.safeParse(undefined).success,
      content: { 'application/json': { schema: components.convert(def.body, 'input', `${def.id}Body`) } },
    };
  }
  const success: Json = { description: def.status === 201 ? 'Created' : def.status === 204 ? 'No content' : 'OK' };
  if (def.status !== 204) success.content = { 'application/json': { schema: components.convert(def.response, 'output', `${def.id}Response`) } };
  if (def.status === 201) success.headers = { Location: { description: "the new resource's API URL", schema: { type: 'string' } } };
  out.responses = { [String(def.status)]: success, ...errors() };
  return out;
}

/** An operation's path or query parameters, from its params or query object schema. */
function parametersOf(schema: z.ZodType, where: 'path' | 'query', components: Components, opId: string): Json[] {
  const json = components.convert(schema, 'output', `${opId}${where === 'path' ? 'Path' : 'Query'}`, true);
  const props = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set<string>(json.required ?? []);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** The contract's named schemas: the exports of its modules whose names begin with a capital (`Space`, `SAMLProvider`). */
function namedSchemas(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  const modules: [string, Record<string, unknown>][] = [['', op], ...FAMILIES.map((f) => [f.tag, f.module] as [string, Record<string, unknown>])];
  for (const [tag, mod] of modules) {
    for (const [name, value] of Object.entries(mod)) {
      if (!(value instanceof z.ZodType) || !/^[A-Z]/.test(name) || names.has(value)) continue;
      // The same name in two families for two schemas: the second is prefixed with its family.
      const unique = taken.has(name) ? `${tag.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}${name}` : name;
      names.set(value, unique);
      taken.add(unique);
    }
  }
  return names;
}

/**
 * The components being built: each conversion's `$defs` are hoisted into `components.schemas` and
 * its `$ref`s pointed there. A named schema converted as input and as output keeps its name when
 * both come out the same, else the input one is `<Name>Input`.
 */
class Components {
  readonly schemas: Record<string, Json> = {};
  private readonly registry = z.registry<{ id: string }>();

  constructor(names: Map<z.ZodType, string>) {
    for (const [schema, id] of names) this.registry.add(schema, { id });
  }

  /**
   * The JSON Schema of `schema` (`io`: what may be sent, or what is answered); `where` names the
   * schemas of cycles that have no name of their own. `inline`: the top level itself, never a
   * reference (parameters are read from its properties).
   */
  convert(schema: z.ZodType, io: 'input' | 'output', where: string, inline = false): Json {
    // A named object whose properties are needed here is converted through a wrapper that has no name.
    const target = inline ? z.lazy(() => schema) : schema;
    const json = z.toJSONSchema(target, {
      target: 'draft-2020-12',
      io,
      metadata: this.registry,
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
    }) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    const renamed = new Map<string, string>();
    const rewrite = (node: Json): Json => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) {
        out[k] =
          k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${renamed.get(v.slice(8)) ?? v.slice(8)}` : rewrite(v);
      }
      return out;
    };
    // Names are given to the schemas referenced first, so that a schema is compared with its
    // references already pointing where they will (a cycle takes its candidates together).
    const pending = new Set(Object.keys(defs));
    const refsOf = (name: string) =>
      [...JSON.stringify(defs[name]).matchAll(/"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]).filter((r) => r !== name && pending.has(r));
    while (pending.size) {
      const ready = [...pending].filter((n) => refsOf(n).length === 0);
      const group = ready.length ? [ready[0]] : [...pending];
      for (let i = 0; ; i++) {
        const names = group.map((n) => this.candidate(n, io, where, i));
        group.forEach((n, k) => renamed.set(n, names[k]));
        const texts = group.map((n) => JSON.stringify(rewrite(defs[n])));
        if (group.every((_, k) => this.schemas[names[k]] === undefined || JSON.stringify(this.schemas[names[k]]) === texts[k])) {
          group.forEach((_, k) => (this.schemas[names[k]] ??= JSON.parse(texts[k])));
          break;
        }
      }
      for (const n of group) pending.delete(n);
    }
    const result = rewrite(json);
    if (inline && typeof result.$ref === 'string') return this.schemas[result.$ref.slice('#/components/schemas/'.length)];
    return result;
  }

  /** The i-th name to try for a schema of a conversion: its own, then with Input/Output, then numbered. */
  private candidate(defName: string, io: 'input' | 'output', where: string, i: number): string {
    const base = /^__schema\d+$/.test(defName) ? `${where[0].toUpperCase()}${where.slice(1)}${defName.replace(/^__schema/, 'Node')}` : defName;
    if (i === 0) return base;
    if (i === 1) return `${base}${io === 'input' ? 'Input' : 'Output'}`;
    return `${base}${i}`;
  }

  /** Drop the schemas nothing refers to any more (a query object, read into parameters). */
  prune(root: Json): void {
    const used = new Set<string>();
    const visit = (node: Json): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(this.schemas[name]);
          }
        } else visit(v);
      }
    };
    visit(root);
    for (const name of Object.keys(this.schemas)) if (!used.has(name)) delete this.schemas[name];
  }
}
