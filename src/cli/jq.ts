/**
 * `--jq EXPRESSION`: jq itself (jq 1.8 compiled to WebAssembly, npm `jq-wasm`), in a worker thread
 * (src/cli/jq-worker.cjs) started only when the flag is given, so start-up does not pay for it. As
 * `gh --jq` does: strings come out raw (without quotes), other values as jq prints them. The
 * expression is compiled before anything is sent: a bad one is a usage error (exit 2) with jq's own
 * message; a runtime error is exit 1 with jq's own message.
 *
 * jq runs within bounds (DOCSCTL_JQ_TIMEOUT, DOCSCTL_JQ_MAX_MEMORY; see Context.jqBounds and
 * docs/security.md): each run of the expression (once on a command's output, a whole list included;
 * once per page with `api --paginate`) must end within the time
 * bound, or the thread is stopped; jq's heap, its output and the thread's JavaScript heap stay within
 * the memory bound. Past a bound: exit 1 naming the bound and the variable that raises it. One
 * thread serves the whole command (`api --paginate` runs jq on every page through it).
 *
 * When a command ends, its thread, if sound (no bound reached, jq's heap small), waits idle for the
 * next `--jq` of the same process (docsctl embedded, or run in process by the tests): jq loads once
 * rather than at every command (~120 ms of CPU). It holds no environment and nothing of the last
 * command but jq's compiled program, replaced by the next one's; an idle thread keeps no process alive.
 */
import type { Worker } from 'node:worker_threads';
import type { Context } from './context.js';
import { CliError, EXIT, UsageError } from './errors.js';
import { terminalText } from './escape.js';
import { JQ_BOUNDS, type JqBounds } from './limits.js';

export interface JqProgram {
  /** jq's output for one input value (each result on its own line), or a failure naming jq's error or the bound. */
  run(input: unknown): Promise<string>;
  /** Stop the thread (done by the Context when the command ends). */
  close(): Promise<void>;
}

/** Room for Node's own use of the thread's JavaScript heap, above what jq's output takes there. */
const HEAP_HEADROOM_MIB = 32;
/** jq-wasm's runtime grows jq's heap (WebAssembly memory) to 256 MiB at most, whatever the bound. */
const JQ_HEAP_MAX_MIB = 256;

type Message =
  | { type: 'loaded' }
  | { type: 'compiled'; error?: string }
  | { type: 'result'; stdout: string; stderr: string; exitCode: number; heapBytes?: number }
  | { type: 'failed'; bound?: 'memory' | 'output'; message: string };

/** jq's heap, past which a thread is not kept for the next command (jq's memory is never given back). */
const IDLE_HEAP_MAX_BYTES = 64 * 1024 * 1024;

/** The thread kept for the next command, and the memory bound it was started with. */
let idle: { thread: JqThread; maxMemoryMib: number } | undefined;

export async function compileJq(ctx: Context, expression: string): Promise<JqProgram> {
  if (expression.trim() === '') throw new UsageError('--jq: needs an expression, e.g. .[].id');
  const bounds = ctx.jqBounds();
  const kept = idle;
  idle = undefined;
  let thread: JqThread;
  if (kept && kept.maxMemoryMib === bounds.maxMemoryMib && kept.thread.sound()) {
    thread = kept.thread;
    thread.reuse(bounds, ctx.tty);
  } else {
    kept?.thread.terminate();
    thread = new JqThread(startWorker(bounds.maxMemoryMib), bounds, ctx.tty);
  }
  ctx.onClose(() => thread.close());
  await thread.compile(expression);
  return thread;
}

/** A thread from jq-worker.cjs beside this module (dist/ in the built CLI, src/cli/ in the tests), jq loading in it. */
function startWorker(maxMemoryMib: number): Worker {
  // Through require: the CLI runs as one CommonJS script compiled with V8's code cache, where
  // import() has no loader (src/entry.ts); the tests' module runner gives modules a require too.
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new Worker(`${__dirname}/jq-worker.cjs`, {
    // jq-wasm is not bundled (it reads its .wasm beside itself): the thread loads it from where the CLI would.
    workerData: { jqPath: require.resolve('jq-wasm'), maxBytes: maxMemoryMib * 1024 * 1024 },
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMib + HEAP_HEADROOM_MIB },
    // Nothing of the environment (tokens) in the thread, and nothing it writes reaches the terminal.
    env: {},
    stdout: true,
    stderr: true,
  });
  // Only an awaited answer keeps the process alive (JqThread refs it meanwhile).
  worker.unref();
  return worker;
}

class JqThread implements JqProgram {
  /** The answer awaited (one at a time: the CLI awaits each run). */
  private waiting?: { resolve: (m: Message) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };
  /** Set once the thread is gone: every later run fails with it. */
  private gone?: Error;
  /** Settles when jq has loaded in the thread (rejects if the thread is gone first). */
  private readonly loaded = withResolvers<void>();

  /** jq's heap after the last run. */
  private heapBytes = 0;

  constructor(
    private readonly worker: Worker,
    private bounds: JqBounds,
    /** Whether the output goes to a terminal: then control characters in it are escaped. */
    private terminal: boolean,
  ) {
    worker.on('message', (m: Message) => {
      if (m.type === 'loaded') this.loaded.resolve();
      else this.settle((w) => w.resolve(m));
    });
    worker.on('error', (err: Error) => this.stop(this.failure(err)));
    worker.on('exit', (code) => this.stop(new CliError(`--jq: jq stopped unexpectedly (exit ${code})`, EXIT.FAILED)));
  }

  /**
   * Once jq has loaded (not bounded: that is docsctl's own work), compile `expression` within the
   * time bound: a UsageError with jq's message if it does not compile.
   */
  async compile(expression: string): Promise<void> {
    this.worker.ref();
    await this.loaded.promise;
    const compiled = await this.answer(() => this.worker.postMessage({ expression }));
    this.check(compiled);
    if (compiled.type === 'compiled' && compiled.error !== undefined) {
      this.stop(new UsageError(`--jq: ${jqMessage(compiled.error)}`));
      throw this.gone;
    }
  }

  async run(input: unknown): Promise<string> {
    const json = JSON.stringify(input === undefined ? null : input);
    const m = await this.answer(() => this.worker.postMessage({ input: json }));
    this.check(m);
    if (m.type !== 'result') throw new Error(`jq thread: unexpected ${m.type}`);
    this.heapBytes = m.heapBytes ?? Number.POSITIVE_INFINITY;
    if (m.exitCode !== 0 && m.stderr.trim() !== '') throw new CliError(`--jq: ${jqMessage(m.stderr)}`, EXIT.FAILED);
    // Each result on its own line, the last one too (jq-wasm leaves the final newline out).
    const out = m.stdout === '' || m.stdout.endsWith('\n') ? m.stdout : `${m.stdout}\n`;
    // As jq -r prints it in a pipe; on a terminal, control characters escaped (line breaks and tabs kept).
    return this.terminal ? terminalText(out) : out;
  }

  async close(): Promise<void> {
    if (this.sound()) {
      // Kept for the next command of this process (one thread at most).
      idle?.thread.terminate();
      idle = { thread: this, maxMemoryMib: this.bounds.maxMemoryMib };
      return;
    }
    this.terminate();
  }

  /** Whether the thread can serve another command: alive, awaiting nothing, jq's heap small. */
  sound(): boolean {
    return !this.gone && !this.waiting && this.heapBytes <= IDLE_HEAP_MAX_BYTES;
  }

  /** Taken from idle for a command with these bounds and output. */
  reuse(bounds: JqBounds, terminal: boolean): void {
    this.bounds = bounds;
    this.terminal = terminal;
  }

  /** End the thread; every later run fails. */
  terminate(): void {
    this.gone ??= new CliError('--jq: jq was stopped', EXIT.FAILED);
    // Not awaited: the thread stops on its own time, the command need not wait for it.
    void this.worker.terminate();
  }

  /** Send (by `send`) and await the answer, within the time bound. */
  private answer(send: () => void): Promise<Message> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise<Message>((resolve, reject) => {
      const s = this.bounds.timeoutSeconds;
      const timer = setTimeout(() => {
        this.stop(
          new CliError(
            `--jq: jq did not finish within ${s} s, its time bound (DOCSCTL_JQ_TIMEOUT)`,
            EXIT.FAILED,
            `to give it longer, set DOCSCTL_JQ_TIMEOUT to more seconds (e.g. DOCSCTL_JQ_TIMEOUT=${Math.max(60, s * 2)})`,
          ),
        );
      }, s * 1000);
      this.waiting = { resolve, reject, timer };
      this.worker.ref();
      send();
    });
  }

  private settle(how: (w: NonNullable<JqThread['waiting']>) => void): void {
    const w = this.waiting;
    if (!w) return;
    this.waiting = undefined;
    clearTimeout(w.timer);
    this.worker.unref();
    how(w);
  }

  /** The thread is (to be) gone: stop it, and fail what awaits an answer with `err`. */
  private stop(err: Error): void {
    this.gone ??= err;
    this.loaded.reject(this.gone);
    this.settle((w) => w.reject(err));
    void this.worker.terminate();
  }

  /** A `failed` answer as the error to report (the thread is stopped: its jq may be left broken). */
  private check(m: Message): void {
    if (m.type !== 'failed') return;
    const err =
      m.bound === 'memory'
        ? this.outOfMemory('jq: error: cannot allocate memory', true)
        : m.bound === 'output'
          ? this.outOfMemory("jq's output outgrew its memory bound")
          : new CliError(`--jq: jq failed: ${m.message}`, EXIT.FAILED);
    this.stop(err);
    throw err;
  }

  /** The thread's own failure: past its heap's bound (resourceLimits), or something unexpected. */
  private failure(err: Error & { code?: string }): Error {
    return err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.outOfMemory('jq ran out of memory') : err;
  }

  /** Past the memory bound: `what` happened; the bound, and how to raise it while it can be raised. */
  private outOfMemory(what: string, heap = false): CliError {
    const mib = heap ? Math.min(this.bounds.maxMemoryMib, JQ_HEAP_MAX_MIB) : this.bounds.maxMemoryMib;
    const raise =
      heap && mib >= JQ_HEAP_MAX_MIB
        ? `jq-wasm gives jq's heap ${JQ_HEAP_MAX_MIB} MiB at most: give jq less at once (fewer fields, smaller pages), or pipe --json to a jq of your own`
        : `to give it more, set DOCSCTL_JQ_MAX_MEMORY to more MiB (e.g. DOCSCTL_JQ_MAX_MEMORY=${Math.min(mib * 2, JQ_BOUNDS.maxMemoryMibLimit)})`;
    return new CliError(`--jq: ${what} (jq may use ${mib} MiB: DOCSCTL_JQ_MAX_MEMORY)`, EXIT.FAILED, raise);
  }
}

/** Promise.withResolvers (Node 22+), for Node 20. */
function withResolvers<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // a thread that fails before anyone awaits it: reported where awaited
  return { promise, resolve, reject };
}

/** jq's own message, as jq prints it (lines after the first keep their place: the caret points). */
function jqMessage(stderr: string): string {
  return stderr.replace(/\s+$/, '').replace(/^\s+/, '');
}
