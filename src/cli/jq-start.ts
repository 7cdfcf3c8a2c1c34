/**
 * Starting the thread `--jq` runs jq in (src/cli/jq-worker.cjs): a Worker, its memory bound set, jq
 * loading in it at once. Starting a thread costs about what starting Node does, so the process entry
 * (src/entry.ts) starts it ahead when the command line names `--jq`, while the CLI itself loads;
 * src/cli/jq.ts takes that thread, or starts one, and sends it the expression.
 *
 * Kept free of imports (Node's modules are required when used): the entry bundles it.
 */
import type { Worker } from 'node:worker_threads';

/**
 * The bounds of `--jq` (Context.jqBounds reads and checks DOCSCTL_JQ_TIMEOUT and DOCSCTL_JQ_MAX_MEMORY):
 * each run of the expression within `timeoutSeconds`, jq's heap, its output and its thread's heap
 * within `maxMemoryMib` each (jq-wasm stops jq's heap at 256 MiB whatever this says; below 32 jq cannot
 * start: its heap starts at 16 MiB).
 */
export const JQ_BOUNDS = { timeoutSeconds: 10, maxMemoryMib: 256, minMemoryMib: 32, maxMemoryMibLimit: 4096 } as const;

/** Room for Node's own use of the thread's JavaScript heap, above what jq's output takes there. */
const HEAP_HEADROOM_MIB = 32;

/** A thread with jq loading in it. */
export interface JqStart {
  worker: Worker;
  /** The memory bound it was started with (it cannot change). */
  maxMemoryMib: number;
  /** Settles when jq has loaded in it (rejects if the thread failed first). */
  loaded: Promise<void>;
}

/** Start a thread from `dir`/jq-worker.cjs (dist/ in the built CLI, src/cli/ in the tests). */
export function startJq(dir: string, maxMemoryMib: number): JqStart {
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  const worker = new Worker(`${dir}/jq-worker.cjs`, {
    // jq-wasm is not bundled (it reads its .wasm beside itself): the thread loads it from where the CLI would.
    workerData: { jqPath: require.resolve('jq-wasm'), maxBytes: maxMemoryMib * 1024 * 1024 },
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMib + HEAP_HEADROOM_MIB },
    // Nothing of the environment (tokens) in the thread, and nothing it writes reaches the terminal.
    env: {},
    stdout: true,
    stderr: true,
  });
  // Only an awaited answer keeps the process alive (src/cli/jq.ts refs it meanwhile).
  worker.unref();
  const loaded = new Promise<void>((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== 'loaded') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the jq thread stopped (exit ${code})`)));
  });
  // A thread started ahead may never be used (`--jq` was another flag's value): no unhandled rejection.
  loaded.catch(() => {});
  return { worker, maxMemoryMib, loaded };
}

/**
 * For the process entry: a thread started ahead when `args` name `--jq` (or api's `-q`) before any
 * `--`, with the memory bound the environment gives (not when that bound is not one: the CLI says so).
 */
export function startJqAhead(dir: string, args: readonly string[], env: NodeJS.ProcessEnv): JqStart | undefined {
  const end = args.indexOf('--');
  if (!(end === -1 ? args : args.slice(0, end)).some((a) => a === '--jq' || a.startsWith('--jq=') || /^-q/.test(a))) return undefined;
  const raw = env.DOCSCTL_JQ_MAX_MEMORY;
  const mib = raw === undefined || raw === '' ? JQ_BOUNDS.maxMemoryMib : /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(mib >= JQ_BOUNDS.minMemoryMib && mib <= JQ_BOUNDS.maxMemoryMibLimit)) return undefined;
  try {
    return startJq(dir, mib);
  } catch {
    return undefined; // the CLI starts one when it needs it, and reports what fails then
  }
}
