/**
 * The official description of the service: GitBook's published OpenAPI 3.1 document (npm
 * `@gitbook/api`, `spec/openapi.json`), the outside reference the sandbox's answers are checked
 * against. `officialOperation()` finds the operation a request addresses; `checkAnswer()` validates
 * an answer's body against that operation's response schema with Ajv (JSON Schema 2020-12, formats).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { App, AppRequest } from '../../src/server/app.js';

const require = createRequire(import.meta.url);
const OFFICIAL_PATH = require.resolve('@gitbook/api/spec/openapi.json');
/** The package's version (its package.json is beside `spec/`, outside its exports). */
export const OFFICIAL_VERSION: string = (JSON.parse(readFileSync(join(dirname(OFFICIAL_PATH), '../package.json'), 'utf8')) as { version: string }).version;

export type Json = any;

/** The document, parsed once per process. */
export const official: Json = JSON.parse(readFileSync(OFFICIAL_PATH, 'utf8'));

export interface OfficialOp {
  method: string;
  /** The path template below `/v1`, as the document spells it. */
  path: string;
  operationId: string;
  op: Json;
  /** The JSON pointer of the operation in the document. */
  pointer: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every operation of the document, with a matcher of its path. */
const operations: { re: RegExp; literal: number; op: OfficialOp }[] = [];
for (const [path, item] of Object.entries(official.paths as Record<string, Json>)) {
  for (const m of METHODS) {
    if (!item[m]) continue;
    const re = new RegExp(
      '^' +
        path
          .split(/\{[^}]+\}/)
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+') +
        '$',
    );
    operations.push({
      re,
      literal: path.replace(/\{[^}]+\}/g, '').length,
      op: { method: m.toUpperCase(), path, operationId: item[m].operationId, op: item[m], pointer: `#/paths/${escapePointer(path)}/${m}` },
    });
  }
}
// The most literal template wins (`/versions/latest` before `/versions/{versionId}`).
operations.sort((a, b) => b.literal - a.literal);

/** The official operation that `method path` (below `/v1`, no query) addresses, or undefined. */
function officialOperation(method: string, path: string): OfficialOp | undefined {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return operations.find((o) => o.op.method === m && o.re.test(path))?.op;
}

/** The official operation with this template (params named as in the document or not), or undefined. */
export function officialByTemplate(method: string, template: string): OfficialOp | undefined {
  const norm = (p: string) => p.replace(/\{[^}]+\}/g, '{}');
  return operations.find((o) => o.op.method === method && norm(o.op.path) === norm(template))?.op;
}

/**
 * Ajv over the whole document, so `#/components/...` references resolve inside it. `allErrors`
 * collects every error (for the messages) but walks every branch of every `oneOf` to the end:
 * a value is checked by a validator without it, and read again with it only when it fails.
 */
function makeAjv(allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors, validateFormats: true });
  const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void;
  addFormats(ajv);
  // The document's own formats: an emoji is a character or its code point, an icon a name.
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addSchema({ ...official, $id: 'official' }, 'official');
  return ajv;
}
const ajvs: Partial<Record<'first' | 'all', Ajv2020>> = {};
const compiled = new Map<string, ValidateFunction>();

function compileAt(pointer: string, errors: 'first' | 'all'): ValidateFunction {
  ajvs[errors] ??= makeAjv(errors === 'all');
  return ajvs[errors].compile({ $ref: `official${pointer}` });
}

/**
 * A validator of the schema at `pointer` (a `#/…` JSON pointer into the document): the verdict of
 * the one that stops at the first error; on a failure, `errors` are all of them (allErrors).
 */
export function validatorAt(pointer: string): ValidateFunction {
  let v = compiled.get(pointer);
  if (!v) {
    const first = compileAt(pointer, 'first');
    let all: ValidateFunction | undefined;
    const validate = ((data: unknown) => {
      if (first(data)) {
        validate.errors = null;
        return true;
      }
      all ??= compileAt(pointer, 'all');
      all(data);
      validate.errors = all.errors ?? first.errors;
      return false;
    }) as ValidateFunction;
    v = Object.assign(validate, { schema: first.schema, schemaEnv: first.schemaEnv, errors: null });
    compiled.set(pointer, v);
  }
  return v;
}

/** Where the response schema of `op` for `status` lives, or undefined when the document has none. */
function responsePointer(op: OfficialOp, status: number): string | undefined {
  const res = op.op.responses?.[String(status)];
  if (!res) return undefined;
  const resolved = res.$ref ? resolveRef(res.$ref) : res;
  const base = res.$ref ? res.$ref : `${op.pointer}/responses/${status}`;
  return resolved.content?.['application/json']?.schema ? `${base}/content/application~1json/schema` : undefined;
}

/** Where the request-body schema of `op` lives, or undefined. */
export function requestPointer(op: OfficialOp): string | undefined {
  const body = op.op.requestBody;
  if (!body) return undefined;
  const resolved = body.$ref ? resolveRef(body.$ref) : body;
  const base = body.$ref ? body.$ref : `${op.pointer}/requestBody`;
  return resolved.content?.['application/json']?.schema ? `${base}/content/application~1json/schema` : undefined;
}

/** The value at a `#/…` pointer of the document. */
export function resolveRef(ref: string): Json {
  let node: Json = official;
  for (const part of ref.replace(/^#\//, '').split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

/**
 * Where the seed gives another success status than the document, the seed's stands (docs/compatibility.md,
 * Statuses where the seed wins): official operationId → the seed's status → the document's status whose
 * schema the body follows.
 */
export const SEED_STATUSES: Record<string, Record<number, number>> = {
  postCommentInSpace: { 201: 200 },
  postCommentReplyInSpace: { 201: 200 },
  postCommentInChangeRequest: { 201: 200 },
  postCommentReplyInChangeRequest: { 201: 200 },
  applyTemplateToSpace: { 204: 201 },
};

export interface Verdict {
  /** The official operation, or undefined when the request is outside the document (seed-only). */
  op?: OfficialOp;
  /** What is wrong with the answer, empty when it is valid. */
  problems: string[];
}

/**
 * Of the errors under each failed `oneOf`/`anyOf`, only those of the branch that came closest (the
 * fewest errors): the others only say that the value is not that variant.
 */
function closestBranches(errors: ErrorObject[]): ErrorObject[] {
  let kept = errors;
  for (const e of errors) {
    if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') continue;
    const prefix = `${e.schemaPath}/`;
    const byBranch = new Map<string, ErrorObject[]>();
    for (const x of kept) {
      if (!x.schemaPath.startsWith(prefix) || !x.instancePath.startsWith(e.instancePath)) continue;
      const branch = x.schemaPath.slice(prefix.length).split('/')[0];
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), x]);
    }
    if (byBranch.size < 2) continue;
    const best = [...byBranch.values()].sort((a, b) => a.length - b.length)[0];
    const drop = new Set([...byBranch.values()].filter((b) => b !== best).flat());
    kept = kept.filter((x) => !drop.has(x));
  }
  return kept;
}

/** Ajv's errors as short lines: `/items/0/urls: must have required property 'preview'`. */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 8): string[] {
  const lines = new Set<string>();
  for (const e of closestBranches(errors ?? [])) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : e.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
          : '';
    lines.add(`${e.instancePath || '/'}: ${e.message}${extra}`);
    if (lines.size >= max) break;
  }
  if (lines.size === 0 && errors?.length) lines.add(`${errors[0].instancePath || '/'}: ${errors[0].message}`);
  return [...lines];
}

/**
 * Check one answer of the sandbox: `path` below `/v1` (no query), the status and the body text.
 * Error answers (4xx/5xx) and answers outside the document are not judged here.
 */
export function checkAnswer(method: string, path: string, status: number, text: string): Verdict {
  const op = officialOperation(method, path);
  if (!op || status >= 300) return { op, problems: [] };
  const declared = Object.keys(op.op.responses ?? {});
  const problems: string[] = [];
  const as = SEED_STATUSES[op.operationId]?.[status] ?? status;
  if (!declared.includes(String(as))) problems.push(`status ${status} is not one the document declares (${declared.join(', ')})`);
  if (status === 204) return { op, problems: text === '' ? problems : [...problems, 'a 204 with a body'] };
  // A HEAD is answered with the GET's status and headers, and no body to check.
  if (method.toUpperCase() === 'HEAD') return { op, problems };
  const pointer = responsePointer(op, as);
  if (!pointer) return { op, problems };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { op, problems: [...problems, 'the body is not JSON'] };
  }
  const validate = validatorAt(pointer);
  if (!validate(body)) problems.push(...describeErrors(validate.errors));
  return { op, problems };
}

/**
 * What is wrong with a request the CLI sent, by the document: a body where the operation takes none
 * (even `{}`: a strict server answers 415), or a body its request schema refuses.
 */
export function checkRequest(method: string, path: string, body: string): Verdict {
  const op = officialOperation(method, path);
  if (!op) return { op, problems: [] };
  const pointer = requestPointer(op);
  if (!op.op.requestBody) return { op, problems: body === '' ? [] : [`a body (${body.slice(0, 60)}) on an operation that takes none`] };
  if (body === '') return { op, problems: op.op.requestBody.required ? ['no body where the document requires one'] : [] };
  if (!pointer) return { op, problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { op, problems: ['the body is not JSON'] };
  }
  const validate = validatorAt(pointer);
  return { op, problems: validate(value) ? [] : describeErrors(validate.errors).map((p) => `request body ${p}`) };
}

/**
 * The e2e tests' hook: every answer `app` gives (whoever asked: the CLI over a socket, or a test in
 * process) is checked against the document as it leaves `handle()`, and so is every request the CLI
 * built (its User-Agent is `docsctl`; `docsctl api` sends what the user wrote, as `docsctl api`).
 * `take()` returns the problems seen since the last call, and forgets them.
 */
export function watchAnswers(app: App): { take(): string[] } {
  const seen: string[] = [];
  const handle = app.handle;
  app.handle = async (req: AppRequest) => {
    const res = await handle(req);
    const path = req.url.split('?')[0];
    if (!path.startsWith('/v1/') || res.drop) return res;
    const problems: string[] = [];
    let op: OfficialOp | undefined;
    const agent = req.headers['user-agent'];
    if (agent === 'docsctl') {
      const v = checkRequest(req.method, path.slice(3), req.body === undefined ? '' : req.body.toString());
      op = v.op;
      problems.push(...v.problems);
    }
    if (res.status < 300) {
      const v = checkAnswer(req.method, path.slice(3), res.status, res.body === undefined ? '' : res.body.toString());
      op ??= v.op;
      problems.push(...v.problems);
    }
    if (problems.length) seen.push(`${req.method} ${req.url} (${op!.operationId}) answered ${res.status}:\n  ${problems.join('\n  ')}`);
    return res;
  };
  return { take: () => seen.splice(0) };
}
