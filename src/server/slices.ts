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
    pause: () => new Promise<void>((resume) => setImmediate(() => {
      end = performance.now() + LIMITS.loop.sliceMs;
      resume();
    })),
  };
}
