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
import { ApiError, MalformedAnswerError, NetworkError, ResponseTooLargeError, RunMemory, type AnswerSchema } from './errors.js';
import { CLIENT_LIMITS } from './limits.js';
import { pageProblem } from './paginator.js';

export interface HttpOptions {
  baseUrl: string;
  token?: string;
  /** Connect timeout of each attempt, ms (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * Timeout of the whole request, ms (default 30 s): every attempt with its body, and the waits
   * between them. A retry that could not start before it is not made.
   */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Upper bound on the time spent waiting between attempts, ms (default 30 s). */
  retryBudgetMs?: number;
  /** First backoff step, ms (default 250); doubles each attempt, with jitter. */
  backoffMs?: number;
  /** The most bytes of one answer read (default 64 MiB); past it a ResponseTooLargeError. */
  maxResponseBytes?: number;
  /** Trace every request on this writer (stderr). */
  trace?: (line: string) => void;
  userAgent?: string;
  /**
   * Where requests go instead of an Agent of the client's own (which it closes): another undici
   * Dispatcher, e.g. one that answers in process. Its owner closes it.
   */
  dispatcher?: Dispatcher;
  /**
   * Collect the dead chunks of downloads (a minor GC: the process entry's, src/entry.ts, which alone
   * sets V8 flags), called after every `CLIENT_LIMITS.releaseEveryBytes` given to sinks. Each chunk
   * is a new buffer Node read the socket into; V8 frees its bytes only when it collects the small
   * object holding them, and a download allocates almost nothing else on its heap, so without this
   * no collection comes until ~30 MiB of chunks already written wait (docs/performance.md).
   */
  collectGarbage?: () => void;
  /**
   * What the run this client works for remembers (its tokens, to mask them; the answers read, to
   * blame a malformed one): the client registers its token there and keeps its answers there. One
   * of the client's own when not given.
   */
  run?: RunMemory;
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
  /** The operation's documented answer, kept with the answer to tell a malformed one from a bug (see RunMemory.blameAnswer). */
  schema?: AnswerSchema;
  /**
   * Where a 2xx answer's body goes as it arrives (a download to a file or stdout), instead of into
   * `bytes`: not bounded by maxResponseBytes (only by the timeout). An error answer is read as usual.
   * An error the sink throws ends the request and is thrown as it is.
   */
  sink?: (chunk: Buffer, headers: Record<string, string>) => void | Promise<void>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as received (a download's bytes; `text` is their UTF-8 reading). */
  bytes: Buffer;
  /** Parsed JSON body, or undefined for an empty or non-JSON body. */
  json: unknown;
  /** Why an answer that may be retried was not (the whole request's timeout would not allow the wait). */
  notRetried?: string;
}

/** An error of a request's sink, carried through the client's own error handling untouched. */
class SinkFailure {
  constructor(readonly error: unknown) {}
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export class HttpClient {
  private readonly agent: Dispatcher;
  /** Whether `agent` is the client's own (closed with it). */
  private readonly ownAgent: boolean;
  private readonly opts: Required<Omit<HttpOptions, 'token' | 'trace' | 'dispatcher' | 'run' | 'collectGarbage'>> &
    Pick<HttpOptions, 'token' | 'trace' | 'collectGarbage'>;
  /** The run's memory: its tokens, the answers read. */
  private readonly run: RunMemory;
  /** Bytes given to sinks since the last collectGarbage. */
  private sunkBytes = 0;

  constructor(opts: HttpOptions) {
    const { dispatcher, run, ...rest } = opts;
    const { connectTimeoutMs, timeoutMs, maxRetries, retryBudgetMs, backoffMs, maxResponseBytes } = CLIENT_LIMITS;
    this.opts = {
      connectTimeoutMs,
      timeoutMs,
      maxRetries,
      retryBudgetMs,
      backoffMs,
      maxResponseBytes,
      userAgent: 'docsctl',
      ...rest,
      baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    };
    this.run = run ?? new RunMemory();
    this.run.registerSecret(opts.token);
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
    return this.run.mask(text, this.opts.token);
  }

  /**
   * Send a request, retrying where it is safe; throws ApiError for a non-2xx answer (its message
   * masked: a server may echo the Authorization header), MalformedAnswerError for a 2xx that is not
   * what `req.expect` says.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const res = await this.exchange(req);
    if (res.status >= 200 && res.status < 300) {
      if (req.expect) this.checkAnswer(req, res, req.expect);
      if (req.schema) this.run.recordAnswer({ method: req.method.toUpperCase(), url: this.mask(this.urlOf(req)), body: res.json, schema: req.schema });
      return res;
    }
    const redirect = this.redirectOf(res);
    if (redirect) throw new ApiError(res.status, redirect.message, req.method, req.path, res.json, res.headers, redirect.hint);
    const body = res.json as { error?: { message?: unknown }; detail?: unknown; title?: unknown } | undefined;
    // The service's error shape; else an RFC 9457 problem (detail, title); else the text itself.
    const message =
      [body?.error?.message, body?.detail, body?.title].find((m): m is string => typeof m === 'string' && m !== '') ??
      (res.text.trim().slice(0, 300) || `HTTP ${res.status}`);
    throw new ApiError(res.status, this.mask(message), req.method, req.path, res.json, res.headers, res.notRetried);
  }

  /** A 2xx answer that is not what `expect` says (JSON, a list): a MalformedAnswerError naming the request. */
  checkAnswer(req: Pick<HttpRequest, 'method' | 'path' | 'query'>, res: HttpResponse, expect: 'json' | 'list'): void {
    const problem = answerProblem(res, expect);
    if (problem) throw new MalformedAnswerError(req.method.toUpperCase(), this.mask(this.urlOf(req)), this.mask(problem));
  }

  /**
   * A redirect (3xx but 304 Not Modified), which docsctl never follows (the token would go with it):
   * its message, naming the status and the Location, and a hint. Undefined for any other answer.
   */
  redirectOf(res: HttpResponse): { message: string; hint: string } | undefined {
    if (res.status < 300 || res.status >= 400 || res.status === 304) return undefined;
    const location = res.headers.location;
    return {
      message: this.mask(`the server answered ${res.status}, a redirect ${location ? `to ${location}` : 'without a Location'}, which docsctl does not follow`),
      hint: 'check the API URL (docsctl auth status): docsctl sends requests (and the token) to that URL only, never where a server redirects them',
    };
  }

  /** Like send, but any status is an answer (for `docsctl api`). */
  async exchange(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const url = this.urlOf(req);
    const retryable = IDEMPOTENT.has(method);
    const started = Date.now();
    // One deadline for the whole request: every attempt and every wait between them.
    const deadline = started + this.opts.timeoutMs;
    // A download whose sink has had bytes cannot be sent again (they would come twice).
    let sunk = false;
    const sink =
      req.sink &&
      (async (chunk: Buffer, headers: Record<string, string>) => {
        sunk = true;
        await req.sink!(chunk, headers);
      });
    for (let attempt = 0; ; attempt++) {
      const t0 = Date.now();
      let res: HttpResponse | undefined;
      let failure: NetworkError | undefined;
      try {
        res = await this.once(method, url, { ...req, sink }, deadline, attempt);
        this.opts.trace?.(`${method} ${url} → ${res.status} (${Date.now() - t0} ms)`);
      } catch (e) {
        if (e instanceof SinkFailure) throw e.error;
        if (!(e instanceof NetworkError)) throw e;
        failure = e;
        this.opts.trace?.(`${method} ${url} → ${failure.message} (${Date.now() - t0} ms)`);
      }
      // A 429 was refused before any work (the service's rate limit): safe to send again whatever the method.
      const shouldRetry =
        attempt < this.opts.maxRetries && !sunk && (retryable ? failure !== undefined || RETRY_STATUSES.has(res!.status) : res?.status === 429);
      if (!shouldRetry) {
        if (failure) throw failure;
        return res!;
      }
      const wait = this.delayFor(attempt, res);
      const left = deadline - Date.now();
      if (wait >= left) {
        // Not worth waiting for: the next attempt could not start within the timeout.
        const asked =
          res?.headers['retry-after'] !== undefined ? `the server asked to wait ${wait} ms (Retry-After)` : `the next attempt was due in ${wait} ms`;
        const why = `not retried: ${asked}, more than the ${Math.max(0, left)} ms left of the whole request's ${this.opts.timeoutMs} ms timeout (--timeout or DOCSCTL_TIMEOUT)`;
        this.opts.trace?.(why);
        if (failure) throw new NetworkError(`${failure.message}; ${why}`, failure.method, failure.url, failure.timedOut);
        return { ...res!, notRetried: why };
      }
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

  private async once(method: string, url: string, req: HttpRequest, deadline: number, attempt: number): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: '*/*', 'user-agent': this.opts.userAgent, ...lower(req.headers) };
    if (this.opts.token && !req.anonymous && !headers.authorization) headers.authorization = `Bearer ${this.opts.token}`;
    let body: string | Buffer | undefined = req.rawBody;
    if (body === undefined && req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    // What is left of the whole request's time (at least a moment, for the attempt to fail as a timeout).
    const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    try {
      const { origin, pathname, search } = new URL(url);
      const res = await request.call(this.agent, { origin, path: pathname + search, method: method as Dispatcher.HttpMethod, headers, body, signal });
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      if (ok && req.sink) {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          try {
            await req.sink(chunk, resHeaders);
          } catch (e) {
            res.body.destroy();
            throw new SinkFailure(e);
          }
          this.sunkBytes += chunk.length;
          if (this.sunkBytes >= CLIENT_LIMITS.releaseEveryBytes && this.opts.collectGarbage) {
            this.sunkBytes %= CLIENT_LIMITS.releaseEveryBytes;
            this.opts.collectGarbage();
          }
        }
        return { status: res.statusCode, headers: resHeaders, text: '', bytes: Buffer.alloc(0), json: undefined };
      }
      const bytes = await this.readBody(res.body, resHeaders['content-length'], method, url);
      const text = bytes.toString('utf8');
      return { status: res.statusCode, headers: resHeaders, text, bytes, json: parseJson(text, resHeaders['content-type']) };
    } catch (e) {
      if (e instanceof SinkFailure || e instanceof ResponseTooLargeError) throw e;
      const err = e as Error & { code?: string };
      const timedOut = signal.aborted || err.name === 'TimeoutError' || /TIMEOUT/.test(err.code ?? '');
      const what = !timedOut
        ? (err.code ?? err.message)
        : signal.aborted
          ? `timed out after ${this.opts.timeoutMs} ms (the whole request${attempt > 0 ? `, ${attempt + 1} attempts` : ''}: --timeout or DOCSCTL_TIMEOUT)`
          : `timed out after ${this.opts.connectTimeoutMs} ms connecting (DOCSCTL_CONNECT_TIMEOUT)`;
      throw new NetworkError(`${method} ${url}: ${what}`, method, url, timedOut);
    }
  }

  /**
   * An answer's body, at most maxResponseBytes of it: a larger Content-Length is refused before
   * anything is read, and a body that grows past the bound as it streams in is cut there (the
   * connection closed), so that a server cannot make docsctl hold more.
   */
  private async readBody(body: Dispatcher.ResponseData['body'], contentLength: string | undefined, method: string, url: string): Promise<Buffer> {
    const max = this.opts.maxResponseBytes;
    const announced = contentLength !== undefined && /^\d+$/.test(contentLength.trim()) ? Number(contentLength) : undefined;
    const tooLarge = () => {
      body.destroy();
      return new ResponseTooLargeError(method, this.mask(url), max, announced);
    };
    if (announced !== undefined && announced > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
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
      const truncated =
        /^\s*[[{]/.test(res.text) && (/end of (JSON )?input/i.test((e as Error).message) || (at !== null && Number(at[1]) >= res.text.trimEnd().length));
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
