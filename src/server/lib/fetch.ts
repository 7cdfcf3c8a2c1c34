/**
 * Safe outbound HTTP(S) fetcher used by the sandbox server when it has to read
 * something from the network on behalf of a client (website imports, OpenAPI
 * specifications given by URL).
 *
 * Guarantees:
 * - only http: and https: URLs are fetched, including redirect targets;
 * - an optional host allow-list (names, `*.domain` patterns, `loopback`, `*`) is enforced on every hop;
 * - with an allow-list, the address is checked too: each hop's name is resolved once, a private,
 *   link-local, metadata, unspecified or reserved address is refused unless the allow-list names that
 *   very address (a loopback address needs `loopback`), and the connection goes to the address that
 *   was checked (no second lookup, so a name cannot resolve to another address in between);
 * - an optional budget shared by several fetches (one website import) bounds them as a whole;
 * - the whole operation (all redirects and the body) is bounded in time and size;
 * - every failure is a {@link FetchError} whose message names the URL, and the
 *   underlying request/socket is destroyed (no connection is left open).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;

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
  /** How a name is resolved (default: the system's resolver, `dns.lookup`). Tests inject their own. */
  lookup?: ResolveName;
  /** Bounds shared with other fetches of the same operation. */
  budget?: FetchBudget;
}

/** Every address of a host name, as `dns.lookup(name, { all: true })` gives them. */
export type ResolveName = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/**
 * What several fetches (a website import) may still do together; each fetch takes from it. Every
 * request sent counts (redirects and failures included), every body byte read counts.
 */
export interface FetchBudget {
  fetchesLeft: number;
  bytesLeft: number;
  /** Said when the fetches run out, e.g. `the import's limit of 200 fetches was reached`. */
  fetchesSpent: string;
  /** Said when the bytes run out. */
  bytesSpent: string;
  /** Aborted when the whole operation must stop; its reason (an Error) says why. */
  signal?: AbortSignal;
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
  /** How names are resolved (tests only; default `dns.lookup`). */
  lookup?: ResolveName;
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
 * The host of `url` when an allow-list refuses it, by name or, for an address, by address
 * (undefined when it may be fetched, or is not a URL: the fetch itself reports that), so a request
 * can be refused before any work. A name's addresses are checked when it is fetched.
 */
export function refusedHost(url: string, allowHosts: readonly string[] | null | undefined): string | undefined {
  if (!allowHosts || !URL.canParse(url)) return undefined;
  const host = hostnameOf(new URL(url));
  if (!hostAllowed(host, allowHosts)) return host;
  return isIP(host) && addressRefusal(host, allowHosts) ? host : undefined;
}

// ---------------------------------------------------------------------------
// Addresses

/** Address ranges the sandbox does not fetch from unless the allow-list names the address, by kind. */
const RANGES: readonly [kind: string, v4: readonly string[], v6: readonly string[]][] = [
  ['a loopback address', ['127.0.0.0/8'], ['::1/128']],
  ['an unspecified address', ['0.0.0.0/8'], ['::/128']],
  ['a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'], ['fc00::/7']],
  // 169.254.169.254 and fd00:ec2::254 are where clouds serve instance metadata (and credentials).
  ['a link-local (metadata) address', ['169.254.0.0/16'], ['fe80::/10']],
  ['a reserved address', ['192.0.0.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4'], ['ff00::/8', '::/96', '64:ff9b::/96', '64:ff9b:1::/48']],
];
const BLOCKS = RANGES.map(([kind, v4, v6]) => {
  const list = new BlockList();
  for (const cidr of v4) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv4');
  for (const cidr of v6) list.addSubnet(cidr.split('/')[0], Number(cidr.split('/')[1]), 'ipv6');
  return { kind, list };
});

/** What kind of non-public address `address` is (IPv4-mapped IPv6 as its IPv4), or undefined when public. */
export function addressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return BLOCKS.find((b) => b.list.check(address, type))?.kind;
}

/** `address` in one spelling: lower case, IPv6 compressed, an IPv4-mapped IPv6 address as its IPv4. */
export function canonicalAddress(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 6) return bare;
  const compressed = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * Why the allow-list does not let the sandbox connect to `address` (undefined when it does): a
 * public address is allowed; a loopback one needs `loopback`; any other kind (private, link-local,
 * metadata, unspecified, reserved) needs the address itself in the list. A name or `*` never
 * allows those: it says which hosts may be asked for, not where they may lead.
 */
export function addressRefusal(address: string, allowHosts: readonly string[]): string | undefined {
  const kind = addressKind(address);
  if (kind === undefined) return undefined;
  const canonical = canonicalAddress(address);
  if (allowHosts.some((p) => isIP(p.replace(/^\[(.*)\]$/, '$1')) !== 0 && canonicalAddress(p) === canonical)) return undefined;
  if (kind === 'a loopback address' && allowHosts.some((p) => p.toLowerCase() === LOOPBACK)) return undefined;
  return kind;
}

const systemLookup: ResolveName = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for `url`, resolved once and checked against the allow-list: the first
 * address the allow-list lets through. Throws (through `fail`) when none does.
 */
async function checkedAddress(
  url: URL,
  allowHosts: readonly string[],
  lookup: ResolveName,
  signal: AbortSignal,
  fail: (code: FetchErrorCode, detail: string) => FetchError,
  onAbort: () => FetchError,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostnameOf(url);
  let addresses: readonly { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    let aborted: (() => void) | undefined;
    try {
      addresses = await Promise.race([
        lookup(host),
        new Promise<never>((_, reject) => {
          aborted = () => reject(onAbort());
          if (signal.aborted) aborted();
          else signal.addEventListener('abort', aborted, { once: true });
        }),
      ]);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      throw fail('FETCH_ERROR', `host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    } finally {
      if (aborted) signal.removeEventListener('abort', aborted);
    }
  }
  if (addresses.length === 0) throw fail('FETCH_ERROR', `host ${host} could not be resolved (no address)`);
  let refusal: string | undefined;
  for (const a of addresses) {
    const why = addressRefusal(a.address, allowHosts);
    if (why === undefined) return { address: a.address, family: isIP(a.address) === 6 ? 6 : 4 };
    refusal ??= `${a.address}, ${why}`;
  }
  const named = isIP(host) ? `host ${host} is ${refusal!.slice(refusal!.indexOf(', ') + 2)}` : `host ${host} resolves to ${refusal}`;
  throw fail('FETCH_ERROR', `${named}, which the sandbox does not fetch from unless serve --allow-fetch names that address`);
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What a single request/response exchange produced. */
type HopOutcome = { kind: 'redirect'; status: number; location: string } | { kind: 'done'; status: number; contentType: string; body: Buffer };

/** Fetch `url` with GET, following redirects, within the bounds of `opts`. */
export async function safeFetch(url: string, opts: SafeFetchOptions = {}): Promise<FetchResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowHosts = opts.allowHosts ?? null;
  const { budget } = opts;

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

  // One deadline for the whole operation, and the budget's own stop; aborting destroys the in-flight request.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = budget?.signal ? AbortSignal.any([deadline.signal, budget.signal]) : deadline.signal;
  const onAbort = (): FetchError =>
    budget?.signal?.aborted
      ? fail('FETCH_TIMEOUT', (budget.signal.reason as Error | undefined)?.message ?? 'stopped')
      : fail('FETCH_TIMEOUT', `timed out after ${timeoutMs} ms`);
  try {
    for (; ; redirects++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') {
        throw fail('FETCH_ERROR', 'only http(s) URLs can be fetched');
      }
      if (allowHosts && !hostAllowed(hostnameOf(current), allowHosts)) {
        throw fail('FETCH_ERROR', `host ${hostnameOf(current)} is not allowed`);
      }
      if (signal.aborted) throw onAbort();
      if (budget) {
        if (budget.fetchesLeft <= 0) throw fail('FETCH_ERROR', budget.fetchesSpent);
        budget.fetchesLeft--;
      }
      const target = allowHosts ? await checkedAddress(current, allowHosts, opts.lookup ?? systemLookup, signal, fail, onAbort) : undefined;
      const maxBytes = Math.min(opts.maxBytes ?? DEFAULT_MAX_BYTES, budget ? budget.bytesLeft : Infinity);
      const outcome = await requestOnce(current, {
        accept: opts.accept ?? '*/*',
        maxBytes,
        tooLarge: budget && budget.bytesLeft < (opts.maxBytes ?? DEFAULT_MAX_BYTES) ? budget.bytesSpent : `response larger than ${maxBytes} bytes`,
        signal,
        fail,
        onAbort,
        ...(target ? { target } : {}),
      });
      if (budget && outcome.kind === 'done') budget.bytesLeft -= outcome.body.length;
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
  /** What to say when the body is larger than maxBytes. */
  tooLarge: string;
  signal: AbortSignal;
  fail: (code: FetchErrorCode, detail: string) => FetchError;
  onAbort: () => FetchError;
  /** The checked address to connect to (the URL's name is still sent, and verified by TLS). */
  target?: { address: string; family: 4 | 6 };
}

/** A lookup that answers the address already checked, whatever it is asked (no second resolution). */
function pinned(target: { address: string; family: 4 | 6 }): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
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
    const onAbort = (): void => abort(hop.onAbort());

    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method: 'GET',
      agent: false,
      ...(hop.target ? { lookup: pinned(hop.target) } : {}),
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
      const tooLarge = (): FetchError => fail('FETCH_ERROR', hop.tooLarge);
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
