/**
 * The sandbox as a function from request to response: routes generated from the contract,
 * authentication, validation with the operation's schemas, the handler, and one error hook.
 * `serve.ts` puts it on a socket; tests may call `handle()` directly.
 */
import { timingSafeEqual } from 'node:crypto';
import FindMyWay from 'find-my-way';
import type { z } from 'zod';
import { describeIssue, issuePath, type AnyOp } from '../contract/op.js';
import { gateOf, type Gate } from './access.js';
import { beginAudit } from './audit/model.js';
import { derivedKey } from './derived.js';
import { DOWNLOADS_PATH, serveDownload } from './downloads.js';
import { Faults } from './faults.js';
import { HttpError } from './errors.js';
import { jsonNestingExceeds, MAX_JSON_DEPTH } from './limits.js';
import { Reply, type Handler, type HandlerCtx } from './handler.js';
import { routes } from './routes.js';
import { OPENAPI_PATH, SANDBOX_ROUTES, type SandboxControl } from './sandbox-routes.js';
import type { Store, UserRec } from './store.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppRequest {
  method: string;
  /** Path and query string, e.g. `/v1/orgs/x/spaces?limit=5`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer | string;
  /** The client's connection (any object standing for it): a token verified on it is not hashed again. */
  connection?: object;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Drop the connection without answering (fault injection). */
  drop?: boolean;
}

/*
 * The 200 answers of operations declared `cacheable` (the contract) are kept as sent, per caller,
 * host and URL, until the state changes (Store.derived), so a repeated read is not built and
 * serialised again.
 */
/** What the kept answers may hold in all; past it they are dropped and keeping starts again. */
const CACHE_BYTES = 32 * 1024 * 1024;
/** Where the kept answers live in Store.derived. */
const KEPT = derivedKey<KeptAnswers>('kept answers');

interface KeptAnswers {
  /** By caller, host and URL. */
  answers: Map<string, AppResponse>;
  /** The same answers by the request as sent (Authorization, Host, URL): see `kept()`. */
  byRequest: Map<string, AppResponse>;
  bytes: number;
}

/** A GET's Authorization and Host headers and URL, as sent. */
function requestKey(req: AppRequest): string {
  return `${headerOf(req, 'authorization')}\n${headerOf(req, 'host')}\n${req.url}`;
}

interface Route {
  op: AnyOp;
  handler: Handler<AnyOp>;
  /** Its answers are kept (the operation is `cacheable`). */
  cached: boolean;
  /** The operation takes no body (its schema accepts none): whatever is sent is ignored. */
  bodyless: boolean;
  /** What its query schema makes of no query at all, when that holds only plain values (copied per request). */
  emptyQuery?: Record<string, unknown>;
  /** Whether the caller may be told anything about the path's organization (access.ts): checked first. */
  gate?: Gate;
}

/** The methods of /v1 routes, and the order `Allow` names methods in. */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A HEAD's answer: the GET's, its body left out and its length kept. */
function withoutBody(res: AppResponse): AppResponse {
  if (res.drop || res.body === undefined) return res;
  const length = typeof res.body === 'string' ? Buffer.byteLength(res.body) : res.body.length;
  return { status: res.status, headers: { ...res.headers, 'content-length': String(length) } };
}

export interface AppOptions {
  /** Reload the seed (for `POST /_sandbox/reset`). */
  reset: () => void;
  /** Answer this share of /v1 requests with a random fault (seeded). */
  chaos?: { rate: number; seed: number };
}

export function createApp(store: Store, opts: AppOptions) {
  const faults = new Faults(opts.chaos);
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: 500 });
  for (const route of routes) {
    const path = '/v1' + route.op.path.replace(/\{(\w+)\}/g, ':$1');
    const empty = route.op.query.safeParse({});
    const plain = empty.success && Object.values(empty.data as object).every((v) => v === null || typeof v !== 'object');
    const gate = gateOf(route.op);
    const entry: Route = {
      ...route,
      cached: route.op.cacheable === true,
      bodyless: !route.op.hasBody,
      ...(plain ? { emptyQuery: empty.data as Record<string, unknown> } : {}),
      ...(gate ? { gate } : {}),
    };
    router.on(route.op.method, path, () => undefined, entry);
  }

  /**
   * The kept answer of a GET sent exactly as one answered before (same Authorization, Host and URL)
   * while the state has not changed, or undefined: `serve` asks this first and sends what it gets
   * at once, without routing, authenticating or awaiting. The same token can only be the same
   * caller until the state changes (tokens are made and revoked by changes, which empty the kept
   * answers). Never when a fault may be injected: faults are picked per request.
   */
  function kept(req: AppRequest): AppResponse | undefined {
    if (req.method !== 'GET' || !faults.idle) return undefined;
    store.purgeExpired();
    return store.derived.peek(KEPT)?.byRequest.get(requestKey(req));
  }

  function handle(req: AppRequest): Promise<AppResponse> {
    switch (req.method) {
      case 'GET':
        return answer(req);
      // HEAD: the GET's status and headers (its Content-Length too), without the body.
      case 'HEAD':
        return answer({ ...req, method: 'GET' }).then(withoutBody);
      case 'OPTIONS':
        return Promise.resolve(options(req.url));
      default:
        return write(req);
    }
  }

  /**
   * OPTIONS: 204 with `Allow`, the methods of that path (HEAD wherever GET is; OPTIONS everywhere),
   * for anyone (it tells no more than the published document); a path that is no route is a 404.
   */
  function options(url: string): AppResponse {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    let methods: string[];
    if (path === OPENAPI_PATH) methods = ['GET'];
    else if (path.startsWith('/_sandbox/')) methods = SANDBOX_ROUTES.filter((r) => r.path === path).map((r) => r.method);
    else if (path.startsWith(DOWNLOADS_PATH)) methods = path.length > DOWNLOADS_PATH.length ? ['GET'] : [];
    else methods = ROUTE_METHODS.filter((m) => router.find(m, path) !== null);
    if (methods.length === 0) return errorResponse(new HttpError(404, `no route OPTIONS ${path}`));
    const allow = ALLOW_ORDER.filter((m) => methods.includes(m) || (m === 'HEAD' && methods.includes('GET')) || m === 'OPTIONS');
    return { status: 204, headers: { allow: allow.join(', ') } };
  }

  /** `GET /openapi.json`: the contract as an OpenAPI 3.1 document, by the host it is asked from (built on first use). */
  async function openApi(req: AppRequest): Promise<AppResponse> {
    if (req.method !== 'GET') throw new HttpError(404, `no route ${req.method} ${OPENAPI_PATH}`);
    const { openApiDocument } = await import('./openapi-document.js');
    return json(200, openApiDocument(baseUrlOf(req)));
  }

  /** A request that may write moves the state's version before and after it (it may wait in between). */
  async function write(req: AppRequest): Promise<AppResponse> {
    store.changed();
    try {
      return await answer(req);
    } finally {
      store.changed();
    }
  }

  async function answer(req: AppRequest): Promise<AppResponse> {
    try {
      const q = req.url.indexOf('?');
      const path = q < 0 ? req.url : req.url.slice(0, q);
      const search = q < 0 ? '' : req.url.slice(q + 1);
      if (path === OPENAPI_PATH) return await openApi(req);
      store.purgeExpired();
      if (path.startsWith('/_sandbox/')) return sandboxControl(req, path);
      if (path.startsWith(DOWNLOADS_PATH)) return await serveDownload(store, req.method, path);
      const fault = faults.pick(req.method, path);
      if (fault) {
        // Before any work: a faulted request changes nothing.
        if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
        if (fault.drop) return { status: 0, headers: {}, drop: true };
        if (fault.status) {
          throw new HttpError(
            fault.status,
            `injected fault (${fault.status})`,
            fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
          );
        }
      }
      const found = router.find(req.method as 'GET', path);
      if (!found) throw new HttpError(404, `no route ${req.method} ${path}`);
      const route = found.store as Route;
      const caller = authenticate(req);
      const baseUrl = baseUrlOf(req);
      const key = route.cached ? `${caller.user.id} ${baseUrl} ${req.url}` : undefined;
      if (key !== undefined) {
        const kept = store.derived.peek(KEPT)?.answers.get(key);
        if (kept) return kept;
      }
      // To a non-member of the path's organization its object does not exist: answered before its
      // other ids are looked up and its query and body read.
      if (route.gate && !route.gate.admits(store, caller, found.params)) {
        const missing = route.gate.absent(found.params);
        if (missing) throw missing;
        return { status: 204, headers: {} };
      }
      const input = {
        params: validate(route.op.params, found.params, 'path'),
        query: search === '' && route.emptyQuery ? { ...route.emptyQuery } : validate(route.op.query, queryObject(search), 'query'),
        body: route.bodyless ? undefined : validate(route.op.body, parseBody(req), 'body'),
      };
      const version = store.version;
      // A write may run long (a website import): it can ask whether its client is still there (limits.ts).
      const ctx: HandlerCtx = { store, caller, baseUrl, ...(req.connection !== undefined ? { connection: req.connection } : {}) };
      // The audit log: what a write will record if it succeeds (audit/model.ts), taken before it runs.
      const audit = route.op.method === 'GET' ? undefined : beginAudit(store, route.op, found.params, input.body, caller.user);
      const result = await route.handler(ctx, input as never);
      const response = respond(route.op, result);
      if (!ctx.unchanged) audit?.(result instanceof Reply ? result.body : result);
      // Kept only if nothing changed while the handler ran (it may have waited).
      return key !== undefined && response.status === 200 && store.version === version ? keep(key, req, response) : response;
    } catch (err) {
      return errorResponse(err);
    }
  }

  /**
   * Keep an answer in the state's derived values (Store.derived, emptied by every change); returns
   * it as kept (frozen: every later hit sends this very object).
   */
  function keep(key: string, req: AppRequest, response: AppResponse): AppResponse {
    // Kept as bytes with their length: sent again without encoding or measuring them.
    const body = Buffer.from(response.body ?? '');
    let kept = store.derived.peek(KEPT);
    if (!kept || kept.bytes + body.length > CACHE_BYTES) store.derived.set(KEPT, (kept = { answers: new Map(), byRequest: new Map(), bytes: 0 }));
    const answer = Object.freeze({ ...response, body, headers: Object.freeze({ ...response.headers, 'content-length': String(body.length) }) });
    kept.bytes += body.length - (kept.answers.get(key)?.body?.length ?? 0);
    kept.answers.set(key, answer);
    if (req.method === 'GET') kept.byRequest.set(requestKey(req), answer);
    return answer;
  }

  /**
   * The last token verified on each connection and its user: a client sends the same token with
   * every request, and hashing it (userByToken) costs more than the rest of a small request. The
   * token is compared in constant time; the user must still be the same record (tokens never
   * change on a record: a reset or an imported state makes new ones).
   */
  const verified = new WeakMap<object, { token: Buffer; user: UserRec }>();

  function authenticate(req: AppRequest) {
    const header = headerOf(req, 'authorization');
    const m = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new HttpError(401, 'missing bearer token: send Authorization: Bearer <token>');
    const token = Buffer.from(m[1]);
    const memo = req.connection && verified.get(req.connection);
    if (memo && memo.token.length === token.length && timingSafeEqual(memo.token, token) && store.data.users.get(memo.user.id) === memo.user) {
      return { user: memo.user };
    }
    const user = store.userByToken(m[1]);
    if (!user) throw new HttpError(401, 'invalid or revoked token');
    if (req.connection) verified.set(req.connection, { token, user });
    return { user };
  }

  function sandboxControl(req: AppRequest, path: string): AppResponse {
    const { user } = authenticate(req);
    if (user.id !== store.data.sandboxAdmin) throw new HttpError(403, 'sandbox control needs the sandbox admin token');
    const route = SANDBOX_ROUTES.find((r) => r.method === req.method && r.path === path);
    if (!route) throw new HttpError(404, `no route ${req.method} ${path}`);
    const ctl: SandboxControl = {
      store,
      faults,
      reset: opts.reset,
      text: () => req.body?.toString() ?? '',
      json: () => parseBody(req),
      valid: (schema) => validate(schema, parseBody(req), 'body'),
    };
    const answer = route.answer(ctl);
    if (answer.text !== undefined) return { status: answer.status, headers: { 'content-type': 'application/json' }, body: answer.text };
    return answer.body === undefined ? { status: answer.status, headers: {} } : json(answer.status, answer.body);
  }

  return { handle, kept, store };
}

export type App = ReturnType<typeof createApp>;

function respond(op: AnyOp, result: unknown): AppResponse {
  const reply = result instanceof Reply ? result : new Reply(op.status, result);
  if (reply.status === 204 || reply.body === undefined) return { status: reply.status === 200 ? 204 : reply.status, headers: reply.headers };
  const headers: Record<string, string> = { ...reply.headers };
  const location = (reply.body as { urls?: { location?: string } })?.urls?.location;
  if (reply.status === 201 && location && !headers.location) headers.location = location;
  return json(reply.status, reply.body, headers);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): AppResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

export function errorResponse(err: unknown): AppResponse {
  if (err instanceof HttpError) {
    return json(err.status, { error: { code: err.status, message: err.message } }, err.headers);
  }
  // An unexpected failure is a bug of the sandbox: say so without leaking internals.
  console.error('[sandbox] internal error:', err);
  return json(500, { error: { code: 500, message: 'internal error in the sandbox' } });
}

/** `value` by `schema`, or 400 naming each field and its rule; `whole` names an issue of the whole value (`query: unknown fields "x"`). */
function validate<T extends z.ZodType>(schema: T, value: unknown, whole: 'path' | 'query' | 'body'): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const messages = r.error.issues.slice(0, 5).map((issue) => `${issuePath(issue) || whole}: ${describeIssue(issue, value)}`);
  throw new HttpError(400, messages.join('; '));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseBody(req: AppRequest): unknown {
  let raw: string;
  try {
    raw = typeof req.body === 'string' ? req.body : req.body === undefined ? '' : utf8.decode(req.body);
  } catch {
    throw new HttpError(400, 'body: not valid UTF-8');
  }
  if (!/\S/.test(raw)) return undefined;
  // Deeper than MAX_JSON_DEPTH takes more than that many characters.
  if (raw.length > MAX_JSON_DEPTH && jsonNestingExceeds(raw, MAX_JSON_DEPTH)) throw new HttpError(400, `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, `body: malformed JSON (${(e as Error).message})`);
  }
}

/** Names a query may not use: on a plain object they would reach its prototype, not a parameter. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function queryObject(search: string): Record<string, string | string[]> {
  // No prototype: a parameter named like an Object.prototype member (toString, hasOwnProperty) is just a name.
  const out: Record<string, string | string[]> = Object.create(null);
  if (!search) return out;
  for (const [k, v] of new URLSearchParams(search)) {
    if (PROTOTYPE_KEYS.has(k)) throw new HttpError(400, `${k}: not a query parameter of any operation (a reserved name)`);
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function headerOf(req: AppRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function baseUrlOf(req: AppRequest): string {
  const host = headerOf(req, 'host') ?? '127.0.0.1';
  return `http://${/^[\w.\-:[\]]+$/.test(host) ? host : '127.0.0.1'}`;
}
