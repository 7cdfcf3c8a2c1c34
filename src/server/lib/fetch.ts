/**
 * Safe outbound HTTP(S) fetcher used by the sandbox server when it has to read
 * something from the network on behalf of a client (website imports, OpenAPI
 * specifications given by URL).
 *
 * Guarantees:
 * - only http: and https: URLs are fetched, including redirect targets;
 * - an optional host allow-list (names, `*.domain` patterns, `loopback`, `*`) is enforced on every hop;
 * - the whole operation (all redirects and the body) is bounded in time and size;
 * - every failure is a {@link FetchError} whose message names the URL, and the
 *   underlying request/socket is destroyed (no connection is left open).
 */
import http from 'node:http';
import https from 'node:https';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface SafeFetchOptions {
  /** Deadline for the whole fetch: every redirect hop and the response body. Default 10000. */
  timeoutMs?: number;
  /** Largest accepted response body, in bytes. Default 5 MiB. */
  maxBytes?: number;
  /** Largest number of redirects followed. Default 5. */
  maxRedirects?: number;
  /**
   * When given, the only hosts that may be fetched, checked on the initial URL and on every
   * redirect target (see {@link hostAllowed} for the patterns). Absent or null: any host.
   */
  allowHosts?: readonly string[] | null;
  /** Value of the Accept request header. Default `*\/*`. */
  accept?: string;
}

export interface FetchResult {
  /** Final URL, after redirects. */
  url: string;
  status: number;
  /** Content-Type response header as sent by the server ('' when absent). */
  contentType: string;
  body: Buffer;
}

export type FetchErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR';

export class FetchError extends Error {
  readonly code: FetchErrorCode;

  constructor(code: FetchErrorCode, message: string) {
    super(message);
    this.name = 'FetchError';
    this.code = code;
  }
}

/**
 * What the sandbox may fetch, set once by `startServer` (`serve --allow-fetch`) and read by content
 * import and OpenAPI processing.
 */
export interface FetchPolicy {
  allowHosts: readonly string[];
  timeoutMs: number;
}

/** The allow-list pattern that matches the loopback names and addresses. */
export const LOOPBACK = 'loopback';

/** By default the sandbox fetches only from this machine: it cannot be turned into a proxy. */
export const DEFAULT_FETCH_POLICY: FetchPolicy = { allowHosts: [LOOPBACK], timeoutMs: DEFAULT_TIMEOUT_MS };

/** A pattern of the allow-list: a host name or address, `*.domain` (its subdomains), `loopback`, or `*`. */
export const HOST_PATTERN = /^(\*|loopback|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|\[?[0-9a-f:.]+\]?)$/i;

/** Whether `host` (a URL's hostname) matches one of the allow-list's patterns; case-insensitive. */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return allowHosts.some((raw) => {
    const p = raw.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    if (p === '*') return true;
    if (p === LOOPBACK) return isLoopback(h);
    if (p.startsWith('*.')) return h.endsWith(p.slice(1));
    return h === p;
  });
}

function isLoopback(h: string): boolean {
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The host of `url` when an allow-list refuses it (undefined when it may be fetched, or is not a
 * URL: the fetch itself reports that), so a request can be refused before any work.
 */
export function refusedHost(url: string, allowHosts: readonly string[] | null | undefined): string | undefined {
  if (!allowHosts || !URL.canParse(url)) return undefined;
  const host = hostnameOf(new URL(url));
  return hostAllowed(host, allowHosts) ? undefined : host;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What a single request/response exchange produced. */
type HopOutcome =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'done'; status: number; contentType: string; body: Buffer };

/** Fetch `url` with GET, following redirects, within the bounds of `opts`. */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<FetchResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowHosts = opts.allowHosts ?? null;

  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new FetchError('FETCH_ERROR', `fetching ${url}: not a valid URL`);
  }

  let redirects = 0;
  // Messages name the URL the caller asked for, plus where it led when redirected.
  const fail = (code: FetchErrorCode, detail: string): FetchError => {
    const where = redirects === 0 ? url : `${url} (redirected to ${current.href})`;
    return new FetchError(code, `fetching ${where}: ${detail}`);
  };

  // One deadline for the whole operation; aborting it destroys the in-flight request.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    for (; ; redirects++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') {
        throw fail('FETCH_ERROR', 'only http(s) URLs can be fetched');
      }
      if (allowHosts && !hostAllowed(hostnameOf(current), allowHosts)) {
        throw fail('FETCH_ERROR', `host ${hostnameOf(current)} is not allowed`);
      }
      const outcome = await requestOnce(current, {
        accept: opts.accept ?? '*/*',
        maxBytes,
        signal: deadline.signal,
        fail,
        timeoutDetail: `timed out after ${timeoutMs} ms`,
      });
      if (outcome.kind === 'redirect') {
        if (redirects >= maxRedirects) throw fail('FETCH_ERROR', `too many redirects (more than ${maxRedirects})`);
        try {
          current = new URL(outcome.location, current);
        } catch {
          throw fail('FETCH_ERROR', `answered ${outcome.status} with an invalid Location header`);
        }
        continue;
      }
      if (outcome.status < 200 || outcome.status > 299) throw fail('FETCH_ERROR', `answered ${outcome.status}`);
      return { url: current.href, status: outcome.status, contentType: outcome.contentType, body: outcome.body };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Hostname without IPv6 brackets, lower-cased, as compared with allowHosts. */
function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

interface HopOptions {
  accept: string;
  maxBytes: number;
  signal: AbortSignal;
  fail: (code: FetchErrorCode, detail: string) => FetchError;
  timeoutDetail: string;
}

/**
 * Perform one GET request. Redirect answers are reported (not followed) and their
 * bodies discarded; error statuses are reported without reading the body.
 */
function requestOnce(url: URL, hop: HopOptions): Promise<HopOutcome> {
  const { fail, maxBytes, signal } = hop;
  return new Promise<HopOutcome>((resolve, reject) => {
    let settled = false;
    let res: http.IncomingMessage | undefined;

    const finish = (outcome: HopOutcome): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      // The connection is never reused (agent: false, Connection: close); make sure it goes away.
      req.destroy();
      resolve(outcome);
    };
    const abort = (err: FetchError): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      res?.destroy();
      req.destroy();
      reject(err);
    };
    const onAbort = (): void => abort(fail('FETCH_TIMEOUT', hop.timeoutDetail));

    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method: 'GET',
      agent: false,
      headers: {
        accept: hop.accept,
        'accept-encoding': 'identity',
        connection: 'close',
        'user-agent': 'docsctl-sandbox',
      },
    });
    // Errors after settling (e.g. from our own destroy()) are swallowed by the settled guard.
    req.on('error', (err) => abort(fail('FETCH_ERROR', `request failed: ${err.message}`)));
    req.on('response', (response) => {
      res = response;
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        finish({ kind: 'redirect', status, location });
        return;
      }
      if (status < 200 || status > 299) {
        finish({ kind: 'done', status, contentType: '', body: Buffer.alloc(0) });
        return;
      }
      const tooLarge = (): FetchError => fail('FETCH_ERROR', `response larger than ${maxBytes} bytes`);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        abort(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) abort(tooLarge());
        else chunks.push(chunk);
      });
      response.on('end', () =>
        finish({
          kind: 'done',
          status,
          contentType: response.headers['content-type'] ?? '',
          body: Buffer.concat(chunks, size),
        }),
      );
      // 'close' without a prior 'end' means the body was cut short (or the stream errored).
      response.on('error', () => undefined);
      response.on('close', () => abort(fail('FETCH_ERROR', 'connection closed before the response was complete')));
    });
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}
