/**
 * The client's bounds, in one place: what docsctl accepts of the server at DOCSCTL_API_URL, which it
 * does not trust (docs/security.md, "The server at the other end"). Each can be changed by the
 * setting named beside it (checked in src/cli/context.ts).
 */
export const CLIENT_LIMITS = {
  /** A whole request, ms: every attempt, its body, and the waits between retries (--timeout, DOCSCTL_TIMEOUT). */
  timeoutMs: 30_000,
  /** Connecting, ms, for each attempt (DOCSCTL_CONNECT_TIMEOUT). */
  connectTimeoutMs: 10_000,
  /** Retries after the first attempt (DOCSCTL_MAX_RETRIES). */
  maxRetries: 3,
  /** The time spent waiting between attempts, ms, in all (within the whole request's timeout). */
  retryBudgetMs: 30_000,
  /** First backoff step, ms; doubles each attempt, with jitter. */
  backoffMs: 250,
  /**
   * The most bytes of one answer docsctl reads (DOCSCTL_MAX_RESPONSE_BYTES): 64 MiB. The largest
   * answers of the API are a page of 1000 items (about 1 MB for spaces), a page's document and an
   * OpenAPI specification (GitHub's own, among the largest published, is about 12 MB): five times
   * that and more, while the answer, its text and its parse stay well below the memory of a small
   * machine (and far below the 512 MiB where a JavaScript string ends). A download saved to a file
   * (`cr pdf --out`) is streamed to it and not bounded by this.
   */
  maxResponseBytes: 64 * 1024 * 1024,
  /**
   * The most pages one list is read through (DOCSCTL_MAX_PAGES): 1000. docsctl asks for pages of
   * 1000 items (the API's largest), so this is a million items, more than any organization has of
   * spaces, members or anything else it lists, and still 100,000 for a server that pages by 100; past
   * it, a server that keeps sending `next.page` is stopped after 1000 requests instead of being
   * followed forever. A list read whole (a table, `tree`) holds at most this many pages of items.
   */
  maxPages: 1000,
  /**
   * A streamed download's chunks, in bytes, between two minor collections of the dead ones
   * (HttpOptions.collectGarbage): 1 MiB, so a download holds about that of chunks already written.
   * Not a setting: it bounds nothing the server sends, only how long garbage waits.
   */
  releaseEveryBytes: 1024 * 1024,
} as const;

/** The largest values the settings accept. */
export const SETTING_MAXIMA = {
  /** A JavaScript string ends at about 512 MiB: an answer is read as one. */
  maxResponseBytes: 256 * 1024 * 1024,
  maxPages: 1_000_000,
} as const;
