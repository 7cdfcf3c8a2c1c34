/**
 * The entry of the sandbox's worker thread (bundled as dist/cpu-worker.cjs; pool.ts starts it):
 * runs the tasks of tasks.ts one message at a time and answers each with its value (awaited when a
 * task is asynchronous: a website import) or its error; replies to a task's calls to the starting
 * thread (parent.ts) go to the task.
 */
import { parentPort } from 'node:worker_threads';
import { settleCall, type CallError } from './parent.js';
import { tasks, type TaskName } from './tasks.js';

type Message = { id: number; task: TaskName; input: unknown } | { reply: number; ok: boolean; value?: unknown; error?: CallError };

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
