/**
 * Bounded concurrency for the requests of export, plan and apply, with one shared pause: when the
 * service says to slow down (429 with Retry-After), no task of the pool starts a request before
 * that time, rather than each finding out on its own.
 */
export class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** No request starts before this time (ms since the epoch). */
  private notBefore = 0;
  /** Requests sent through the pool (each attempt counts). */
  requests = 0;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError('a pool needs room for one task at least');
  }

  /** Run `task` when a slot is free (and any pause is over). */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      const wait = this.notBefore - Date.now();
      if (wait > 0) await sleep(wait);
      this.requests++;
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** Pause every task of the pool for `ms` from now (a 429's Retry-After). */
  pause(ms: number): void {
    this.notBefore = Math.max(this.notBefore, Date.now() + ms);
  }

  /** Map `items` through `fn`, at most `size` at a time, keeping their order; the first failure rejects (others still settle). */
  async map<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
    const out = new Array<R>(items.length);
    let failure: { error: unknown } | undefined;
    let next = 0;
    const worker = async () => {
      while (next < items.length && !failure) {
        const i = next++;
        try {
          out[i] = await fn(items[i], i);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.size, items.length) }, worker));
    if (failure) throw failure.error;
    return out;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
