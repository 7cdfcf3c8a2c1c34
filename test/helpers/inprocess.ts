/**
 * The in-process harness: docsctl's `main()` run in this test process with an injected command
 * line, stdin, captured stdout and stderr, a clean environment (a temporary HOME and config dir, never
 * the real home) and an undici Dispatcher that hands each request to the sandbox's `app.handle()`:
 * no socket, no child process, no build. The program knows nothing of it beyond `Io` (its streams,
 * its environment and its `dispatcher`); the exit code comes back as a value.
 *
 * `useSandbox()` here has the interface of test/helpers/cli.ts's (the built binary in a process), so a
 * test file moves from one to the other by its import; `sb.process()` still runs the real binary, for
 * what only a process shows (exit codes at exit, signals, pipes, a TTY); `docsctlInProcess()` is
 * cli.ts's `docsctl()` (exactly the environment given) in process, for a server of a test's own or
 * another sandbox (`dispatcher: new AppDispatcher(...)`). Every answer, and every
 * request the CLI sends, is checked against the official document as before (`watchAnswers` wraps
 * `app.handle`, which the dispatcher calls).
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { Agent, Dispatcher } from 'undici';
import { afterAll } from 'vitest';
import type { Io } from '../../src/cli/context.js';
import type { Manifest } from '../../src/cli/manifest.js';
import { main, VERSION } from '../../src/main.js';
import { buildManifest } from '../../src/manifest-build.js';
import type { App, AppResponse } from '../../src/server/app.js';
import type { ServerOptions } from '../../src/server/serve.js';
import { docsctl, useSandboxWith, type RunOptions, type RunResult, type Sandbox } from './cli.js';

export type { RunOptions, RunResult };

let manifest: Promise<Manifest> | undefined;

/** The command manifest, built from the sources once per test process (the build writes the same, dist/manifest.json). */
export function sourceManifest(): Promise<Manifest> {
  manifest ??= buildManifest(VERSION);
  return manifest;
}

/**
 * An undici Dispatcher that answers the sandbox's origin from `app.handle()` in this process: the
 * request as the client built it (method, path, headers, body), the answer as the app gives it,
 * through the handler API that undici's own MockAgent drives; as on the sandbox's socket
 * (src/server/serve.ts), a HEAD reaches the app as its GET and gets no body, and an answer the app
 * drops (fault injection) is a socket error. Requests to any other origin (a test's own server)
 * go to the network.
 */
export class AppDispatcher extends Dispatcher {
  /** Stands for the client's connection: a token verified on it is not hashed again (AppRequest.connection). */
  private readonly connection = {};
  private network?: Agent;

  constructor(
    private readonly app: App,
    private readonly origin: string,
  ) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (new URL(String(opts.origin)).origin !== this.origin) {
      this.network ??= new Agent({ keepAliveTimeout: 1_000 });
      return this.network.dispatch(opts, handler);
    }
    const h = handler as Dispatcher.DispatchHandler & {
      onConnect?(abort: (err?: Error) => void, context?: unknown): void;
      onHeaders?(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
      onData?(chunk: Buffer): boolean;
      onComplete?(trailers: Buffer[] | null): void;
      onError?(err: Error): void;
    };
    let aborted: Error | undefined;
    h.onConnect?.((err) => {
      aborted = err ?? new Error('aborted');
    });
    const headers: Record<string, string> = { host: new URL(String(opts.origin)).host };
    for (const [k, v] of Object.entries((opts.headers ?? {}) as Record<string, string | string[] | undefined>)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const body =
      opts.body === undefined || opts.body === null ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : undefined;
    if (opts.body !== undefined && opts.body !== null && body === undefined)
      throw new Error('AppDispatcher: only string and Buffer bodies (what the client sends)');
    this.app
      .handle({
        method: opts.method === 'HEAD' ? 'GET' : opts.method,
        url: opts.path,
        headers,
        ...(body !== undefined ? { body } : {}),
        connection: this.connection,
      })
      .then((res: AppResponse) => {
        if (aborted) return h.onError?.(aborted);
        if (res.drop) return h.onError?.(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
        const raw: Buffer[] = [];
        for (const [k, v] of Object.entries(res.headers)) raw.push(Buffer.from(k), Buffer.from(v));
        h.onHeaders?.(res.status, raw, () => {}, '');
        // No body for HEAD, as on the wire.
        if (res.body !== undefined && opts.method !== 'HEAD') h.onData?.(Buffer.from(res.body));
        h.onComplete?.([]);
      })
      .catch((err: Error) => h.onError?.(err));
    return true;
  }

  override async close(): Promise<void> {
    await this.network?.close();
  }

  override async destroy(): Promise<void> {
    await this.network?.destroy();
  }
}

export interface InProcessRun {
  /** The variables the program sees (nothing of this process's environment). */
  env: Record<string, string | undefined>;
  /** Stdin's content; without it stdin is empty (as `stdin: 'ignore'` in a process). */
  input?: string;
  /** Where API requests go: an AppDispatcher for a sandbox; without it, the network. */
  dispatcher?: Dispatcher;
}

/** Run docsctl's main() in this process: stdout and stderr captured, the exit code as a value. */
export async function runInProcess(argv: string[], run: InProcessRun): Promise<RunResult> {
  const capture = () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    }) as Writable & { isTTY?: boolean };
    stream.isTTY = false;
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const out = capture();
  const err = capture();
  const stdin = run.input !== undefined ? Readable.from([Buffer.from(run.input)]) : endedStream();
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(run.env)) if (v !== undefined) env[k] = v;
  const io: Io = {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Object.assign(stdin, { isTTY: false }),
    stdinIsTTY: false,
    env,
    ...(run.dispatcher ? { dispatcher: run.dispatcher } : {}),
  };
  const exitCode = await main(argv, io, await sourceManifest());
  return { stdout: trimEnd(out.text()), stderr: trimEnd(err.text()), exitCode };
}

/**
 * test/helpers/cli.ts's `docsctl()` in process: main() with exactly `env` (and PATH), stdin from
 * `input`; API requests go to `dispatcher` (an AppDispatcher for a sandbox), else to the network
 * through the client's own agent, as from a process.
 */
export function docsctlInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { input?: string; dispatcher?: Dispatcher } = {},
): Promise<RunResult> {
  return runInProcess(args, {
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
  });
}

function endedStream(): Readable {
  const s = new PassThrough();
  s.end();
  return s;
}

/** execa's `stripFinalNewline`, so that results read as the subprocess harness's. */
function trimEnd(text: string): string {
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

export interface InProcessSandbox extends Sandbox {
  /** The same command as `run`, in a real `node bin/docsctl.js` process against the sandbox's socket (build first). */
  process(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** docsctl in process with exactly `env` (cli.ts's `docsctl()`: no DOCSCTL_* unless given), the sandbox answering for its URL. */
  docsctl(args: string[], env: Record<string, string | undefined>, opts?: { input?: string }): Promise<RunResult>;
}

/**
 * One sandbox for the test file, reset before each test (test/helpers/cli.ts's useSandbox), with
 * `run` and `json` calling docsctl in process. The sandbox also listens on 127.0.0.1:0, for
 * `process()` and for `url` (the API URL the CLI is given; the dispatcher answers for it without
 * a socket).
 */
export function useSandbox(opts: ServerOptions = {}): InProcessSandbox {
  const dispatchers = new WeakMap<App, AppDispatcher>();
  const inProcess = (box: Sandbox, args: string[], env: Record<string, string | undefined>, input?: string) =>
    docsctlInProcess(args, env, { ...(input !== undefined ? { input } : {}), dispatcher: dispatchers.get(box.server.app) });
  const sb = useSandboxWith<InProcessSandbox>(opts, inProcess, async (box) => {
    dispatchers.set(box.server.app, new AppDispatcher(box.server.app, new URL(box.server.url).origin));
    await sourceManifest();
  });
  afterAll(() => dispatchers.get(sb.server?.app)?.close());
  sb.process = (args, o = {}) => docsctl(args, sb.env(o), o.input !== undefined ? { input: o.input } : {});
  sb.docsctl = (args, env, o = {}) => inProcess(sb, args, env, o.input);
  return sb;
}
