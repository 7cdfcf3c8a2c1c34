/**
 * Rendering of what commands return: `--json` (lists streamed as a JSON array), tables on a TTY,
 * tab-separated rows otherwise, aligned key/value lines for one object. `--fields` picks fields.
 */
import { setFlagsFromString } from 'node:v8';
import { Paginator } from '../client/paginator.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import type { JqProgram } from './jq.js';

export type Column<T = any> = string | { key: string; header?: string; value: (item: T) => unknown };

export interface OutputSpec<T = any> {
  /** Columns of list tables and TSV rows, in order (the TSV order is stable and documented). */
  columns?: Column<T>[];
  /** For a single object: the fields shown as key/value lines (default: all plain fields). */
  fields?: Column<T>[];
  /** Custom human rendering on a TTY (trees); JSON and TSV still apply. */
  human?: (value: any, ctx: Context) => string | Promise<string>;
}

export interface RenderFlags {
  json?: boolean;
  fields?: string;
  limit?: number;
  all?: boolean;
  page?: string;
  /** `--jq`, compiled: the JSON goes through it (a list: each page of items, as it arrives). */
  jqProgram?: JqProgram;
}

export const DEFAULT_LIST_LIMIT = 30;
/** Items per write when streaming a list: few writes, small strings. */
const WRITE_BATCH = 100;

export async function render(ctx: Context, value: unknown, spec: OutputSpec, flags: RenderFlags): Promise<void> {
  if (value === undefined || value === null) return;
  const picked = flags.fields ? parseFields(flags.fields) : undefined;
  if (value instanceof Paginator) return renderPaginated(ctx, value, spec, flags, picked);
  if (typeof value === 'string') {
    ctx.out(value.endsWith('\n') || value === '' ? value : value + '\n');
    return;
  }
  if (Array.isArray(value)) return renderItems(ctx, value, spec, flags, picked);
  if (flags.jqProgram) {
    ctx.out(flags.jqProgram.run(picked ? pick(value, picked) : value));
    return;
  }
  if (flags.json) {
    ctx.out(JSON.stringify(picked ? pick(value, picked) : value, null, 2) + '\n');
    return;
  }
  if (spec.human && ctx.tty && !picked) {
    ctx.out(ensureNl(await spec.human(value, ctx)));
    return;
  }
  const cols = picked ? picked.map(toColumn) : (spec.fields?.map(toColumn) ?? defaultFields(value));
  const rows = cols.map((c) => [c.header, cell(c.value(value))] as const);
  if (!ctx.tty) {
    ctx.out(rows.map(([k, v]) => `${k}\t${tsvCell(v)}`).join('\n') + '\n');
    return;
  }
  const { paint } = await colours(ctx);
  const width = Math.max(...rows.map(([k]) => k.length));
  ctx.out(rows.map(([k, v]) => `${paint.key(k.padEnd(width))}  ${v}`).join('\n') + '\n');
}

async function renderPaginated(ctx: Context, pager: Paginator<unknown>, spec: OutputSpec, flags: RenderFlags, picked?: string[]) {
  if (flags.all && flags.limit !== undefined) throw new UsageError('--all and --limit cannot be used together');
  const max = flags.all ? undefined : (flags.limit ?? DEFAULT_LIST_LIMIT);
  // A count on stderr while --all pages through, on a terminal only; cleared before the end.
  const progress = flags.all && ctx.io.stderr.isTTY && !ctx.env.CI
    ? (n: number, total: number) => ctx.io.stderr.write(`\r\x1b[2Kfetched ${n} of ${total}…`)
    : undefined;
  // A long listing's pages are garbage once written: have V8 keep the heap small rather than grow it.
  if (flags.all) setFlagsFromString('--optimize-for-size');
  if (flags.jqProgram) {
    // Each page of items through jq as it arrives (as gh does with --paginate): `.[]` streams.
    for await (const page of pager.pages(max, progress)) ctx.out(flags.jqProgram.run(picked ? page.map((item) => pick(item, picked)) : page));
  } else if (flags.json) {
    // Streamed as pages arrive, so memory stays flat with --all; items are written a batch at a
    // time: `[\n  {…},\n  {…}\n]` from one JSON.stringify is a batch indented as list elements.
    // Nothing is written before the first page has arrived (a failure then leaves stdout empty); a
    // failure after that closes the array, so that stdout still parses, and is reported as usual.
    let opened = false;
    let first = true;
    try {
      for await (const page of pager.pages(max, progress)) {
        if (!opened) ctx.out('[');
        opened = true;
        for (let i = 0; i < page.length; i += WRITE_BATCH) {
          const batch = page.slice(i, i + WRITE_BATCH);
          const text = JSON.stringify(picked ? batch.map((item) => pick(item, picked)) : batch, null, 2);
          ctx.out((first ? '\n' : ',\n') + text.slice(2, -2));
          first = false;
        }
      }
    } catch (err) {
      if (opened && !ctx.stdoutClosed) ctx.out(first ? ']\n' : '\n]\n');
      throw err;
    }
    ctx.out(!opened ? '[]\n' : first ? ']\n' : '\n]\n');
  } else if (!ctx.tty) {
    const cols = columnsOf(spec, picked);
    for await (const page of pager.pages(max, progress)) {
      ctx.out(page.map((item) => cols.map((c) => tsvCell(c.value(item))).join('\t') + '\n').join(''));
    }
  } else {
    const all: unknown[] = [];
    for await (const item of pager.take(max, progress)) all.push(item);
    await renderTable(ctx, all, columnsOf(spec, picked));
  }
  if (progress) ctx.io.stderr.write('\r\x1b[2K');
  if (!flags.all && pager.nextCursor) {
    const shown = max ?? 0;
    ctx.info(`showing ${Math.min(shown, pager.count ?? shown)} of ${pager.count ?? '?'} — use --all or --limit (next page: --page ${pager.nextCursor})`);
  }
}

async function renderItems(ctx: Context, items: unknown[], spec: OutputSpec, flags: RenderFlags, picked?: string[]) {
  if (flags.jqProgram) {
    ctx.out(flags.jqProgram.run(picked ? items.map((i) => pick(i, picked)) : items));
  } else if (flags.json) {
    ctx.out(JSON.stringify(picked ? items.map((i) => pick(i, picked)) : items, null, 2) + '\n');
  } else if (spec.human && ctx.tty && !picked) {
    ctx.out(ensureNl(await spec.human(items, ctx)));
  } else if (!ctx.tty) {
    const cols = columnsOf(spec, picked);
    for (const item of items) ctx.out(cols.map((c) => tsvCell(c.value(item))).join('\t') + '\n');
  } else {
    await renderTable(ctx, items, columnsOf(spec, picked));
  }
}

async function renderTable(ctx: Context, items: unknown[], cols: ResolvedColumn[]) {
  if (items.length === 0) {
    ctx.info('no results');
    return;
  }
  const [{ default: Table }, { paint }] = await Promise.all([import('cli-table3'), colours(ctx)]);
  const table = new Table({
    head: cols.map((c) => paint.head(c.header)),
    style: { head: [], border: [], compact: true },
    chars: { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' },
  });
  for (const item of items) table.push(cols.map((c) => cell(c.value(item))));
  ctx.out(table.toString().split('\n').map((l) => l.replace(/^ /, '').trimEnd()).join('\n') + '\n');
}

interface ResolvedColumn {
  header: string;
  value: (item: any) => unknown;
}

function toColumn(c: Column): ResolvedColumn {
  if (typeof c === 'string') return { header: c, value: (item) => getPath(item, c) };
  return { header: c.header ?? c.key, value: c.value };
}

function columnsOf(spec: OutputSpec, picked?: string[]): ResolvedColumn[] {
  if (picked) return picked.map(toColumn);
  return (spec.columns ?? ['id']).map(toColumn);
}

function defaultFields(value: unknown): ResolvedColumn[] {
  return Object.keys(value as object)
    .filter((k) => !['object', 'urls', 'permissions'].includes(k))
    .map((k) => toColumn(k));
}

function parseFields(text: string): string[] {
  const fields = text.split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: needs a comma-separated list of field names, e.g. id,title');
  return fields;
}

export function getPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** Keep only the given (dotted) fields, nested as they were. */
export function pick(obj: unknown, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = getPath(obj, f);
    if (v === undefined) continue;
    const parts = f.split('.');
    let target = out;
    for (const p of parts.slice(0, -1)) target = (target[p] ??= {}) as Record<string, unknown>;
    target[parts[parts.length - 1]] = v;
  }
  return out;
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function tsvCell(v: unknown): string {
  return cell(v).replace(/[\t\n\r]/g, ' ');
}

function ensureNl(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}

type Paint = (s: string) => string;
/** chalk, loaded only when colour is on. */
export async function colours(ctx: Context): Promise<{ paint: { key: Paint; head: Paint; dim: Paint; ok: Paint; warn: Paint; bad: Paint } }> {
  if (!ctx.globals.color || !ctx.tty) {
    const id = (s: string) => s;
    return { paint: { key: id, head: id, dim: id, ok: id, warn: id, bad: id } };
  }
  const { default: chalk } = await import('chalk');
  return { paint: { key: chalk.bold, head: chalk.bold.cyan, dim: chalk.dim, ok: chalk.green, warn: chalk.yellow, bad: chalk.red } };
}
