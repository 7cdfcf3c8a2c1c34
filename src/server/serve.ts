/** The sandbox on a socket: `startServer()` for the CLI's `serve` and for tests. */
import { timingSafeEqual } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createApp, errorResponse, MAX_BODY_BYTES, type App, type AppRequest, type AppResponse } from './app.js';
import { HttpError } from './errors.js';
import { serverTimeouts } from './limits.js';
import { DEFAULT_FETCH_POLICY, LOOPBACK } from './lib/fetch.js';
import type { Persistence } from './persist/index.js';
import type { WriteScope } from './persist/journal.js';
import { defaultSeed, loadSeed, SeedError, type SeedData } from './seed.js';
import { Store } from './store.js';
import { families } from './routes.js';

export interface ServerOptions {
  port?: number;
  host?: string;
  /**
   * The sandbox admin's token: random when omitted (the default seed), else as the fixture or the
   * saved state has it. Given, the admin's token becomes this one, also in a state loaded from `data`.
   */
  token?: string;
  /** A fixture to load instead of the default data. */
  seed?: SeedData;
  /**
   * A state exported by `GET /_sandbox/state` to start from (and go back to on reset) instead of a
   * seed: `serve --seed` of an organization file or a folder passes the state its seeding made.
   */
  state?: string;
  /** Answer this share (0..1) of /v1 requests with a random fault, reproducibly for a seed. */
  chaos?: { rate: number; seed?: number };
  /**
   * Keep the state in this SQLite database (persist/): loaded on start (made and seeded when
   * missing; a JSON state file of earlier versions is imported once), each write committed before
   * it is acknowledged. Needs the optional package better-sqlite3.
   */
  data?: string;
  /** Told what `data` did that a user should know (a file imported, a leftover removed). Default: stderr. */
  notice?: (message: string) => void;
  /**
   * Hosts that content import and OpenAPI sources may fetch from, besides loopback (always
   * allowed): names, `*.domain` patterns, or `*` for any (`serve --allow-fetch`).
   */
  allowFetch?: string[];
  /** Deadline of one outbound fetch (with its redirects and body), in ms. Default 10000. */
  fetchTimeoutMs?: number;
  /**
   * A sandbox in the background (`serve --detach`): `POST /_sandbox/stop` with this token (and only
   * it: not the admin's) answers 202 `{pid}` and calls `onStop`, whose owner closes the server.
   */
  control?: { token: string; onStop(): void };
}

export class StateFileError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
/** `--token` cannot be the admin's: another user of the state has it. */
export class TokenError extends Error {}

/** Methods that change nothing (a state saved: no commit after them, unless a set slipped in). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RunningServer {
  url: string;
  token: string;
  organizationId: string;
  users: { id: string; role: string | null; token: string }[];
  app: App;
  store: Store;
  /** With `data`: the database and the journal that saves changes into it. */
  persistence?: Persistence;
  /**
   * Back to the state the sandbox started from (what `POST /_sandbox/reset` does; saved with `data`):
   * the fixture or `state` as loaded at start, the same text each time, so ids stay the same.
   */
  reset(): void;
  /** Stop listening; with `data`, close the database (its log is folded in and removed). */
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const seed = opts.seed ?? defaultSeed(opts.token);
  const store = new Store(undefined, families);
  store.fetchPolicy = {
    allowHosts: [LOOPBACK, ...(opts.allowFetch ?? [])],
    timeoutMs: opts.fetchTimeoutMs ?? DEFAULT_FETCH_POLICY.timeoutMs,
  };
  // The starting state, made once: start-up and every reset load this same text, so a reset gives
  // back exactly the records (ids, timestamps, tokens) the sandbox started with.
  const baseline = opts.state ?? seededState(seed); // throws SeedError before anything listens
  const start = () => {
    try {
      store.importState(baseline);
    } catch (e) {
      throw new SeedError((e as Error).message);
    }
    if (opts.token !== undefined) setAdminToken(store, opts.token);
  };
  let persistence: Persistence | undefined;
  if (opts.data) {
    const { openPersistence, DataFileError } = await import('./persist/index.js');
    try {
      persistence = await openPersistence(store, opts.data, start, opts.notice ?? ((m) => process.stderr.write(`docsctl serve: ${m}\n`)));
    } catch (e) {
      if (e instanceof DataFileError) throw new StateFileError(e.message, e.hint);
      throw e;
    }
    try {
      // A saved state keeps its tokens, but a token given now is the admin's from now on.
      if (opts.token !== undefined) setAdminToken(store, opts.token);
      persistence.journal.commit();
    } catch (e) {
      persistence.close();
      throw e;
    }
  } else {
    start();
  }
  /** The admin's token as announced (a saved database's, or --token): still the admin's after a reset. */
  let announced: string | undefined;
  const reset = () => {
    store.clear();
    store.clock.offset = 0;
    start();
    if (announced !== undefined && store.data.users.get(store.data.sandboxAdmin)?.token !== announced) {
      try {
        setAdminToken(store, announced);
      } catch {
        // Another user of the seed has that token: the seed's admin token stays.
      }
    }
  };
  const app = createApp(store, { reset, ...(opts.chaos ? { chaos: { rate: opts.chaos.rate, seed: opts.chaos.seed ?? 1 } } : {}) });

  const server = createServer(serverTimeouts(), (req, res) => {
    if (opts.control && (req.url ?? '').split('?')[0] === STOP_PATH) {
      onStop(req, res, opts.control);
      return;
    }
    // A read answered before, state unchanged: sent at once (see App.kept). A HEAD gets the GET's
    // answer: node:http leaves the body out of a response to HEAD, and keeps its Content-Length.
    const kept =
      (req.method === 'GET' || req.method === 'HEAD') && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
        ? app.kept({ method: 'GET', url: req.url ?? '/', headers: req.headers })
        : undefined;
    if (kept) {
      res.writeHead(kept.status, kept.headers);
      res.end(kept.body);
    } else {
      void onRequest(app, req, res, persistence);
    }
  });
  server.keepAliveTimeout = 5000;
  server.on('clientError', onClientError);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
    });
  } catch (e) {
    persistence?.close();
    throw e;
  }
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const admin = store.data.users.get(store.data.sandboxAdmin)!;
  announced = admin.token;
  const firstOrg = [...store.data.orgs.keys()].find((o) => store.member(o, admin.id)?.role === 'admin') ?? [...store.data.orgs.keys()][0];
  const users = [...store.data.users.values()].map((u) => ({
    id: u.id,
    role: store.member(firstOrg, u.id)?.role ?? (store.member(firstOrg, u.id) ? null : 'outsider'),
    token: u.token,
  }));
  // Reading the state to announce it touched records: nothing to write, but nothing left pending either.
  persistence?.journal.commit();
  return {
    url: `http://${host}:${addr.port}`,
    token: admin.token,
    organizationId: firstOrg,
    users,
    app,
    store,
    ...(persistence ? { persistence } : {}),
    reset: () => {
      reset();
      persistence?.journal.commit();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          persistence?.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** The route of a detached sandbox's control token (outside the app: the app never has it). */
const STOP_PATH = '/_sandbox/stop';

/**
 * `POST /_sandbox/stop` with the control token: 202 `{pid}`, then `onStop` once the answer is sent.
 * Any other token, or none, is 401; another method, 405. The token is compared in constant time.
 */
function onStop(req: IncomingMessage, res: ServerResponse, control: NonNullable<ServerOptions['control']>): void {
  req.resume();
  const given = Buffer.from(/^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const token = Buffer.from(control.token);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
    return (done?: () => void) => res.end(text, done);
  };
  if (given.length !== token.length || !timingSafeEqual(given, token)) {
    json(401, {
      error: { code: 401, message: 'stopping this sandbox needs its control token (the record that serve --detach wrote, which docsctl serve stop reads)' },
    })();
  } else if (req.method !== 'POST') {
    json(405, { error: { code: 405, message: `${req.method}: ${STOP_PATH} takes POST` } }, { allow: 'POST' })();
  } else {
    json(202, { pid: process.pid })(() => control.onStop());
  }
}

/** A fixture loaded into a store of its own, as exported state text (SeedError when it is malformed). */
function seededState(seed: SeedData): string {
  const scratch = new Store(undefined, families);
  loadSeed(scratch, seed);
  return scratch.exportState();
}

/** Make `token` the sandbox admin's. */
function setAdminToken(store: Store, token: string): void {
  try {
    store.setToken(store.data.sandboxAdmin, token);
  } catch (e) {
    throw new TokenError(`${(e as Error).message.replace('the token is', 'this token is')}: choose another`);
  }
}

async function onRequest(app: App, req: IncomingMessage, res: ServerResponse, persistence?: Persistence): Promise<void> {
  let out;
  try {
    // Without Content-Length or Transfer-Encoding a request has no body: nothing to wait for.
    const body = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined ? undefined : await readBody(req);
    // A HEAD is answered as its GET, whose body node:http does not send (see above).
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const appReq = { method, url: req.url ?? '/', headers: req.headers, body, connection: req.socket };
    out = persistence ? await handleSaved(app, appReq, persistence.journal) : await app.handle(appReq);
  } catch (err) {
    // The client went away (or sent a body HTTP cannot read, answered by onClientError): no one to answer.
    if (req.errored && !(err instanceof HttpError)) {
      req.socket.destroy();
      return;
    }
    out = errorResponse(err);
    res.setHeader('connection', 'close');
  }
  if (out.drop) {
    req.socket.destroy();
    return;
  }
  // With its length known, the answer goes out in one write instead of chunks (answers kept by the
  // app carry theirs).
  const headers =
    out.body === undefined || out.headers['content-length'] !== undefined
      ? out.headers
      : { ...out.headers, 'content-length': String(typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.length) };
  res.writeHead(out.status, headers);
  res.end(out.body);
}

type Journal = Persistence['journal'];

/**
 * A request with `--data`: a write's changes are committed (persist/journal.ts) before it is
 * answered; a write whose changes cannot be saved is undone and answered 503. A read is answered
 * with the journal paused (what it hands out is not touched).
 */
async function handleSaved(app: App, req: AppRequest, journal: Journal): Promise<AppResponse> {
  if (READS.has(req.method)) {
    let pending: Promise<AppResponse>;
    journal.pause();
    try {
      pending = app.handle(req);
    } finally {
      journal.resume();
    }
    const out = await pending;
    // A read may still make an empty list or a family's slice on first use: saved, without failing the read.
    if (journal.pending) journal.commitQuietly('a change made while answering a read');
    return out;
  }
  const scope: WriteScope = journal.begin();
  try {
    let pending: Promise<AppResponse>;
    try {
      pending = app.handle(req);
    } finally {
      journal.endSync(scope);
    }
    const out = await pending;
    if (scope.poisoned) {
      journal.putBackWrite(scope);
      return unsaved('another change that could not be saved undid part of this one');
    }
    try {
      journal.commit();
    } catch (e) {
      return unsaved((e as Error).message);
    }
    return out;
  } finally {
    journal.end(scope);
  }
}

/** The answer to a write that could not be saved (and was undone). */
function unsaved(reason: string): AppResponse {
  return errorResponse(
    new HttpError(503, `the sandbox could not save this change to its database, so it was not made (${reason}); the state is as it was before the request`, {
      'retry-after': '1',
    }),
  );
}

/** Malformed HTTP, which never reaches the app, still gets the documented error body. */
function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431
      ? 'request headers larger than the sandbox accepts'
      : status === 408
        ? 'the request took too long to arrive'
        : `malformed HTTP request (${err.code ?? 'unreadable'})`;
  const body = JSON.stringify({ error: { code: status, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      reject(new HttpError(413, `body: larger than ${MAX_BODY_BYTES} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit the rest is drained unread, so the 413 can still be answered.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, `body: larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(chunks.length > 1 ? Buffer.concat(chunks) : chunks[0]);
    });
    req.on('error', reject);
  });
}
