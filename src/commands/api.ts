import { readFile } from 'node:fs/promises';
import { defineCommand } from '../cli/command.js';
import { UsageError } from '../cli/errors.js';
import { readFileOrStdin } from '../cli/input.js';
import { ApiError } from '../client/errors.js';
import type { HttpResponse } from '../client/http.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export default defineCommand({
  name: 'api',
  summary: 'Send a raw request to any endpoint and print the JSON answer',
  description:
    'The path is relative to the API URL; /v1 is added unless the path starts with /v1 or /_sandbox. ' +
    '{org} is replaced by the current organization. With fields and no -X, the method is POST.',
  args: [{ name: 'endpoint', description: 'path, e.g. /v1/orgs/{org}/spaces' }],
  flags: {
    method: { short: 'X', description: 'HTTP method (default GET, or POST with fields)', value: 'method', choices: METHODS },
    rawField: { short: 'f', type: 'list', description: 'add a string field key=value to the JSON body (repeatable)', value: 'key=value' },
    field: { short: 'F', type: 'list', description: 'add a typed field: numbers, true/false, null, @file (repeatable)', value: 'key=value' },
    header: { short: 'H', type: 'list', description: 'add a header "Name: value" (repeatable)', value: 'header' },
    input: { description: 'the body from a file, or - for stdin', value: 'file' },
    paginate: { type: 'boolean', description: 'follow next.page and print all items as one array' },
    include: { short: 'i', type: 'boolean', description: 'print the status line and headers before the body' },
  },
  examples: [
    'docsctl api /v1/orgs/{org}/spaces --paginate',
    'docsctl api /v1/orgs/{org}/collections -f title=Guides',
    'docsctl api -X PATCH /v1/collections/col_123 -F defaultLevel=null',
    'docsctl api -X POST /_sandbox/clock -f advance=8d',
  ],
  noJson: true,
  async run(ctx, { args, flags }) {
    let path = args.endpoint;
    if (path.includes('{org}')) path = path.replaceAll('{org}', encodeURIComponent(await ctx.org()));
    if (!path.startsWith('/')) path = '/' + path;
    if (!/^\/(v1|_sandbox)(\/|$|\?)/.test(path)) path = '/v1' + path;
    const fields = await buildFields(flags.rawField ?? [], flags.field ?? []);
    if (fields && flags.input) throw new UsageError('--input cannot be combined with -f/-F fields');
    const method = flags.method ?? (fields || flags.input ? 'POST' : 'GET');
    // Requests written by the user say so (`-H user-agent:…` still wins): `docsctl api`, not `docsctl`.
    const headers = { 'user-agent': 'docsctl api', ...parseHeaders(flags.header ?? []) };
    const rawBody = flags.input ? await readFileOrStdin(ctx, flags.input, '--input') : undefined;
    if (flags.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
    const api = await ctx.api();

    const send = async (p: string) => {
      const res = await api.http.exchange({ method, path: p, headers, ...(fields ? { body: fields } : {}), ...(rawBody !== undefined ? { rawBody } : {}) });
      if (flags.include) ctx.out(statusBlock(res));
      if (res.status >= 400) {
        if (res.text) ctx.out(res.text.endsWith('\n') ? res.text : res.text + '\n');
        const msg = (res.json as { error?: { message?: string } })?.error?.message ?? `HTTP ${res.status}`;
        throw new ApiError(res.status, msg, method, p);
      }
      return res;
    };

    if (!flags.paginate) {
      const res = await send(path);
      if (res.json !== undefined) ctx.out(JSON.stringify(res.json, null, 2) + '\n');
      else if (res.text) ctx.out(res.text.endsWith('\n') ? res.text : res.text + '\n');
      return;
    }
    // All pages, items merged into one array, written as they arrive.
    let next: string | undefined = path;
    let first = true;
    ctx.out('[');
    while (next) {
      const res = await send(next);
      const body = res.json as { items?: unknown[]; next?: { page?: string } };
      if (!Array.isArray(body?.items)) throw new UsageError('--paginate: the answer is not a list (no items)');
      for (const item of body.items) {
        ctx.out((first ? '\n' : ',\n') + JSON.stringify(item, null, 2).replace(/^/gm, '  '));
        first = false;
      }
      const cursor = body.next?.page;
      if (!cursor) break;
      const url: URL = new URL(next, "http://x");
      url.searchParams.set('page', cursor);
      next = url.pathname + url.search;
    }
    ctx.out(first ? ']\n' : '\n]\n');
  },
});

function statusBlock(res: HttpResponse): string {
  const lines = [`HTTP/1.1 ${res.status}`, ...Object.entries(res.headers).map(([k, v]) => `${k}: ${v}`)];
  return lines.join('\n') + '\n\n';
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

async function buildFields(raw: string[], typed: string[]): Promise<Record<string, unknown> | undefined> {
  if (raw.length === 0 && typed.length === 0) return undefined;
  const body: Record<string, unknown> = {};
  const put = (flag: string, pair: string, value: (v: string) => unknown | Promise<unknown>) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag}: "${pair}" must look like key=value`);
    return { key: pair.slice(0, at), value: value(pair.slice(at + 1)) };
  };
  for (const pair of raw) {
    const { key, value } = put('-f', pair, (v) => v);
    setPath(body, key, value);
  }
  for (const pair of typed) {
    const { key, value } = put('-F', pair, typedValue);
    setPath(body, key, await value);
  }
  return body;
}

async function typedValue(v: string): Promise<unknown> {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v.startsWith('@')) {
    try {
      return await readFile(v.slice(1), 'utf8');
    } catch (e) {
      throw new UsageError(`-F: cannot read ${v.slice(1)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  return v;
}

/** `a.b=1` sets `{a: {b: 1}}`. */
function setPath(obj: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let target = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof target[p] !== 'object' || target[p] === null) target[p] = {};
    target = target[p] as Record<string, unknown>;
  }
  target[parts[parts.length - 1]] = value;
}

