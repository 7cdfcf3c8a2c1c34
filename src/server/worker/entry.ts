/**
 * The entry of the sandbox's worker thread (bundled as dist/cpu-worker.cjs; pool.ts starts it):
 * runs the tasks of tasks.ts one message at a time and answers each with its value or its error.
 */
import { parentPort } from 'node:worker_threads';
import { tasks, type TaskName } from './tasks.js';

parentPort!.on('message', (message: { id: number; task: TaskName; input: unknown }) => {
  try {
    const value = (tasks[message.task] as (input: unknown) => unknown)(message.input);
    parentPort!.postMessage({ id: message.id, ok: true, value });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    parentPort!.postMessage({ id: message.id, ok: false, error: { name: e.name, message: e.message } });
  }
});
