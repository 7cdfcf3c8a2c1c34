/**
 * A task in the worker thread asking the thread that started it (worker/pool.ts: `run`'s `calls`)
 * for what only that thread has: a resolver the tests inject, say. Each call is answered by a reply
 * message that entry.ts hands to `settleCall`.
 */
import { parentPort } from 'node:worker_threads';

/** A call's failure as sent back: an Error's name, message and `code`. */
export interface CallError {
  name: string;
  message: string;
  code?: string;
}

let lastCall = 0;
const pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();

/** Ask the starting thread's `calls[name]` with `arg`; its answer, or its error (name, message, code). */
export function callParent(name: string, arg: unknown): Promise<unknown> {
  const call = ++lastCall;
  return new Promise((resolve, reject) => {
    pending.set(call, { resolve, reject });
    parentPort!.postMessage({ call, name, arg });
  });
}

/** A reply to `callParent`. */
export function settleCall(message: { reply: number; ok: boolean; value?: unknown; error?: CallError }): void {
  const waiting = pending.get(message.reply);
  if (!waiting) return;
  pending.delete(message.reply);
  if (message.ok) waiting.resolve(message.value);
  else {
    const { name, message: text, code } = message.error!;
    waiting.reject(Object.assign(new Error(text), { name }, code === undefined ? {} : { code }));
  }
}
