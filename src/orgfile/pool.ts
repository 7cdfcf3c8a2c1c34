/**
 * Bounded concurrency for the requests of export, plan and apply. Retries (429 with Retry-After,
 * 502/503/504, network errors) are the client's (src/client/http.ts): a request that waits for its
 * retry holds its slot, so a rate-limited service sees fewer requests, not more.
 */

/** Requests at a time (`orgs export`, `plan`, `apply --concurrency`): by default, and at most. */
export const CONCURRENCY = { default: 8, max: 64 } as const;

export class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Requests sent through the pool (an attempt the client retries counts once). */
  requests = 0;

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new RangeError('a pool needs room for one task at least');
  }

  /** Run `task` when a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      this.requests++;
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
