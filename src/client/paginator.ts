/** Cursor pagination as a lazy async iterator (no dependencies but the client's own small modules: the output layer imports it). */
import { TooManyPagesError } from './errors.js';
import { CLIENT_LIMITS } from './limits.js';

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
  if (page.count !== undefined && (typeof page.count !== 'number' || !Number.isFinite(page.count)))
    return `count: ${kind(page.count)} where a number was expected`;
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

/** What bounds a Paginator, and what to call its list in messages. */
export interface PaginatorOptions {
  /** The most pages one reading fetches (DOCSCTL_MAX_PAGES); past it, a TooManyPagesError. */
  maxPages?: number;
  /** The list, for messages: `GET /v1/orgs/o/spaces`. */
  name?: string;
}

/**
 * A paginated list, fetched page by page as it is iterated: the one place where docsctl follows
 * `next.page`, with the same checks for every list. Each page must be a list envelope; a page with
 * no items ends the list; a `next.page` that was already followed (the page's own cursor, or any
 * before it) is a malformed list; and a list that goes on past `maxPages` pages stops with a
 * TooManyPagesError (after the items of the pages read were delivered).
 */
export class Paginator<T> implements AsyncIterable<T> {
  /** Total matching items, known after the first page. */
  count: number | undefined;
  /** Cursor of the page after the last one fetched. */
  nextCursor: string | undefined;
  private readonly maxPages: number;
  private readonly name: string | undefined;

  constructor(
    private readonly fetchPage: (cursor: string | undefined, limit: number) => Promise<Page<T>>,
    /** First cursor (`--page`). */
    private readonly startCursor?: string,
    opts: PaginatorOptions = {},
  ) {
    this.maxPages = opts.maxPages ?? CLIENT_LIMITS.maxPages;
    this.name = opts.name;
  }

  /** Iterate at most `max` items (all when undefined), in pages of at most 1000. */
  async *take(max?: number, onPage?: (fetched: number, count: number) => void): AsyncGenerator<T> {
    for await (const items of this.pages(max, onPage)) yield* items;
  }

  /** The same items a page at a time (non-empty arrays), for consumers that handle them in bulk. */
  async *pages(max?: number, onPage?: (fetched: number, count: number) => void): AsyncGenerator<T[]> {
    let fetched = 0;
    for await (const { page, want } of this.walk(max)) {
      const items = page.items.slice(0, want);
      fetched += items.length;
      onPage?.(fetched, page.count ?? fetched);
      if (items.length > 0) yield items;
    }
  }

  /**
   * The pages as the server answered them (`{items, count, next}`, checked), for `docsctl api
   * --paginate`: the page size is the request's own, and items are not cut to it.
   */
  async *answers(): AsyncGenerator<Page<T>> {
    for await (const { page } of this.walk(undefined)) yield page;
  }

  /** Each page with the number of its items asked for; the checks of every list. */
  private async *walk(max: number | undefined): AsyncGenerator<{ page: Page<T>; want: number }> {
    let cursor = this.startCursor;
    let fetched = 0;
    /** The cursors followed (a server that sends one back would page forever). */
    const followed = new Set<string>(cursor !== undefined ? [fingerprint(cursor)] : []);
    for (let pages = 1; ; pages++) {
      const want = max === undefined ? 1000 : Math.min(1000, max - fetched);
      if (want <= 0) return;
      const page = await this.fetchPage(cursor, want);
      // The client checks answers (naming the request); a page from elsewhere is checked here.
      const problem = pageProblem(page);
      if (problem) throw this.malformed(problem);
      this.count = page.count;
      this.nextCursor = page.next?.page;
      fetched += Math.min(page.items.length, want);
      yield { page, want };
      if (page.items.length === 0 || !page.next) return;
      const next = page.next.page;
      if (next === cursor) throw this.malformed(`next.page repeats the cursor of the page it came with: "${clip(next)}"`);
      if (followed.has(fingerprint(next))) throw this.malformed(`next.page goes back to a page already read: "${clip(next)}"`);
      if (pages >= this.maxPages) throw new TooManyPagesError(this.name, this.maxPages);
      followed.add(fingerprint(next));
      cursor = next;
    }
  }

  private malformed(problem: string): PageShapeError {
    return new PageShapeError(`${this.name ? `${this.name}: ` : ''}the server sent a malformed list (${problem})`);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.take()[Symbol.asyncIterator]();
  }
}

/**
 * A cursor as the set of those followed keeps it: itself when short (as cursors are), else its
 * length and a 64-bit hash, so that what a reading keeps stays small whatever the server sends.
 */
function fingerprint(cursor: string): string {
  if (cursor.length <= 256) return cursor;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < cursor.length; i++) {
    const c = cursor.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `#${cursor.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

/** A cursor as messages show it: at most 60 characters. */
function clip(cursor: string): string {
  return cursor.length > 60 ? `${cursor.slice(0, 60)}…` : cursor;
}
