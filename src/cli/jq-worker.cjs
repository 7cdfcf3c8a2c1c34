// @ts-check
/**
 * The thread `--jq` runs jq in (started by src/cli/jq.ts only when the flag is given; the
 * build copies this file to dist/). Plain CommonJS, run as it is by Node in both the built CLI and
 * the tests. A thread of its own lets the CLI stop jq at its time bound (Worker.terminate) and bound
 * its memory where jq keeps it:
 * - jq's heap, WebAssembly memory: growing past the bound is refused, so jq's allocation fails and jq
 *   stops as jq does then (`jq: error: cannot allocate memory`, and abort()); jq-wasm's runtime never
 *   grows it past 256 MiB, whatever the bound;
 * - the buffer jq-wasm collects jq's output in: a Uint8Array that doubles as it fills, refused past
 *   the bound;
 * - the thread's JavaScript heap: the Worker's resourceLimits (set by jq.ts).
 *
 * jq loads at once. Messages from the CLI: {expression} (compiled and checked; the inputs after it
 * run it, until the next expression: a thread may serve several commands of one process, see jq.ts)
 * or {input} (JSON text). Messages to the CLI: {type: 'loaded'}; for an expression {type:
 * 'compiled', error?: jq's message}; for each input {type: 'result', stdout, stderr, exitCode,
 * heapBytes: jq's heap now}; for either {type: 'failed', bound?: 'memory' | 'output', message}.
 */
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

/** @type {{ jqPath: string, maxBytes: number }} */
const { jqPath, maxBytes } = workerData;
if (!parentPort) throw new Error('jq-worker.cjs runs as a worker thread of docsctl');
const port = parentPort;

/** Which bound refused an allocation during the current run. @type {'memory' | 'output' | undefined} */
let refused;
/** The size of jq's heap (WebAssembly memory), as last grown. */
let heapBytes = 0;

const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (/** @type {number} */ pages) {
  if (this.buffer.byteLength + pages * 65536 > maxBytes) {
    refused = 'memory';
    // jq-wasm's runtime takes a failed grow as no memory: jq's malloc returns NULL.
    throw new RangeError('jq heap bound');
  }
  const previous = grow.call(this, pages);
  heapBytes = this.buffer.byteLength;
  return previous;
};

// The output buffer grows by `new Uint8Array(twice its length)`: only that makes one of a length
// (views on memory are made from a buffer). Refused past the bound: jq's write fails (an I/O error
// to jq, which stops).
const RealUint8Array = Uint8Array;
globalThis.Uint8Array = new Proxy(RealUint8Array, {
  construct(target, args, newTarget) {
    if (typeof args[0] === 'number' && args[0] > maxBytes) {
      refused = 'output';
      throw new RangeError('jq output bound');
    }
    return Reflect.construct(target, args, newTarget);
  },
});

// jq-wasm's runtime reports an abort on console.error ("Aborted()"): the CLI says what happened instead.
console.error = () => {};

/** jq exits 3 on an expression that does not compile. */
const COMPILE_ERROR = 3;

/** @type {typeof import('jq-wasm')} */
const { loadJq } = require(jqPath);
loadJq().then(
  (jq) => {
    port.postMessage({ type: 'loaded' });
    /** @type {string | undefined} */
    let expression;
    /** jq's run of the expression on `input` (JSON text), as a message; `compiling`: the answer to the compile check. */
    const run = (/** @type {string} */ program, /** @type {string} */ input, /** @type {boolean} */ compiling) => {
      refused = undefined;
      try {
        const r = jq.raw(input, program, ['-r']);
        // The output refused: jq saw an I/O error (`writing output failed`) and stopped.
        if (refused) return { type: 'failed', bound: refused, message: r.stderr };
        if (compiling) return { type: 'compiled', ...(r.exitCode === COMPILE_ERROR ? { error: r.stderr } : {}) };
        return { type: 'result', stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, heapBytes };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        // jq calls abort() only where it cannot allocate memory (src/jv_alloc.c, after printing
        // `jq: error: cannot allocate memory`): refused by the bound here, or past the 256 MiB that
        // jq-wasm's runtime allows (refused there before it asks to grow).
        const bound = refused ?? (message.startsWith('Aborted()') ? 'memory' : undefined);
        return { type: 'failed', ...(bound ? { bound } : {}), message };
      }
    };
    port.on('message', (/** @type {{ expression: string } | { input: string }} */ message) => {
      if ('input' in message) {
        if (expression === undefined) return port.postMessage({ type: 'failed', message: 'no expression to run' });
        return port.postMessage(run(expression, message.input, false));
      }
      expression = message.expression;
      // Without input jq compiles the expression and runs it on nothing: a compile check that cannot loop.
      port.postMessage(run(expression, '', true));
    });
  },
  (err) => {
    port.postMessage({ type: 'failed', message: `jq did not load: ${err instanceof Error ? err.message : String(err)}` });
  },
);
