/** Typed calls of the contract's operations, and cursor pagination as an async iterator. */
import type { AnyOp, OpBody, OpItem, OpParams, OpQuery, OpResult } from '../contract/op.js';
import { HttpClient, type HttpOptions } from './http.js';

export interface CallInput<O extends AnyOp> {
  params?: OpParams<O>;
  query?: OpQuery<O>;
  body?: OpBody<O>;
}

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
      yield* items;
      if (!page.next || items.length === 0) return;
      cursor = page.next.page;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.take()[Symbol.asyncIterator]();
  }
}

export class Api {
  readonly http: HttpClient;

  constructor(opts: HttpOptions) {
    this.http = new HttpClient(opts);
  }

  /** Call one operation; resolves to its typed result (undefined for 204). */
  async call<O extends AnyOp>(op: O, input: CallInput<O> = {}): Promise<OpResult<O>> {
    const res = await this.http.send({
      method: op.method,
      path: '/v1' + fillPath(op.path, (input.params ?? {}) as Record<string, unknown>),
      query: input.query as Record<string, string>,
      body: input.body ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : {}),
    });
    return res.json as OpResult<O>;
  }

  /** A paginated operation as a lazy Paginator over its items. */
  paginate<O extends AnyOp>(op: O, input: CallInput<O> = {}, startCursor?: string): Paginator<OpItem<O>> {
    return new Paginator<OpItem<O>>(async (cursor, limit) => {
      const query = { ...(input.query as object), limit, ...(cursor ? { page: cursor } : {}) } as OpQuery<O>;
      return (await this.call(op, { ...input, query })) as unknown as Page<OpItem<O>>;
    }, startCursor);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** `/spaces/{spaceId}` + `{spaceId: 'a b'}` → `/spaces/a%20b`. */
export function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
