/**
 * Long loops of a request (over the pages of a large space, say) cut into slices: between two
 * slices of LIMITS.loop.sliceMs the loop lets the event loop run, so other requests are answered
 * meanwhile. A loop asks `due()` as it goes, and awaits `pause()` when it says so:
 *
 *   const slice = slicer();
 *   for (const item of items) {
 *     if (slice.due()) await slice.pause();
 *     ...
 *   }
 *
 * What the loop reads may change while it pauses: it works on a snapshot (immutable content) or
 * checks again after.
 */
import { LIMITS } from './limits.js';

export interface Slicer {
  /** Whether this slice has run its time. */
  due(): boolean;
  /** Let other work run (setImmediate: after pending I/O), then start a new slice. */
  pause(): Promise<void>;
}

export function slicer(): Slicer {
  let end = performance.now() + LIMITS.loop.sliceMs;
  return {
    due: () => performance.now() >= end,
    pause: () =>
      new Promise<void>((resume) =>
        setImmediate(() => {
          end = performance.now() + LIMITS.loop.sliceMs;
          resume();
        }),
      ),
  };
}

/**
 * Work written as a generator that yields where it may pause, each time asking something (a page's
 * Markdown to read, say: `const links = yield markdown`) that the driver answers.
 */
export type Steps<Q, A, T> = Generator<Q, T, A>;

/** Run `work` to its end at once, answering what it asks with `answer`. */
export function runAtOnce<Q, A, T>(work: Steps<Q, A, T>, answer: (question: Q) => A): T {
  let step = work.next(undefined as A);
  while (!step.done) step = work.next(answer(step.value));
  return step.value;
}

/**
 * Run `work` in slices: wherever it yields once the slice has run its time, other requests run.
 * `answer` may take its time (a read in the worker thread): the loop is free meanwhile.
 */
export async function runInSlices<Q, A, T>(work: Steps<Q, A, T>, answer: (question: Q) => A | Promise<A>): Promise<T> {
  const slice = slicer();
  let step = work.next(undefined as A);
  while (!step.done) {
    if (slice.due()) await slice.pause();
    const answered = answer(step.value);
    step = work.next(answered instanceof Promise ? await answered : answered);
  }
  return step.value;
}
