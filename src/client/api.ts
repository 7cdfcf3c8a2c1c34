/** Typed calls of the contract's operations, and cursor pagination as an async iterator. */
import type { AnyOp, OpBody, OpItem, OpParams, OpQuery, OpResult } from '../contract/op.js';
import { SEED_ONLY_OPS } from '../contract/extensions.js';
import { describeIssue, issuePath } from '../contract/issues.js';
import { ApiError, hasErrorMessage, InputError } from './errors.js';
import { HttpClient, type HttpOptions } from './http.js';
import { Paginator, type Page } from './paginator.js';

export { Paginator, type Page };

export interface ApiOptions extends HttpOptions {
  /** The most pages one list is read through (DOCSCTL_MAX_PAGES; default CLIENT_LIMITS.maxPages). */
  maxPages?: number;
}

export interface CallInput<O extends AnyOp> {
  params?: OpParams<O>;
  query?: OpQuery<O>;
  body?: OpBody<O>;
}

export class Api {
  readonly http: HttpClient;
  private readonly maxPages: number | undefined;

  constructor(opts: ApiOptions) {
    const { maxPages, ...http } = opts;
    this.http = new HttpClient(http);
    this.maxPages = maxPages;
  }

  /** Call one operation; resolves to its typed result (undefined for 204). */
  async call<O extends AnyOp>(op: O, input: CallInput<O> = {}): Promise<OpResult<O>> {
    const params = op.params.safeParse(input.params ?? {});
    if (!params.success) {
      const issue = params.error.issues[0];
      throw new InputError(`${issuePath(issue) || 'path'}: ${describeIssue(issue, input.params)}`);
    }
    try {
      const res = await this.http.send({
        method: op.method,
        path: '/v1' + fillPath(op.path, (input.params ?? {}) as Record<string, unknown>),
        query: input.query as Record<string, string>,
        // An operation without a body gets none (a strict server answers 415 to `{}`); one whose fields
        // are all optional gets `{}` when none is given.
        body: input.body ?? (op.hasBody ? {} : undefined),
        // A 2xx must be what the operation answers (a list envelope, JSON), else the request is named.
        ...(op.status === 204 ? {} : { expect: op.paginated ? ('list' as const) : ('json' as const), schema: op.response }),
      });
      return res.json as OpResult<O>;
    } catch (e) {
      // A route the service lacks (no error message of its own) of an operation that only the seed has.
      if (e instanceof ApiError && e.status === 404 && SEED_ONLY_OPS.has(op.id) && !hasErrorMessage(e.body)) {
        throw new ApiError(
          404,
          `the service has no endpoint ${op.method} /v1${op.path}`,
          e.method,
          e.path,
          e.body,
          e.headers,
          'it is in the interface docsctl implements and in its sandbox, but not in the official API description (docs/compatibility.md)',
        );
      }
      throw e;
    }
  }

  /**
   * GET a file the API pointed to by an absolute URL (e.g. a change request's PDF `url`), its bytes
   * given to `sink` as they arrive (so a large file is never held whole; bounded by the timeout, not
   * by the size of an answer). The token goes only to the API's own origin; a URL elsewhere must
   * carry its own authorization. Resolves to the content type once the whole file has come.
   */
  async download(url: string, sink: (chunk: Buffer, headers: Record<string, string>) => void | Promise<void>): Promise<{ contentType: string }> {
    const anonymous = new URL(url).origin !== new URL(this.http.baseUrl).origin;
    const res = await this.http.send({ method: 'GET', path: url, anonymous, sink });
    return { contentType: res.headers['content-type'] ?? '' };
  }

  /** A paginated operation as a lazy Paginator over its items. */
  paginate<O extends AnyOp>(op: O, input: CallInput<O> = {}, startCursor?: string): Paginator<OpItem<O>> {
    let name: string | undefined;
    try {
      name = `${op.method} /v1${fillPath(op.path, (input.params ?? {}) as Record<string, unknown>)}`;
    } catch {
      // A missing parameter: call() says so on the first page.
    }
    return this.paginator<OpItem<O>>(
      async (cursor, limit) => {
        const query = { ...(input.query as object), limit, ...(cursor ? { page: cursor } : {}) } as OpQuery<O>;
        return (await this.call(op, { ...input, query })) as unknown as Page<OpItem<O>>;
      },
      startCursor,
      name,
    );
  }

  /**
   * A list read through `fetchPage` (a list of several operations, a page checked on the way), with
   * this client's bound on pages: every list docsctl reads goes through a Paginator made here.
   */
  paginator<T>(fetchPage: (cursor: string | undefined, limit: number) => Promise<Page<T>>, startCursor?: string, name?: string): Paginator<T> {
    return new Paginator<T>(fetchPage, startCursor, { ...(this.maxPages !== undefined ? { maxPages: this.maxPages } : {}), ...(name ? { name } : {}) });
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** `/spaces/{spaceId}` + `{spaceId: 'a b'}` → `/spaces/a%20b`. */
function fillPath(path: string, params: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
