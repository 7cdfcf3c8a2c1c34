/** Cursor pagination as a lazy async iterator (no dependencies: the output layer imports it). */

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/** A paginated list, fetched page by page as it is iterated. */
export class Paginator<T> implements AsyncIterable<T> {
  /** Total matching items, known after the first page. */
  count: number | undefined;
  /** Cursor of the page after the last one fetched. */
  nextCursor: string | undefined;

  constructor(
    private readonly fetchPage: (cursor: string | undefined, limit: number) => Promise<Page<T>>,
    /** First cursor (`--page`). */
    private readonly startCursor?: string,
  ) {}

  /** Iterate at most `max` items (all when undefined), in pages of at most 1000. */
  async *take(max?: number, onPage?: (fetched: number, count: number) => void): AsyncGenerator<T> {
    for await (const items of this.pages(max, onPage)) yield* items;
  }

  /** The same items a page at a time (non-empty arrays), for consumers that handle them in bulk. */
  async *pages(max?: number, onPage?: (fetched: number, count: number) => void): AsyncGenerator<T[]> {
    let cursor = this.startCursor;
    let fetched = 0;
    for (;;) {
      const want = max === undefined ? 1000 : Math.min(1000, max - fetched);
      if (want <= 0) return;
      const page = await this.fetchPage(cursor, want);
      this.count = page.count;
      this.nextCursor = page.next?.page;
      const items = page.items.slice(0, want);
      fetched += items.length;
      onPage?.(fetched, page.count);
      if (items.length === 0) return;
      yield items;
      if (!page.next) return;
      cursor = page.next.page;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.take()[Symbol.asyncIterator]();
  }
}
