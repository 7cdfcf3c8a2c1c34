/**
 * `docsctl api OPERATION_ID`: an operation of the official API document by its id, its request made
 * from fields by name and checked against the operation's parameters before anything is sent; and
 * `docsctl api --operations`, the list. The table (src/commands/api-table.ts) is made at build time
 * (dist/api-operations.json, beside the CLI) and read only here, so no other command pays for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../cli/errors.js';
import { didYouMean } from '../cli/suggest.js';
import type { Kind, Operation, OperationTable } from './api-table.js';

/** The file the build writes beside the CLI (scripts/build.mjs). */
const TABLE_FILE = 'api-operations.json';

/**
 * The table: dist/api-operations.json in the built CLI; from the sources (the tests, where no build
 * is beside this module), made from the official document in node_modules as the build makes it.
 */
export async function loadOperations(): Promise<OperationTable> {
  try {
    return JSON.parse(readFileSync(join(__dirname, TABLE_FILE), 'utf8')) as OperationTable;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const official = join(__dirname, '../../node_modules/@gitbook/api');
  let doc: unknown;
  let version: string;
  try {
    doc = JSON.parse(readFileSync(join(official, 'spec/openapi.json'), 'utf8'));
    version = (JSON.parse(readFileSync(join(official, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    throw new Error(`the table of operations (${TABLE_FILE}) is not beside docsctl: rebuild it (npm run build)`);
  }
  const { operationTable } = await import('./api-table.js');
  return operationTable(doc as Record<string, unknown>, version);
}

/** The operation named `id`; an unknown id is exit 2 with the closest ids. */
export function findOperation(table: OperationTable, id: string): Operation {
  const op = table.operations.find((o) => o.id === id);
  if (op) return op;
  const guess = didYouMean(
    id,
    table.operations.map((o) => o.id),
  );
  throw new UsageError(
    `unknown operation ${id}: not an operationId of the official API document (@gitbook/api ${table.version})`,
    [guess, 'docsctl api --operations lists them; a path starts with / (docsctl api /v1/…)'].filter(Boolean).join(' '),
  );
}

/** `--operations [FILTER]`: the operations whose id, method, path or summary hold every word of the filter (any case). */
export function listOperations(table: OperationTable, filter: string | undefined) {
  const words = (filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return table.operations
    .filter((o) => {
      const text = `${o.id} ${o.method} ${o.path} ${o.summary}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .map((o) => ({ id: o.id, method: o.method, path: o.path, summary: o.summary }));
}

type Fields = Record<string, unknown>;

/**
 * The request of `op` from fields by name: path parameters into its path, query parameters into its
 * query string, the rest into its JSON body (none when `input` gives the body). Checked before
 * anything is sent, each failure a UsageError naming the field and the rule: a field the operation
 * does not take, a required parameter or body field missing, a value of the wrong type or not among
 * the values the document lists. `{org}` in a path or query parameter's value is the current
 * organization (`org()`).
 */
export async function operationRequest(
  op: Operation,
  fields: Fields | undefined,
  input: boolean,
  org: () => Promise<string>,
): Promise<{ method: string; path: string; query: Fields; body?: Fields }> {
  if (input && !op.body) throw new UsageError(`--input: ${op.id} (${op.method} ${op.path}) takes no body`);
  const given = fields ?? {};
  const withOrg = async (v: unknown) => (typeof v === 'string' && v.includes('{org}') ? v.replaceAll('{org}', await org()) : v);
  const query: Fields = {};
  const body: Fields = {};
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    const param = op.params.find((p) => p.name === name && p.in === 'path') ?? op.params.find((p) => p.name === name);
    if (param) {
      const v = await withOrg(value);
      checkParam(name, param, v);
      if (param.in === 'path') values[name] = v;
      else query[name] = v;
      continue;
    }
    const fieldKind = op.body?.fields?.[name];
    const takesBody = op.body !== undefined && !input && op.body.types === undefined;
    if (takesBody && (fieldKind || op.body?.open)) {
      if (fieldKind) checkValue(name, fieldKind, value, 'body');
      body[name] = value;
      continue;
    }
    throw unknownField(op, name, input);
  }
  for (const p of op.params) {
    if (!p.required || p.name in given) continue;
    throw new UsageError(
      `${p.name}: required (${p.in} parameter of ${op.id}), give it with -f ${p.name}=…`,
      p.name === 'organizationId' ? `-f organizationId={org} for the current organization` : undefined,
    );
  }
  const hasBody = Object.keys(body).length > 0;
  if (op.body && !input) {
    if (op.body.types) {
      if (op.body.required) throw new UsageError(`${op.id} takes a JSON ${op.body.types.join(' or ')} as its body: give it with --input FILE`);
    } else if (hasBody || op.body.required) {
      const missing = (op.body.requiredFields ?? []).filter((n) => !(n in body));
      if (missing.length > 0) throw new UsageError(`${missing[0]}: required (body field of ${op.id}), give it with -f ${missing[0]}=… or -F`);
      if (!hasBody && op.body.required) throw new UsageError(`${op.id} requires a body: give its fields with -f/-F, or --input FILE`);
    }
  }
  const path = '/v1' + op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
  return { method: op.method, path, query, ...(hasBody ? { body } : {}) };
}

function unknownField(op: Operation, name: string, input: boolean): UsageError {
  const params = op.params.map((p) => p.name);
  const bodyFields = input || op.body?.types ? [] : Object.keys(op.body?.fields ?? {});
  const guess = didYouMean(name, [...params, ...bodyFields]);
  const takes = [
    ...(['path', 'query'] as const).map((where) => {
      const names = op.params.filter((p) => p.in === where).map((p) => p.name);
      return names.length ? `${where}: ${names.join(', ')}` : '';
    }),
    bodyFields.length ? `body: ${bodyFields.join(', ')}` : '',
  ].filter(Boolean);
  const why = input && op.body?.fields?.[name] ? ` (--input gives the whole body; a field goes to the path or query)` : '';
  return new UsageError(
    `${name}: ${op.id} takes no field ${name}${why}`,
    [guess, takes.length ? `it takes ${takes.join('; ')}` : `it takes no fields`].filter(Boolean).join(' '),
  );
}

/** A path or query parameter's value, as the URL will carry it (its text). */
function checkParam(name: string, kind: Kind & { in: 'path' | 'query' }, value: unknown): void {
  const rule = (what: string) => new UsageError(`${name}: must be ${what} (${kind.in} parameter)`);
  if (Array.isArray(value)) {
    if (kind.in === 'path' || (kind.types && !kind.types.includes('array'))) throw rule(`one ${describe(kind)}, not a list`);
    return;
  }
  if (value !== null && typeof value === 'object') {
    if (kind.in === 'path' || (kind.types && !kind.types.includes('object'))) throw rule(describe(kind));
    return;
  }
  const text = value === null || value === undefined ? '' : String(value);
  if (kind.in === 'path' && text === '') throw rule('a non-empty value');
  if (kind.values && !kind.values.some((v) => v !== null && String(v) === text)) throw rule(describe(kind));
  const types = kind.types;
  if (!types || types.length === 0 || types.includes('string')) return;
  const fits =
    (types.includes('integer') && /^-?\d+$/.test(text)) ||
    (types.includes('number') && text !== '' && Number.isFinite(Number(text))) ||
    (types.includes('boolean') && (text === 'true' || text === 'false'));
  if (!fits) throw rule(describe(kind));
}

/** A body field's JSON value. */
function checkValue(name: string, kind: Kind, value: unknown, where: string): void {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const fitsType =
    !kind.types || kind.types.length === 0 || kind.types.includes(type) || (type === 'number' && kind.types.includes('integer') && Number.isInteger(value));
  const fitsValue = !kind.values || (typeof value !== 'object' && kind.values.includes(value as string)) || (value === null && kind.values.includes(null));
  if (fitsType && fitsValue) return;
  const typed = typeof value === 'string' && kind.types?.some((t) => t === 'integer' || t === 'number' || t === 'boolean' || t === 'null');
  throw new UsageError(
    `${name}: must be ${describe(kind)} (${where} field)`,
    typed ? `-f sends a string; -F ${name}=… sends numbers, true, false and null as such` : undefined,
  );
}

function describe(kind: Kind): string {
  if (kind.values) return `one of ${kind.values.map((v) => (v === null ? 'null' : String(v))).join(', ')}`;
  const names: Record<string, string> = {
    string: 'a string',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
    null: 'null',
  };
  const list = (kind.types ?? []).map((t) => names[t] ?? t);
  return list.length === 0 ? 'a value' : list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}
