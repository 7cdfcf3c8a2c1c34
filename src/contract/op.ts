/**
 * The contract's building blocks. An operation is declared once, as data, and drives the client
 * (typed calls), the sandbox (routes and validation) and the CLI (argument checks before sending).
 * This folder imports only zod. The schemas of answers (resources, lists) are `z.lazy`: built on
 * first use, as building zod schemas is slow at start and the CLI never parses an answer.
 */
import { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OpDef<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  id: string;
  method: Method;
  /** Path below `/v1`, with `{name}` placeholders. */
  path: string;
  params: P;
  query: Q;
  body: B;
  response: R;
  /** Whether the operation takes a request body (the client sends none otherwise, not even `{}`). */
  hasBody: boolean;
  /** Success status. 204 means no body. */
  status: 200 | 201 | 204;
  /** True when the response is a paginated list `{next?, count, items}`. */
  paginated?: boolean;
  /**
   * A GET whose answer is a function of the state, the caller and the URL alone (no clock, no random,
   * no signed URL): the sandbox keeps its 200 answers until the state changes. Not lists (trash views
   * count seconds down), nor anything with a time in its view.
   */
  cacheable?: boolean;
  /**
   * Also for callers who are not members of the organization in its path: a published site's
   * visitors. Every other operation under an organization, a space or a collection answers a
   * non-member 404, the same whatever the ids, body and query (the sandbox checks it first).
   */
  visitors?: boolean;
  summary?: string;
}

const none = z.object({}).strict();
const noBody = z.undefined();
const noContent = z.undefined();

/** Declare one operation. Omitted parts default to "nothing accepted". */
export function defineOp<
  P extends z.ZodType = typeof none,
  Q extends z.ZodType = typeof none,
  B extends z.ZodType = typeof noBody,
  R extends z.ZodType = typeof noContent,
>(def: {
  id: string;
  method: Method;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  response?: R;
  status?: 200 | 201 | 204;
  paginated?: boolean;
  cacheable?: boolean;
  visitors?: boolean;
  summary?: string;
}): OpDef<P, Q, B, R> {
  return {
    ...def,
    params: (def.params ?? none) as P,
    query: (def.query ?? none) as Q,
    body: (def.body ?? noBody) as B,
    hasBody: def.body !== undefined,
    response: (def.response ?? noContent) as R,
    status: def.status ?? (def.method === 'POST' && def.response ? 201 : def.response ? 200 : 204),
  };
}

export type AnyOp = OpDef<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
export type OpParams<O extends AnyOp> = z.output<O['params']>;
export type OpQuery<O extends AnyOp> = z.input<O['query']>;
export type OpBody<O extends AnyOp> = z.input<O['body']>;
export type OpResult<O extends AnyOp> = z.output<O['response']>;
/** The item type of a paginated operation. */
export type OpItem<O extends AnyOp> = OpResult<O> extends { items: Array<infer I> } ? I : never;

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/**
 * The default level of content (the official document's DefaultLevel): a role, `inherit` (the
 * level of what contains it), or null (none: members keep their own role).
 */
export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;
export const DefaultLevel = z.enum(DEFAULT_LEVELS).nullable();
export type DefaultLevel = z.infer<typeof DefaultLevel>;

/** `page` and `limit`, as every paginated list accepts them. */
export const pageQuery = {
  page: z.string().min(1).max(2048).optional(),
  limit: z.preprocess(toInt, z.number().int().min(0).max(1000)).optional(),
};

/** A `limit` with other bounds than pageQuery's (an integer from `min` to `max`, as a query value). */
export function limitQuery(min: number, max: number) {
  return z.preprocess(toInt, z.number().int().min(min).max(max)).optional();
}

/** A paginated list envelope of `item` (built on first use). */
export function listOf<T extends z.ZodType>(item: T) {
  return z.lazy(() => z.object(listShape(item)));
}

/** The fields of a paginated list of `item`, for a list that has more (`z.object({...listShape(X), stats})`). */
export function listShape<T extends z.ZodType>(item: T) {
  return {
    next: z.object({ page: z.string() }).optional(),
    count: z.number(),
    items: z.array(item),
  };
}

/** A boolean query parameter: `true`/`false` on the wire, a boolean in code. */
export function qBool() {
  return z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: 'must be true or false' }));
}

/**
 * A query value written as a number (`3`, `2.5`, `1e3`) as that number, for an integer rule to judge:
 * `2.5` then fails as "must be an integer", not as "must be a number".
 */
function toInt(v: unknown): unknown {
  return typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) ? Number(v) : v;
}

/** An id: any non-empty string (the official document sets no other rule on ids in bodies and queries). */
export const id = () => z.string().min(1);
/** The official document's pattern of an id in a path. */
export const PATH_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
/** An id in a path where the official document gives its EntityId pattern (letters, digits, `_` and `-`). */
export const pathId = () => z.string().min(1).regex(PATH_ID_PATTERN);
/**
 * An id in a path that the official document leaves free (a plain string: sites and their parts,
 * users, SAML providers, OpenAPI slugs and versions): any text, which the client URL-encodes.
 */
export const pathText = () => z.string().min(1, { error: 'must not be empty' });
export const Urls = z.record(z.string(), z.string().nullable().optional());
export const Permissions = z.record(z.string(), z.boolean());
export const Timestamp = z.string();

/**
 * A position among siblings: `{before?, after?}`, each a reference `{type, <key>: id}` to a sibling
 * of one of the given kinds (a kind is its type, or `[type, key]` when the id's key is not the type).
 * Either side alone places the item next to that sibling; both place it between them (they must be
 * neighbours); neither leaves it where it is (the official document allows all three).
 */
export function positionOf(...kinds: (string | readonly [type: string, key: string])[]) {
  const refs = kinds.map((kind) => {
    const [type, key] = typeof kind === 'string' ? [kind, kind] : kind;
    return z.object({ type: z.literal(type), [key]: id() } as Record<string, z.ZodType>);
  });
  const ref = refs.length === 1 ? refs[0] : z.discriminatedUnion('type', refs as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
  return z.object({ before: ref.optional(), after: ref.optional() });
}

/** The id a position reference points at (`{type: 'space', space: 'sp_1'}` → `sp_1`). */
export function refId(ref: Record<string, unknown>): string {
  return String(ref[String(ref.type)] ?? ref.id ?? Object.values(ref).find((v) => v !== ref.type));
}

/** The error body of every 4xx/5xx answer: the status again, and a message naming the field and the rule. */
export const ErrorBody = z.object({
  error: z.object({ code: z.number(), message: z.string() }),
});

export { describeIssue, issuePath } from './issues.js';
