/**
 * `docsctl api`: a raw request to any endpoint, as `gh api` does (cli/cli pkg/cmd/api): fields as a
 * JSON body or, on GET and HEAD, as query parameters; `a[b]=c`, `a[]=x` and `a.b=c` keys; `--paginate`
 * through `next.page` (with `--slurp`: the pages in one array); `--jq`; `--silent`; `--include`.
 * Or an operation of the official API document by its id, its fields checked by name before sending,
 * and `--operations`, the list of them (api-operations.ts).
 */
import { defineCommand } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT, UsageError } from '../cli/errors.js';
import { readFileOrStdin } from '../cli/input.js';
import type { JqProgram } from '../cli/jq.js';
import type { Api, Page } from '../client/api.js';
import { ApiError } from '../client/errors.js';
import type { HttpResponse } from '../client/http.js';
import type { AnyOp } from '../contract/op.js';
import type { Operation } from './api-table.js';

/** How the sandbox answers a path it does not route: `no route GET /v1/…` (src/server/app.ts, docs/api.md). */
const NO_ROUTE = 'no route';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** The page size `--paginate` asks for when the request names none (the largest the API allows). */
const PAGINATE_LIMIT = '1000';

export default defineCommand({
  name: 'api',
  summary: 'Send a raw request to any endpoint, or an operation of the official API by its id, and print the JSON answer',
  description:
    'The path is relative to the API URL; /v1 is added unless the path starts with /v1, /_sandbox or /openapi.json. ' +
    '{org} is replaced by the current organization (in the path and in -F values). ' +
    'The method is GET, or POST when fields or --input are given; -X sets it. ' +
    'Fields (-f strings, -F typed values) make the JSON body; on GET and HEAD, and with --input, they are query parameters instead. ' +
    'Keys nest as gh api nests them: a[b]=c and a.b=c make {"a": {"b": "c"}}, a[]=x appends x to the array a (a[] alone: an empty array); ' +
    'in a query string arrays are repeated keys (a=x&a=y) and objects a[b]=c. ' +
    '--paginate (GET on a list only, refused before anything is sent otherwise) follows next.page and prints the items of every page as one JSON array; ' +
    'with --slurp, an array of the pages as the API answers them ({next, count, items}). ' +
    "--jq filters the answer (with --paginate: each page's items, as they arrive). " +
    "The exit code follows the status (docsctl help exit-codes); an error answer's body is printed as it came, except with --paginate, which prints JSON or nothing. " +
    'A redirect (3xx but 304) is not followed: exit 1, naming the status and the Location. ' +
    '--paginate reads at most DOCSCTL_MAX_PAGES pages (default 1000) and stops at a cursor it followed already (exit 1). ' +
    'An argument with no / is an operationId of the official API document (docsctl api --operations lists them, with --json and --fields as any list; a filter keeps those whose id, method, path or summary hold its words): ' +
    "the method and path are the operation's, and fields go by name to its path parameters, its query parameters or its JSON body (with --input, the body is the file). " +
    'They are checked before anything is sent (exit 2 naming the field): a field the operation does not take, a required parameter or body field missing, a value of the wrong type or not one the document lists. ' +
    '{org} is replaced in the values of path and query parameters too. ' +
    'An operation the sandbox does not serve is answered 404 by it, and docsctl says so (exit 4).',
  args: [
    {
      name: 'endpoint',
      optional: true,
      ids: 'operation',
      description: 'path, e.g. /v1/orgs/{org}/spaces, or an operationId, e.g. listSpacesInOrganizationById',
    },
  ],
  output: { columns: ['id', 'method', 'path', 'summary'] },
  flags: {
    operations: { type: 'boolean', description: 'list the operations of the official API document (id, method, path, summary); the argument filters them' },
    json: { type: 'boolean', description: 'with --operations: print JSON' },
    fields: { description: 'with --operations: only these fields, comma-separated (id, method, path, summary)', value: 'list' },
    method: { short: 'X', description: 'HTTP method (default GET, or POST with fields or --input)', value: 'method', choices: METHODS },
    rawField: {
      short: 'f',
      type: 'list',
      description: 'add a string field key=value (repeatable): the JSON body, or query parameters on GET and HEAD',
      value: 'key=value',
    },
    field: {
      short: 'F',
      type: 'list',
      description: 'add a typed field: numbers, true/false, null, {org}, @file or @- for stdin (repeatable)',
      value: 'key=value',
    },
    header: { short: 'H', type: 'list', description: 'add a header "Name: value" (repeatable)', value: 'header' },
    input: { description: 'the body from a file, or - for stdin (fields then go to the query string)', value: 'file' },
    paginate: { type: 'boolean', description: 'follow next.page of a list and print the items of all pages as one array' },
    slurp: { type: 'boolean', description: 'with --paginate: print an array of the pages as answered ({next, count, items})' },
    jq: { short: 'q', description: "filter the answer with jq (strings print without quotes); with --paginate, each page's items", value: 'expression' },
    silent: { type: 'boolean', description: 'print no body (the exit code still follows the status)' },
    include: { short: 'i', type: 'boolean', description: 'print the status line and headers before the body' },
  },
  examples: [
    "docsctl api /v1/orgs/{org}/spaces --paginate --jq '.[].title'",
    'docsctl api /v1/orgs/{org}/collections -f title=Guides',
    'docsctl api -X GET /v1/orgs/{org}/members -f role=admin -F limit=5',
    "docsctl api -X PATCH /v1/spaces/sp_123 -F 'mergeRules[type]=rules' -F 'mergeRules[rules][][rule]=require_at_least_one_review'",
    'docsctl api -X POST /_sandbox/clock -f advance=8d',
    'docsctl api -X HEAD /v1/spaces/sp_123 -i',
    'docsctl api listSpacesInOrganizationById -f organizationId={org} --paginate',
    'docsctl api updateSpaceById -f spaceId=sp_123 -f title=Handbook',
    'docsctl api --operations team',
  ],
  noJson: true,
  async run(ctx, { args, flags, jq }) {
    const { paginate = false, slurp = false, silent = false, include = false } = flags;
    if (flags.operations) {
      const others = (['method', 'rawField', 'field', 'header', 'input', 'paginate', 'slurp', 'silent', 'include'] as const).filter(
        (k) => flags[k] !== undefined,
      );
      if (others.length > 0)
        throw new UsageError(`--operations lists operations: it takes no --${others.map((k) => (k === 'rawField' ? 'raw-field' : k)).join(', --')}`);
      const { loadOperations, listOperations } = await import('./api-operations.js');
      return listOperations(await loadOperations(), args.endpoint);
    }
    if (args.endpoint === undefined) throw new UsageError('missing argument <endpoint>', 'see docsctl api --help');
    // (--jq sets flags.json, for lists.)
    if ((flags.json && !jq) || flags.fields !== undefined)
      throw new UsageError('--json and --fields work with --operations (an answer is printed as JSON; --jq filters it)');
    if (slurp && !paginate) throw new UsageError('--slurp works with --paginate only');
    if (slurp && jq) throw new UsageError('--slurp cannot be combined with --jq (--jq runs on each page as it arrives)');
    if (silent && jq) throw new UsageError('--silent and --jq cannot be combined');
    if (paginate && flags.input) throw new UsageError('--paginate cannot be combined with --input');

    let org: string | undefined;
    const theOrg = async () => (org ??= await ctx.org());
    const withOrg = async (text: string) => (text.includes('{org}') ? text.replaceAll('{org}', await theOrg()) : text);
    const fields = await parseFields(ctx, flags.rawField ?? [], flags.field ?? [], withOrg);
    let path: string;
    let method: string;
    let body: Fields | undefined;
    /** The operation named by its id (no / in the argument). */
    let op: Operation | undefined;
    if (!args.endpoint.includes('/')) {
      const ops = await import('./api-operations.js');
      op = ops.findOperation(await ops.loadOperations(), args.endpoint);
      if (flags.method !== undefined && flags.method !== op.method) throw new UsageError(`-X ${flags.method}: ${op.id} is ${op.method} ${op.path}`);
      if (paginate && !op.list)
        throw new UsageError(
          `--paginate: ${op.id} answers one object, not a list`,
          '--paginate follows next.page of list answers ({next, count, items}); drop it for one object',
        );
      const request = await ops.operationRequest(op, fields, flags.input !== undefined, theOrg);
      method = request.method;
      path = addQuery(request.path, request.query);
      body = request.body;
      if (paginate && !('limit' in request.query) && op.params.some((p) => p.name === 'limit')) path = addQuery(path, { limit: PAGINATE_LIMIT });
    } else {
      path = args.endpoint;
      if (path.includes('{org}')) path = path.replaceAll('{org}', encodeURIComponent(await theOrg()));
      if (!path.startsWith('/')) path = '/' + path;
      if (!/^\/(v1|_sandbox)(\/|$|\?)|^\/openapi\.json($|\?)/.test(path)) path = '/v1' + path;
      method = flags.method ?? (paginate ? 'GET' : fields || flags.input ? 'POST' : 'GET');
      if (paginate && method !== 'GET') throw new UsageError(`--paginate works with GET only (not ${method})`);
      // gh's rule: on GET and HEAD the fields are the query; with --input (the body) too.
      const fieldsInQuery = fields !== undefined && (method === 'GET' || method === 'HEAD' || flags.input !== undefined);
      if (fields && fieldsInQuery) path = addQuery(path, fields);
      body = fields && !fieldsInQuery ? fields : undefined;
      if (paginate) {
        await refuseNonList(path);
        if (!/[?&]limit=/.test(path)) path = addQuery(path, { limit: PAGINATE_LIMIT });
      }
    }
    // Requests written by the user say so (`-H user-agent:…` still wins): `docsctl api`, not `docsctl`.
    const headers = { 'user-agent': 'docsctl api', ...parseHeaders(flags.header ?? []) };
    const rawBody = flags.input ? await readFileOrStdin(ctx, flags.input, '--input') : undefined;
    const api = await ctx.api();
    const send = (p: string) =>
      api.http.exchange({ method, path: p, headers, ...(body !== undefined ? { body } : {}), ...(rawBody !== undefined ? { rawBody } : {}) });
    const reasons = include ? await statusTexts() : {};
    const statusBlock = (res: HttpResponse) => {
      const names = Object.keys(res.headers).sort();
      // A header a server echoes never shows the token (set-cookie, www-authenticate…).
      return api.http.mask(
        [`HTTP/1.1 ${res.status} ${reasons[res.status] ?? ''}`.trimEnd(), ...names.map((k) => `${k}: ${res.headers[k]}`)].join('\n') + '\n\n',
      );
    };

    if (!paginate) {
      const res = await send(path);
      if (include) ctx.out(statusBlock(res));
      // A redirect is not followed (the token would go with it): exit 1, naming where it pointed.
      const redirect = api.http.redirectOf(res);
      if (redirect) throw new ApiError(res.status, redirect.message, method, path, res.json, res.headers, redirect.hint);
      if (res.status >= 400) {
        // The error body as it came (gh does the same), but never with the token in it; the message
        // on stderr, the exit code by status.
        if (!silent && res.text) ctx.out(ensureNl(api.http.mask(res.text)));
        throw failure(res, method, path, op);
      }
      if (silent || res.text === '') return;
      if (jq) {
        if (res.json === undefined)
          throw new CliError(`--jq: the answer to ${method} ${path} is not JSON (${res.headers['content-type'] ?? 'no content type'})`, EXIT.FAILED);
        ctx.out(await jq.run(res.json));
      } else {
        ctx.out(res.json !== undefined ? JSON.stringify(res.json, null, 2) + '\n' : ensureNl(res.text));
      }
      return;
    }
    await paginateList(ctx, api, path, send, { slurp, silent, include, jq, statusBlock, method, op });
  },
});

interface PageOptions {
  slurp: boolean;
  silent: boolean;
  include: boolean;
  jq?: JqProgram;
  statusBlock: (res: HttpResponse) => string;
  method: string;
  op?: Operation;
}

/**
 * Every page of a list, from `path` on through `next.page`, read through the client's Paginator (the
 * checks and the bound on pages of every list). Each page is printed as it comes, so memory stays
 * flat however long the list. stdout holds valid JSON or nothing: nothing is written before the
 * first page has come, an error answer's body is not printed, and a page that fails after others
 * closes the array first. A closed stdout (ctx.out throws) stops the paging where it is.
 */
async function paginateList(ctx: Context, api: Api, first: string, send: (p: string) => Promise<HttpResponse>, o: PageOptions): Promise<void> {
  /** Whether an array is open on stdout (the items, or with --slurp the pages). */
  let open = false;
  let empty = true;
  const streams = !o.silent && !o.include && !o.jq;
  const pager = api.paginator<unknown>(
    async (cursor) => {
      let path = first;
      if (cursor !== undefined) {
        const url = new URL(first, 'http://x');
        url.searchParams.set('page', cursor);
        path = url.pathname + url.search;
      }
      const res = await send(path);
      if (o.include) ctx.out(o.statusBlock(res));
      const redirect = api.http.redirectOf(res);
      if (redirect) throw new ApiError(res.status, redirect.message, o.method, path, res.json, res.headers, redirect.hint);
      if (res.status >= 400) throw failure(res, o.method, path, o.op);
      api.http.checkAnswer({ method: o.method, path }, res, 'list');
      return res.json as Page<unknown>;
    },
    undefined,
    `${o.method} ${first.split('?')[0]}`,
  );
  try {
    for await (const page of pager.answers()) {
      if (streams && !open) {
        ctx.out('[');
        open = true;
      }
      if (o.include && !o.silent) ctx.out(JSON.stringify(page, null, 2) + '\n');
      else if (o.jq) ctx.out(await o.jq.run(page.items));
      else if (streams) {
        let chunk = '';
        for (const value of o.slurp ? [page] : page.items) {
          chunk += `${empty ? '\n' : ',\n'}${indent(JSON.stringify(value, null, 2))}`;
          empty = false;
        }
        if (chunk !== '') ctx.out(chunk);
      }
      // The next page only for a reader still there, at its pace.
      if (pager.nextCursor !== undefined) await ctx.stillRead();
    }
  } catch (e) {
    if (open && !ctx.stdoutClosed) ctx.out(empty ? ']\n' : '\n]\n');
    throw e;
  }
  if (open) ctx.out(empty ? ']\n' : '\n]\n');
}

/**
 * The ApiError of an error answer: its message (the service's, or HTTP <status>), exit code by status.
 * An operation named by its id that the sandbox does not serve: the sandbox's answer to a path it
 * does not route (404, `no route <METHOD> <path>`, docs/api.md) says so, exit 4.
 */
function failure(res: HttpResponse, method: string, path: string, op?: Operation): ApiError | CliError {
  const message = (res.json as { error?: { message?: unknown } } | undefined)?.error?.message;
  if (op && res.status === 404 && message === `${NO_ROUTE} ${method} ${path.split('?')[0]}`)
    return new CliError(
      `the sandbox does not implement ${op.id} (${op.method} ${op.path}): it answered 404 "${message}"`,
      EXIT.NOT_FOUND,
      'docsctl serve runs a subset of the official API (docs/api.md lists it); the service itself may serve it',
    );
  return new ApiError(
    res.status,
    typeof message === 'string' && message !== '' ? message : `HTTP ${res.status}`,
    method,
    path,
    res.json,
    res.headers,
    res.notRetried,
  );
}

/**
 * `--paginate` on a path that is not a list is refused before anything is sent: the contract knows
 * every list operation (`paginated`), and the path must be one of them (the most literal template
 * that matches decides, as a router does). The sandbox's own routes are not lists.
 */
async function refuseNonList(path: string): Promise<void> {
  const pathname = path.split('?')[0].replace(/(.)\/+$/, '$1');
  const why = (what: string) =>
    new UsageError(`--paginate: GET ${pathname} ${what}`, '--paginate follows next.page of list answers ({next, count, items}); drop it for one object');
  if (!pathname.startsWith('/v1/')) throw why('is not a list of the API');
  const below = pathname.slice(3);
  const { families } = await import('../contract/index.js');
  let best: { op: AnyOp; literal: number } | undefined;
  for (const family of Object.values(families) as Record<string, AnyOp>[]) {
    for (const op of Object.values(family)) {
      if (op.method !== 'GET' || !templateMatcher(op.path).test(below)) continue;
      const literal = op.path.replace(/\{[^}]+\}/g, '').length;
      if (!best || literal > best.literal) best = { op, literal };
    }
  }
  if (!best) throw why('is no operation of the API docsctl knows, so it cannot be paginated');
  if (!best.op.paginated) throw why(`(${best.op.id}) answers one object, not a list`);
}

function templateMatcher(template: string): RegExp {
  return new RegExp(
    '^' +
      template
        .split(/\{[^}]+\}/)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]+') +
      '$',
  );
}

function parseHeaders(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const at = h.indexOf(':');
    if (at <= 0) throw new UsageError(`-H: "${h}" must look like "Name: value"`);
    out[h.slice(0, at).trim().toLowerCase()] = h.slice(at + 1).trim();
  }
  return out;
}

type Fields = Record<string, unknown>;

/**
 * -f and -F pairs as one object (undefined when there are none), keys nested as gh nests them:
 * `a[b]=c` and `a.b=c` (before any bracket) → `{a: {b: "c"}}`; `a[]=x` appends to the array `a`;
 * `a[][b]=x` starts or fills the last object of the array `a`; `a[]` alone is an empty array.
 * A key given twice is an error (except array appends).
 */
async function parseFields(ctx: Context, raw: string[], typed: string[], withOrg: (s: string) => Promise<string>): Promise<Fields | undefined> {
  if (raw.length === 0 && typed.length === 0) return undefined;
  const params: Fields = {};
  for (const pair of raw) setField(params, '-f', pair, parsePair('-f', pair));
  for (const pair of typed) {
    const parsed = parsePair('-F', pair);
    if (parsed.value !== undefined) parsed.value = await typedValue(ctx, parsed.value as string, withOrg);
    setField(params, '-F', pair, parsed);
  }
  return params;
}

/** `a[b][]=v` → keys `a`, `b`, `` (an array) and the value; `a.b=v` → `a`, `b`. */
function parsePair(flag: string, pair: string): { keys: string[]; value: unknown } {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? pair : pair.slice(0, eq);
  const bracket = key.indexOf('[');
  const head = bracket < 0 ? key : key.slice(0, bracket);
  const keys = head.split('.');
  let rest = bracket < 0 ? '' : key.slice(bracket);
  while (rest !== '') {
    const m = /^\[([^\]]*)\]/.exec(rest);
    if (!m) throw new UsageError(`${flag}: "${pair}": a key looks like name, name[key], name[] or name.key`);
    keys.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  if (head.split('.').some((k) => k === '')) throw new UsageError(`${flag}: "${pair}" must look like key=value`);
  if (eq < 0 && keys[keys.length - 1] !== '') throw new UsageError(`${flag}: "${pair}" must look like key=value (key[] alone for an empty array)`);
  return { keys, value: eq < 0 ? undefined : pair.slice(eq + 1) };
}

function setField(params: Fields, flag: string, pair: string, { keys, value }: { keys: string[]; value: unknown }): void {
  const fail = (why: string) => new UsageError(`${flag}: "${pair}": ${why}`);
  let dest = params;
  let inArray = false;
  let last = '';
  for (const k of keys) {
    if (k === '') {
      inArray = true;
      continue;
    }
    if (last !== '') {
      if (inArray) {
        // `a[][b]`: the last object of the array `a`, unless it has `b` already (then a new one).
        const list = dest[last] ?? (dest[last] = []);
        if (!Array.isArray(list)) throw fail(`${last} is not an array`);
        const tail = list[list.length - 1] as Fields | undefined;
        if (isObject(tail) && (!(k in tail) || Array.isArray(tail[k]))) dest = tail;
        else {
          const fresh: Fields = {};
          list.push(fresh);
          dest = fresh;
        }
        inArray = false;
      } else {
        const child = dest[last] ?? (dest[last] = {});
        if (!isObject(child)) throw fail(`${last} is given a value and nested keys`);
        dest = child;
      }
    }
    last = k;
  }
  if (inArray) {
    const list = dest[last];
    if (value === undefined) dest[last] = list ?? [];
    else if (list === undefined) dest[last] = [value];
    else if (Array.isArray(list)) list.push(value);
    else throw fail(`${last} is not an array`);
  } else {
    if (last in dest) throw fail(`${last} is given twice`);
    dest[last] = value;
  }
}

function isObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function typedValue(ctx: Context, v: string, withOrg: (s: string) => Promise<string>): Promise<unknown> {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v.startsWith('@')) return readFileOrStdin(ctx, v === '@-' ? '-' : v.slice(1), '-F');
  return withOrg(v);
}

/**
 * The fields as query parameters added to `path`: arrays as repeated keys (`a=x&a=y`, as this API
 * takes them), objects as `a[b]=c`, null as an empty value.
 */
function addQuery(path: string, fields: Fields): string {
  const query = new URLSearchParams();
  const add = (name: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v) => add(name, v));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) add(`${name}[${k}]`, v);
    else query.append(name, value === null || value === undefined ? '' : String(value));
  };
  for (const [k, v] of Object.entries(fields)) add(k, v);
  const text = query.toString();
  return text === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

/** node:http's reason phrases, loaded only for --include (the client does not load node:http). */
async function statusTexts(): Promise<Record<number, string | undefined>> {
  // The CLI runs as one CommonJS script compiled with V8's code cache, where import() has no loader.
  return typeof require === 'function' ? (require('node:http') as typeof import('node:http')).STATUS_CODES : (await import('node:http')).STATUS_CODES;
}

function ensureNl(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}
