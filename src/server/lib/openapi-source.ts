/**
 * Read an OpenAPI specification given as a URL or as text, parse it as JSON or YAML
 * and check that it is an OpenAPI 3.x or Swagger 2.0 document. Problems are returned,
 * never thrown, each with a message saying exactly what is wrong and where.
 */
import { LineCounter, parseDocument } from 'yaml';
import { jsonNestingExceeds, MAX_JSON_DEPTH } from '../limits.js';
import { FetchError, safeFetch, type SafeFetchOptions } from './fetch.js';

export interface OpenApiProblem {
  message: string;
  /** FETCH_TIMEOUT, FETCH_ERROR, EMPTY_DOCUMENT, INVALID_JSON, INVALID_YAML, TOO_DEEP, TOO_LONG (read past LIMITS.loop.workerTaskMs), NOT_OPENAPI, INVALID_INFO or INVALID_PATHS. */
  code: string;
}

export type OpenApiProcessResult =
  | {
      ok: true;
      document: Record<string, unknown>;
      filename: 'openapi.json' | 'openapi.yaml';
      format: 'json' | 'yaml';
      kind: 'openapi3' | 'swagger2';
      title?: string;
      version?: string;
    }
  | {
      ok: false;
      code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
      errors: OpenApiProblem[];
    };

export type OpenApiSource = { url: string } | { text: string };

/** Bound on YAML alias expansion (guards against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;
/**
 * Deepest nesting of objects and arrays a document may have: as deep as any JSON body the sandbox
 * accepts (app.ts, MAX_JSON_DEPTH), so that what is stored can always be read back and sent. Real
 * specifications stay far below it. Deeper is a processing error (TOO_DEEP), found without recursion.
 */
const MAX_SPEC_DEPTH = MAX_JSON_DEPTH;
const SPEC_ACCEPT = 'application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.8';
const NOT_OPENAPI = 'not an OpenAPI 3.x or Swagger 2.0 document';

/** What reading an OpenAPI document's text gives: the checked document, or the problems found. */
export type OpenApiParseResult = Extract<OpenApiProcessResult, { ok: true }> | { ok: false; errors: OpenApiProblem[] };

/**
 * Fetch (for a URL) and read an OpenAPI document. The reading, CPU-bound and as long as the text,
 * is `opts.parse` when given (the sandbox runs it in its worker thread), else done here.
 */
export async function processOpenApiSource(
  source: OpenApiSource,
  opts: { fetch?: SafeFetchOptions; maxDepth?: number; parse?: (text: string, maxDepth: number) => Promise<OpenApiParseResult> } = {},
): Promise<OpenApiProcessResult> {
  let text: string;
  if ('url' in source) {
    try {
      const res = await safeFetch(source.url, { ...opts.fetch, accept: opts.fetch?.accept ?? SPEC_ACCEPT });
      text = new TextDecoder().decode(res.body); // UTF-8, BOM dropped
    } catch (err) {
      const fetchError = err instanceof FetchError ? err : new FetchError('FETCH_ERROR', `fetching ${source.url}: ${String(err)}`);
      return { ok: false, code: fetchError.code, errors: [{ message: fetchError.message, code: fetchError.code }] };
    }
  } else {
    text = source.text.replace(/^\uFEFF/, '');
  }
  const maxDepth = opts.maxDepth ?? MAX_SPEC_DEPTH;
  const result = opts.parse ? await opts.parse(text, maxDepth) : parseOpenApiText(text, maxDepth);
  return result.ok ? result : { ok: false, code: 'PARSE_ERROR', errors: result.errors };
}

/** Parse an OpenAPI document's text (JSON or YAML) and check that it is one. */
export function parseOpenApiText(text: string, maxDepth: number): OpenApiParseResult {
  const parsed = parseSpec(text, maxDepth);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const checked = checkSpec(parsed.value);
  if (!checked.ok) return { ok: false, errors: checked.errors };

  const { document, kind } = checked;
  const info = document.info as { title: string; version: string };
  return {
    ok: true,
    document,
    filename: parsed.format === 'json' ? 'openapi.json' : 'openapi.yaml',
    format: parsed.format,
    kind,
    title: info.title,
    version: info.version,
  };
}

type Parsed = { ok: true; value: unknown; format: 'json' | 'yaml' } | { ok: false; errors: OpenApiProblem[] };

/** JSON when the text starts like a JSON object, YAML otherwise; either no deeper than `maxDepth`. */
function parseSpec(text: string, maxDepth: number): Parsed {
  if (!text.trim()) return { ok: false, errors: [{ code: 'EMPTY_DOCUMENT', message: 'the document is empty' }] };
  const tooDeep: Parsed = { ok: false, errors: [{ code: 'TOO_DEEP', message: `the document nests objects and lists deeper than ${maxDepth} levels` }] };
  let parsed: Parsed;
  if (!text.trimStart().startsWith('{')) {
    try {
      parsed = parseYaml(text);
    } catch (err) {
      // Composing and converting YAML recurse: a document nested deep enough exhausts the stack before any check.
      if (err instanceof RangeError) return tooDeep;
      throw err;
    }
  } else {
    if (jsonNestingExceeds(text, maxDepth)) return tooDeep;
    try {
      parsed = { ok: true, value: JSON.parse(text), format: 'json' };
    } catch (err) {
      return { ok: false, errors: [{ code: 'INVALID_JSON', message: jsonErrorMessage(text, err) }] };
    }
  }
  // YAML nests by indentation and flow collections alike, and aliases can make a value contain itself.
  return parsed.ok && depthExceeds(parsed.value, maxDepth) ? tooDeep : parsed;
}

/** Whether `value` holds objects or arrays nested more than `max` deep (a value that contains itself does). No recursion. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** JSON.parse's message, led by the line and column when it gives a position. */
function jsonErrorMessage(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const position = /at position (\d+)/.exec(message);
  if (!position) return `invalid JSON: ${message}`;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  // Drop V8's own location suffix (" in JSON at position 12 (line 2 column 3)").
  const detail = message.replace(/ (?:in JSON )?at position \d+.*$/, '');
  return `line ${line}, column ${column}: ${detail}`;
}

function parseYaml(text: string): Parsed {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  // The composer recurses, and reports running out of stack as an error of the document.
  if (doc.errors.some((e) => e.message.includes('Maximum call stack size exceeded'))) throw new RangeError('too deep');
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((error) => {
        const { line, col } = lineCounter.linePos(error.pos[0]);
        return { code: 'INVALID_YAML', message: `line ${line}, column ${col}: ${error.message}` };
      }),
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), format: 'yaml' };
  } catch (err) {
    if (err instanceof RangeError) throw err;
    // toJS throws when alias expansion exceeds the bound.
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, errors: [{ code: 'INVALID_YAML', message: `too many YAML aliases: ${message}` }] };
  }
}

type Checked = { ok: true; document: Record<string, unknown>; kind: 'openapi3' | 'swagger2' } | { ok: false; errors: OpenApiProblem[] };

function checkSpec(value: unknown): Checked {
  const notOpenApi = (detail: string): Checked => ({
    ok: false,
    errors: [{ code: 'NOT_OPENAPI', message: `${NOT_OPENAPI}: ${detail}` }],
  });
  if (!isObject(value)) return notOpenApi(`the document is ${describeValue(value)}, not an object`);

  let kind: 'openapi3' | 'swagger2';
  if ('openapi' in value) {
    if (typeof value.openapi !== 'string' || !/^3\.\d+(\.\d+)?/.test(value.openapi)) {
      return notOpenApi(`'openapi' must be a version string such as "3.0.3" or "3.1.0", got ${describeValue(value.openapi)}`);
    }
    kind = 'openapi3';
  } else if ('swagger' in value) {
    if (value.swagger !== '2.0') return notOpenApi(`'swagger' must be the string "2.0", got ${describeValue(value.swagger)}`);
    kind = 'swagger2';
  } else {
    return notOpenApi("missing 'openapi' field");
  }

  const errors: OpenApiProblem[] = [];
  const { info } = value;
  if (!isObject(info)) {
    errors.push({
      code: 'INVALID_INFO',
      message: info === undefined ? "missing 'info' object" : `'info' must be an object, got ${describeValue(info)}`,
    });
  } else {
    for (const field of ['title', 'version'] as const) {
      if (typeof info[field] !== 'string') {
        errors.push({
          code: 'INVALID_INFO',
          message: info[field] === undefined ? `missing 'info.${field}'` : `'info.${field}' must be a string, got ${describeValue(info[field])}`,
        });
      }
    }
  }

  // OpenAPI 3.1 made 'paths' optional provided 'webhooks' or 'components' is there instead.
  const is31 = kind === 'openapi3' && /^3\.(?!0\b)/.test(value.openapi as string);
  const containers = is31 ? (['paths', 'webhooks', 'components'] as const) : (['paths'] as const);
  for (const field of containers) {
    if (value[field] !== undefined && !isObject(value[field])) {
      errors.push({ code: 'INVALID_PATHS', message: `'${field}' must be an object, got ${describeValue(value[field])}` });
    }
  }
  if (containers.every((field) => value[field] === undefined)) {
    errors.push({
      code: 'INVALID_PATHS',
      message: is31 ? "missing 'paths', 'webhooks' or 'components'" : "missing 'paths' object",
    });
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, document: value, kind };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a value's type for messages, e.g. `the number 3`. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
