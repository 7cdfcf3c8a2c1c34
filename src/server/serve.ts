/** The sandbox on a socket: `startServer()` for the CLI's `serve` and for tests. */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createApp, errorResponse, MAX_BODY_BYTES, type App } from './app.js';
import { HttpError } from './errors.js';
import { DEFAULT_FETCH_POLICY, LOOPBACK } from './lib/fetch.js';
import { defaultSeed, DEFAULT_ROLES, loadSeed, type SeedData } from './seed.js';
import { Store } from './store.js';
import { families } from './routes.js';

export interface ServerOptions {
  port?: number;
  host?: string;
  /** The admin user's token (default seed only); random when omitted. */
  token?: string;
  /** A fixture to load instead of the default data. */
  seed?: SeedData;
  /** Answer this share (0..1) of /v1 requests with a random fault, reproducibly for a seed. */
  chaos?: { rate: number; seed?: number };
  /**
   * Keep the state in this file: loaded on start (seeded when missing), written atomically before
   * every write is acknowledged.
   */
  data?: string;
  /**
   * Hosts that content import and OpenAPI sources may fetch from, besides loopback (always
   * allowed): names, `*.domain` patterns, or `*` for any (`serve --allow-fetch`).
   */
  allowFetch?: string[];
  /** Deadline of one outbound fetch (with its redirects and body), in ms. Default 10000. */
  fetchTimeoutMs?: number;
}

export class StateFileError extends Error {}

/** Methods that change nothing: no state file to write after them. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RunningServer {
  url: string;
  token: string;
  organizationId: string;
  users: { id: string; role: string | null; token: string }[];
  app: App;
  store: Store;
  /** Back to the seed (what `POST /_sandbox/reset` does). */
  reset(): void;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const seed = opts.seed ?? defaultSeed(opts.token);
  const store = new Store(undefined, families);
  store.fetchPolicy = {
    allowHosts: [LOOPBACK, ...(opts.allowFetch ?? [])],
    timeoutMs: opts.fetchTimeoutMs ?? DEFAULT_FETCH_POLICY.timeoutMs,
  };
  const persist = opts.data ? persister(store, opts.data) : undefined;
  if (opts.data && existsSync(opts.data)) {
    try {
      store.importState(readFileSync(opts.data, 'utf8'));
    } catch (e) {
      throw new StateFileError(`${opts.data} is not a docsctl sandbox state file (${(e as Error).message}); it was left untouched`);
    }
  } else {
    loadSeed(store, seed); // throws SeedError before anything listens
    persist?.();
  }
  if (persist) store.onBackgroundChange(persist);
  const reset = () => {
    store.clear();
    store.clock.offset = 0;
    loadSeed(store, seed);
  };
  const app = createApp(store, { reset, ...(opts.chaos ? { chaos: { rate: opts.chaos.rate, seed: opts.chaos.seed ?? 1 } } : {}) });

  const server = createServer((req, res) => {
    // A read answered before, state unchanged: sent at once (see App.kept). A HEAD gets the GET's
    // answer: node:http leaves the body out of a response to HEAD, and keeps its Content-Length.
    const kept = (req.method === 'GET' || req.method === 'HEAD') && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
      ? app.kept({ method: 'GET', url: req.url ?? '/', headers: req.headers })
      : undefined;
    if (kept) {
      res.writeHead(kept.status, kept.headers);
      res.end(kept.body);
    } else {
      void onRequest(app, req, res, persist);
    }
  });
  server.keepAliveTimeout = 5000;
  server.on('clientError', onClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const admin = store.data.users.get(store.data.sandboxAdmin)!;
  const firstOrg = [...store.data.orgs.keys()].find((o) => store.member(o, admin.id)?.role === 'admin') ?? [...store.data.orgs.keys()][0];
  const users = [...store.data.users.values()].map((u) => ({
    id: u.id,
    role: store.member(firstOrg, u.id)?.role ?? (store.member(firstOrg, u.id) ? null : 'outsider'),
    token: u.token,
  }));
  return {
    url: `http://${host}:${addr.port}`,
    token: admin.token,
    organizationId: firstOrg,
    users,
    app,
    store,
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function onRequest(app: App, req: IncomingMessage, res: ServerResponse, persist?: () => void): Promise<void> {
  let out;
  try {
    // Without Content-Length or Transfer-Encoding a request has no body: nothing to wait for.
    const body = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined ? undefined : await readBody(req);
    // A HEAD is answered as its GET, whose body node:http does not send (see above).
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    out = await app.handle({ method, url: req.url ?? '/', headers: req.headers, body, connection: req.socket });
    // A write is on disk before it is acknowledged (rejected requests changed nothing).
    if (persist && !READS.has(method) && out.status < 400 && !out.drop) persist();
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
  const headers = out.body === undefined || out.headers['content-length'] !== undefined
    ? out.headers
    : { ...out.headers, 'content-length': String(typeof out.body === 'string' ? Buffer.byteLength(out.body) : out.body.length) };
  res.writeHead(out.status, headers);
  res.end(out.body);
}

/** Malformed HTTP, which never reaches the app, still gets the documented error body. */
function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message = status === 431 ? 'request headers larger than the sandbox accepts' : status === 408 ? 'the request took too long to arrive' : `malformed HTTP request (${err.code ?? 'unreadable'})`;
  const body = JSON.stringify({ error: { code: status, message } });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** Write the whole state to `file` so that a crash at any moment leaves the old or the new state. */
function persister(store: Store, file: string): () => void {
  return () => {
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, store.exportState());
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  };
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

export { DEFAULT_ROLES };
