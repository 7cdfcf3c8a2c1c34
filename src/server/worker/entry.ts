/**
 * The entry of the sandbox's worker thread (bundled as dist/cpu-worker.cjs; pool.ts starts it):
 * runs the tasks of tasks.ts one message at a time and answers each with its value (awaited when a
 * task is asynchronous: a website import) or its error; replies to a task's calls to the starting
 * thread (parent.ts) go to the task.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { settleCall, type CallError } from './parent.js';
import { tasks, type TaskName } from './tasks.js';

type Message = { id: number; task: TaskName; input: unknown } | { reply: number; ok: boolean; value?: unknown; error?: CallError };

/**
 * Below the priority of the thread that answers requests (pool.ts): on Linux a thread's nice value
 * is its own, and `setpriority(PRIO_PROCESS, 0)` (os.setPriority's default) sets the calling
 * thread's. Elsewhere it would set the whole process's: left as it is. Then the thread's id, which
 * the starting thread reads the thread's CPU time by.
 */
function lowerPriority(): number | null {
  if (process.platform !== 'linux') return null;
  const { nice } = workerData as { nice?: number };
  try {
    if (typeof nice === 'number' && nice > 0) setPriority(0, Math.min(19, getPriority(0) + nice));
  } catch {
    // Not allowed here (a sandboxed system): the thread keeps its priority.
  }
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}
parentPort!.postMessage({ tid: lowerPriority() });

parentPort!.on('message', async (message: Message) => {
  if ('reply' in message) {
    settleCall(message);
    return;
  }
  try {
    const value = await (tasks[message.task] as (input: unknown) => unknown)(message.input);
    parentPort!.postMessage({ id: message.id, ok: true, value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    parentPort!.postMessage({ id: message.id, ok: false, error: { name: e.name, message: e.message } });
  }
});
