/**
 * A worker thread for the sandbox's CPU-bound reading of untrusted text (tasks.ts): HTML pages of a
 * website import, OpenAPI documents. The thread that answers requests only sends the text and
 * awaits the answer, so that a hostile input costs the request that brought it, never the others.
 *
 * A `CpuWorker` starts its thread on its first task (not before: `docsctl serve` and the CLI start
 * without it), runs one task at a time, and ends the thread when a task passes its deadline or is
 * aborted (the task fails; later tasks get a new thread), or when it is closed.
 *
 * The thread runs below the priority of the thread that answers requests (`LIMITS.loop.workerNice`,
 * set by entry.ts): on a machine with fewer free cores than busy threads, the requests go first. So a
 * task's deadline counts the CPU time its thread spent on it (Linux: /proc/self/task/TID/stat), not
 * the time it waited for a core; waiting counts too past `LIMITS.loop.workerWaitFactor` times the
 * deadline, so that a task on a starved thread still ends. Where the thread's CPU time cannot be
 * read, the deadline is wall time.
 *
 * The thread runs dist/cpu-worker.cjs, found beside the bundle this code is in (dist/server.js,
 * dist/chunks/…, or the CLI's dist/main-….cjs). Run from the sources (the tests), it is bundled
 * from entry.ts on first use, into the temporary folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LIMITS } from '../limits.js';
import type { TaskName, Tasks } from './tasks.js';

type Input<K extends TaskName> = Parameters<Tasks[K]>[0];
type Output<K extends TaskName> = Awaited<ReturnType<Tasks[K]>>;

/** What a task may ask of this thread while it runs (worker/parent.ts `callParent`), by name. */
export type ParentCalls = Record<string, (arg: never) => Promise<unknown>>;

/** A task ended before its answer: past its deadline, aborted, or its worker was closed. */
export class TaskStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskStopped';
  }
}

/** A task's answer, or a call it makes (worker/entry.ts, worker/parent.ts). */
type Answer = { ok: boolean; value?: unknown; error?: { name: string; message: string } };
type Call = { call: number; name: string; arg: unknown };

interface Job {
  task: TaskName;
  input: unknown;
  timeoutMs?: number;
  calls?: ParentCalls;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class CpuWorker {
  private worker: Promise<Worker> | undefined;
  private running: { job: Job; timer?: NodeJS.Timeout } | undefined;
  private readonly queue: Job[] = [];
  private closed: Error | undefined;

  /**
   * Run `task` in the thread; with `timeoutMs`, it fails with TaskStopped past that many ms (from when
   * it starts). `calls` answer what the task asks of this thread meanwhile.
   */
  run<K extends TaskName>(task: K, input: Input<K>, opts: { timeoutMs?: number; calls?: ParentCalls } = {}): Promise<Output<K>> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise<Output<K>>((resolve, reject) => {
      this.queue.push({
        task,
        input,
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        ...(opts.calls ? { calls: opts.calls } : {}),
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.next();
    });
  }

  /** End the thread at once: the task running and those waiting fail with `reason`; later tasks are refused. */
  close(reason: Error = new TaskStopped('the worker was closed')): void {
    if (this.closed) return;
    this.closed = reason;
    for (const job of this.queue.splice(0)) job.reject(reason);
    this.stopThread(reason);
  }

  /** The task running fails with `reason`, and its thread ends (the next task starts another). */
  private stopThread(reason: Error): void {
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.job.reject(reason);
    }
    const worker = this.worker;
    this.worker = undefined;
    void worker?.then(
      (w) => w.terminate(),
      () => undefined,
    );
  }

  /** A running task's call (worker/parent.ts): answered by the job's `calls`, while the task still runs. */
  private answerCall(w: Worker, running: { job: Job }, message: Call): void {
    const call = running.job.calls?.[message.name] as ((arg: unknown) => Promise<unknown>) | undefined;
    const answered = call ? Promise.resolve().then(() => call(message.arg)) : Promise.reject(new Error(`no call ${message.name}`));
    answered.then(
      (value) => {
        if (this.running === running) w.postMessage({ reply: message.call, ok: true, value });
      },
      (err: unknown) => {
        if (this.running !== running) return;
        const e = err instanceof Error ? err : new Error(String(err));
        const code = (e as NodeJS.ErrnoException).code;
        w.postMessage({ reply: message.call, ok: false, error: { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) } });
      },
    );
  }

  /**
   * Stop the task past `timeoutMs` of its thread's CPU time (or of wall time when `tid` is unknown
   * or its CPU time unreadable), or past `workerWaitFactor` times that of wall time.
   */
  private watch(running: { job: Job; timer?: NodeJS.Timeout }, timeoutMs: number, tid: number | undefined): void {
    const cpu0 = threadCpuMs(tid);
    const wall0 = performance.now();
    const waitMs = timeoutMs * LIMITS.loop.workerWaitFactor;
    const check = () => {
      if (this.running !== running) return;
      const cpu = threadCpuMs(tid);
      const spent = cpu === undefined || cpu0 === undefined ? Number.POSITIVE_INFINITY : cpu - cpu0;
      const waited = performance.now() - wall0;
      if (spent >= timeoutMs || waited >= waitMs) {
        this.stopThread(new TaskStopped(`did not finish within ${timeoutMs} ms`));
        return;
      }
      // At least a tick of the thread's clock (10 ms) before the next look.
      running.timer = setTimeout(check, Math.min(Math.max(timeoutMs - spent, 10), waitMs - waited));
    };
    running.timer = setTimeout(check, timeoutMs);
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    const running: { job: Job; timer?: NodeJS.Timeout } = { job };
    this.running = running;
    const worker = (this.worker ??= startThread());
    worker.then(
      (w) => {
        if (this.running !== running) return;
        if (job.timeoutMs !== undefined) this.watch(running, job.timeoutMs, threadIds.get(w));
        const onMessage = (message: Answer | Call) => {
          if ('call' in message) {
            this.answerCall(w, running, message);
            return;
          }
          cleanup();
          if (this.running !== running) return;
          clearTimeout(running.timer);
          this.running = undefined;
          if (message.ok) job.resolve(message.value);
          else job.reject(Object.assign(new Error(message.error!.message), { name: message.error!.name }));
          this.next();
        };
        const onExit = (code: number) => {
          cleanup();
          if (this.running !== running) return;
          // The thread died (out of memory, a crash): the task fails, the next one gets a new thread.
          this.worker = undefined;
          this.stopThread(new TaskStopped(`the worker thread stopped (exit code ${code})`));
          this.next();
        };
        const cleanup = () => {
          w.off('message', onMessage);
          w.off('exit', onExit);
        };
        w.on('message', onMessage);
        w.on('exit', onExit);
        w.postMessage({ id: 0, task: job.task, input: job.input });
      },
      (err: Error) => {
        if (this.running !== running) return;
        this.worker = undefined;
        this.running = undefined;
        job.reject(err);
        this.next();
      },
    );
  }
}

/**
 * The young generation of a thread's heap, in MB (more than V8 gives by default). What the tasks
 * allocate (parse trees of a page, mdast) lives for one task: with room for it, less of it is
 * copied and promoted, and the thread spends ~40 % less time in garbage collection (a hostile
 * import of 50 pages: 600 → 430 ms of it), time its helper threads take from the thread answering
 * requests.
 */
const YOUNG_GENERATION_MB = 64;

/** The operating system's id of each thread (Linux), which the thread sends first (entry.ts). */
const threadIds = new WeakMap<Worker, number>();

async function startThread(): Promise<Worker> {
  const worker = new Worker(await workerScript(), {
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    workerData: { nice: LIMITS.loop.workerNice },
  });
  // An idle thread does not keep the process alive (a sandbox that closes exits).
  worker.unref();
  worker.on('error', () => undefined); // reported as its exit
  // Its first message: its id (or null where there is none to read), once it has lowered its priority.
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: { tid?: number | null }) => {
      if (typeof m.tid === 'number') threadIds.set(worker, m.tid);
      cleanup();
      resolve();
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new TaskStopped(`the worker thread stopped as it started (exit code ${code})`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
  return worker;
}

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on every Linux architecture Node runs on). */
const USER_HZ = 100;

/** The CPU time (user + system) thread `tid` of this process has used, in ms; undefined if unknown. */
export function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    // After the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

let script: Promise<string> | undefined;

/** The worker's script: dist/cpu-worker.cjs beside the running bundle, or bundled now from the sources. */
function workerScript(): Promise<string> {
  return (script ??= (async () => {
    const here = dirname(typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url));
    for (const candidate of [join(here, 'cpu-worker.cjs'), join(here, '..', 'cpu-worker.cjs')]) if (existsSync(candidate)) return candidate;
    const source = join(here, 'entry.ts');
    if (!existsSync(source)) throw new Error(`the sandbox's worker script, cpu-worker.cjs, is missing beside ${here}`);
    return bundleFromSource(source);
  })());
}

/**
 * Run from the sources (the tests): bundle entry.ts as the build does (scripts/build.mjs), into the
 * temporary folder, named by a hash of the sandbox's sources so that test files share it.
 */
async function bundleFromSource(source: string): Promise<string> {
  const root = join(dirname(source), '..');
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(path).update(readFileSync(path));
    }
  };
  walk(root);
  const outfile = join(tmpdir(), `docsctl-cpu-worker-${hash.digest('hex').slice(0, 16)}.cjs`);
  if (existsSync(outfile)) return outfile;
  const name = 'esbuild'; // a development dependency, never in the built sandbox: not a literal, so the build leaves it
  const { build } = (await import(name)) as typeof import('esbuild');
  const out = await build({ entryPoints: [source], bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning', write: false });
  const tmp = `${outfile}.${process.pid}.tmp`;
  writeFileSync(tmp, out.outputFiles[0].contents);
  renameSync(tmp, outfile);
  return outfile;
}
