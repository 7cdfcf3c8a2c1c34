/** Cursor pagination as a lazy async iterator (no dependencies: the output layer imports it). */

export interface Page<T> {
  items: T[];
  /** Total matching items (the contract's lists have it; the official document does not require it, so a page without it is read). */
  count: number;
  next?: { page: string } | null;
}

/** Thrown when a page is not a list envelope (the client names the request; see http.ts). */
export class PageShapeError extends Error {
  override name = 'PageShapeError';
}

/**
 * What is wrong with `body` as a list envelope `{items: [...], count?: number, next?: {page: string}}`,
 * or undefined when nothing is: `items: an object where an array was expected`, `an array where a
 * list {items, …} was expected`, `next.page: a number where a cursor string was expected`…
 */
export function pageProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return `${kind(body)} where a list {items, …} was expected`;
  if (Array.isArray(body)) return 'an array where a list {items, …} was expected';
  const page = body as { items?: unknown; count?: unknown; next?: unknown };
  if (!Array.isArray(page.items)) return page.items === undefined ? 'a list without items' : `items: ${kind(page.items)} where an array was expected`;
  if (page.count !== undefined && (typeof page.count !== 'number' || !Number.isFinite(page.count))) return `count: ${kind(page.count)} where a number was expected`;
  if (page.next !== undefined && page.next !== null) {
    if (typeof page.next !== 'object' || Array.isArray(page.next)) return `next: ${kind(page.next)} where an object {page} was expected`;
    const cursor = (page.next as { page?: unknown }).page;
    if (typeof cursor !== 'string' || cursor === '') return `next.page: ${kind(cursor)} where a cursor string was expected`;
  }
  return undefined;
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v === '') return 'an empty string';
  return v === undefined ? 'nothing' : `${typeof v === 'object' ? 'an' : 'a'} ${typeof v}`;
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
      // The client checks answers (naming the request); a page from elsewhere is checked here.
      const problem = pageProblem(page);
      if (problem) throw new PageShapeError(`the server sent a malformed list (${problem})`);
      this.count = page.count;
      this.nextCursor = page.next?.page;
      const items = page.items.slice(0, want);
      fetched += items.length;
      onPage?.(fetched, page.count ?? fetched);
      if (items.length === 0) return;
      yield items;
      if (!page.next) return;
      // A server that gives back the cursor it was sent would page forever.
      if (page.next.page === cursor) throw new PageShapeError(`the server sent a malformed list (next.page repeats the cursor of the page it came with: "${cursor}")`);
      cursor = page.next.page;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.take()[Symbol.asyncIterator]();
  }
}
