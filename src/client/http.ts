/**
 * The one HTTP layer, on undici: base URL + `/v1`, bearer auth, JSON, timeouts, retries with
 * exponential backoff and jitter (network errors, 429, 502/503/504; honouring Retry-After; only for
 * GET/PUT/DELETE, but 429 for every method: the request was refused before any work), and `--verbose` tracing with the token masked.
 */
import type { Dispatcher } from 'undici';
// undici's index loads every feature it has (fetch, WebSocket, caches, mocks: ~1 MB to compile at each
// start); the client uses the dispatcher and the request API only, so it loads just those.
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import { ApiError, MalformedAnswerError, maskSecrets, NetworkError, recordAnswer, registerSecret, type AnswerSchema } from './errors.js';
import { pageProblem } from './paginator.js';

export { maskSecrets };

export interface HttpOptions {
  baseUrl: string;
  token?: string;
  /** Connect timeout, ms (default 10 s). */
  connectTimeoutMs?: number;
  /** Whole-request timeout including the body, ms (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Upper bound on the time spent waiting between attempts, ms (default 30 s). */
  retryBudgetMs?: number;
  /** First backoff step, ms (default 250); doubles each attempt, with jitter. */
  backoffMs?: number;
  /** Trace every request on this writer (stderr). */
  trace?: (line: string) => void;
  userAgent?: string;
  /**
   * Where requests go instead of an Agent of the client's own (which it closes): another undici
   * Dispatcher, e.g. one that answers in process. Its owner closes it.
   */
  dispatcher?: Dispatcher;
}

export interface HttpRequest {
  method: string;
  /** Path from the API root, e.g. `/v1/orgs`; or an absolute URL on the same host. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | (string | number | boolean)[]>;
  body?: unknown;
  /** Raw body (already serialized), for `docsctl api --input`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Send no token (a URL on another origin, which carries its own authorization). */
  anonymous?: boolean;
  /**
   * What a 2xx answer must be (`send` only): `json`, a JSON body; `list`, a JSON list envelope
   * `{items: [...], count?, next?: {page}}`. Anything else is a MalformedAnswerError naming the request.
   */
  expect?: 'json' | 'list';
  /** The operation's documented answer, kept with the answer to tell a malformed one from a bug (see blameAnswer). */
  schema?: AnswerSchema;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as received (a download's bytes; `text` is their UTF-8 reading). */
  bytes: Buffer;
  /** Parsed JSON body, or undefined for an empty or non-JSON body. */
  json: unknown;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export class HttpClient {
  private readonly agent: Dispatcher;
  /** Whether `agent` is the client's own (closed with it). */
  private readonly ownAgent: boolean;
  private readonly opts: Required<Omit<HttpOptions, 'token' | 'trace' | 'dispatcher'>> & Pick<HttpOptions, 'token' | 'trace'>;

  constructor(opts: HttpOptions) {
    const { dispatcher, ...rest } = opts;
    this.opts = {
      connectTimeoutMs: 10_000, timeoutMs: 30_000, maxRetries: 3, retryBudgetMs: 30_000, backoffMs: 250,
      userAgent: 'docsctl', ...rest, baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    };
    registerSecret(opts.token);
    // Traces never show a token, even one a server put in a URL it sent back.
    if (opts.trace) {
      const trace = opts.trace;
      this.opts.trace = (line) => trace(this.mask(line));
    }
    // maxHeaderSize: Node's default, given so that undici does not load node:http to ask for it.
    this.ownAgent = dispatcher === undefined;
    this.agent = dispatcher ?? new Agent({ connect: { timeout: this.opts.connectTimeoutMs }, keepAliveTimeout: 4_000, maxHeaderSize: 16 * 1024 });
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /** `text` with this client's token (and any `Bearer …`) masked: for whatever a server sent back. */
  mask(text: string): string {
    return maskSecrets(text, this.opts.token);
  }

  /**
   * Send a request, retrying where it is safe; throws ApiError for a non-2xx answer (its message
   * masked: a server may echo the Authorization header), MalformedAnswerError for a 2xx that is not
   * what `req.expect` says.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const res = await this.exchange(req);
    if (res.status >= 200 && res.status < 300) {
      if (req.expect) {
        const problem = answerProblem(res, req.expect);
        if (problem) throw new MalformedAnswerError(req.method.toUpperCase(), this.mask(this.urlOf(req)), this.mask(problem));
      }
      if (req.schema) recordAnswer({ method: req.method.toUpperCase(), url: this.mask(this.urlOf(req)), body: res.json, schema: req.schema });
      return res;
    }
    const body = res.json as { error?: { message?: unknown }; detail?: unknown; title?: unknown } | undefined;
    // The service's error shape; else an RFC 9457 problem (detail, title); else the text itself.
    const message = [body?.error?.message, body?.detail, body?.title].find((m): m is string => typeof m === 'string' && m !== '')
      ?? (res.text.trim().slice(0, 300) || `HTTP ${res.status}`);
    throw new ApiError(res.status, this.mask(message), req.method, req.path, res.json, res.headers);
  }

  /** Like send, but any status is an answer (for `docsctl api`). */
  async exchange(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const url = this.urlOf(req);
    const retryable = IDEMPOTENT.has(method);
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const t0 = Date.now();
      let res: HttpResponse | undefined;
      let failure: NetworkError | undefined;
      try {
        res = await this.once(method, url, req);
        this.opts.trace?.(`${method} ${url} → ${res.status} (${Date.now() - t0} ms)`);
      } catch (e) {
        failure = e as NetworkError;
        this.opts.trace?.(`${method} ${url} → ${failure.message} (${Date.now() - t0} ms)`);
      }
      // A 429 was refused before any work (the service's rate limit): safe to send again whatever the method.
      const shouldRetry = attempt < this.opts.maxRetries
        && (retryable ? failure !== undefined || RETRY_STATUSES.has(res!.status) : res?.status === 429);
      if (!shouldRetry) {
        if (failure) throw failure;
        return res!;
      }
      const wait = this.delayFor(attempt, res);
      if (Date.now() - started + wait > this.opts.retryBudgetMs) {
        if (failure) throw failure;
        return res!;
      }
      this.opts.trace?.(`retrying in ${wait} ms (attempt ${attempt + 2} of ${this.opts.maxRetries + 1})`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Backoff: Retry-After when the server gave one, else exponential with full jitter. */
  private delayFor(attempt: number, res: HttpResponse | undefined): number {
    const after = res?.headers['retry-after'];
    if (after !== undefined) {
      const secs = Number(after);
      if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000);
      const date = Date.parse(after);
      if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
    }
    const cap = this.opts.backoffMs * 2 ** attempt;
    return Math.round(cap / 2 + Math.random() * (cap / 2));
  }

  private urlOf(req: HttpRequest): string {
    const url = new URL(/^https?:\/\//.test(req.path) ? req.path : this.opts.baseUrl + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
    }
    return url.toString();
  }

  private async once(method: string, url: string, req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: '*/*', 'user-agent': this.opts.userAgent, ...lower(req.headers) };
    if (this.opts.token && !req.anonymous && !headers.authorization) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | Buffer | undefined = req.rawBody;
    if (body === undefined && req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const { origin, pathname, search } = new URL(url);
      const res = await request.call(this.agent, { origin, path: pathname + search, method: method as Dispatcher.HttpMethod, headers, body, signal });
      const bytes = Buffer.from(await res.body.arrayBuffer());
      const text = bytes.toString('utf8');
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers: resHeaders, text, bytes, json: parseJson(text, resHeaders['content-type']) };
    } catch (e) {
      const err = e as Error & { code?: string };
      const timedOut = signal.aborted || err.name === 'TimeoutError' || /TIMEOUT/.test(err.code ?? '');
      const what = timedOut ? `timed out after ${timedOut && signal.aborted ? this.opts.timeoutMs : this.opts.connectTimeoutMs} ms` : (err.code ?? err.message);
      throw new NetworkError(`${method} ${url}: ${what}`, method, url, timedOut);
    }
  }

  async close(): Promise<void> {
    if (this.ownAgent) await this.agent.close();
  }
}

function lower(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (contentType && !/json/.test(contentType) && !/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What is wrong with a 2xx answer that should be JSON (or a JSON list), or undefined. */
function answerProblem(res: HttpResponse, expect: 'json' | 'list'): string | undefined {
  let json = res.json;
  if (json === undefined) {
    if (res.text.trim() === '') return `an empty answer (HTTP ${res.status}) where JSON was expected`;
    try {
      json = JSON.parse(res.text);
    } catch (e) {
      // Cut short: JSON that was fine until its end (V8 says where it stopped).
      const at = /position (\d+)/.exec((e as Error).message);
      const truncated = /^\s*[[{]/.test(res.text) && (/end of (JSON )?input/i.test((e as Error).message) || (at !== null && Number(at[1]) >= res.text.trimEnd().length));
      const head = res.text.replace(/\s+/g, ' ').trim();
      const snippet = head.length > 60 ? `${head.slice(0, 60)}…` : head;
      const type = res.headers['content-type'] ? `, ${res.headers['content-type'].split(';')[0]}` : '';
      return truncated ? `truncated JSON, ${res.bytes.length} bytes: "${snippet}"` : `not JSON${type}: "${snippet}"`;
    }
  }
  return expect === 'list' ? pageProblem(json) : undefined;
}

/** `abcd…` → `****wxyz`: what logs and `auth status` show of a token. */
export function maskToken(token: string): string {
  return token.length <= 4 ? '****' : `****${token.slice(-4)}`;
}
