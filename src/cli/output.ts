/**
 * Rendering of what commands return: `--json` (lists streamed as a JSON array), tables on a TTY,
 * tab-separated rows otherwise, aligned key/value lines for one object. `--fields` picks, by the
 * names a command declares (its columns and fields), what tables, TSV rows and JSON carry: the same
 * names and the same values everywhere.
 */
import { Paginator } from '../client/paginator.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { escapeDeep, jsonSafe, terminalLine, terminalText, tsvField } from './escape.js';
import type { JqProgram } from './jq.js';

/**
 * A column (or a field of a single object): a field of the API object by name, or a value made from
 * it (`value`; without it, the field `key`). `extra` columns are left out of tables and TSV rows
 * unless `--fields` names them. `priority` says what a table too wide for the terminal gives up
 * first (see Priority; by default it follows from the column's name: priorityOf).
 */
export type Column<T = any> = string | { key: string; header?: string; value?: (item: T) => unknown; extra?: boolean; priority?: Priority };

/**
 * How much a column matters in a table that does not fit the terminal: `key` columns (the identifier
 * other commands take) are always shown; `main` ones (a title, a subject, a name) are shown and cut
 * no shorter than READABLE_WIDTH while other columns can go; `normal` ones are dropped before a main
 * column goes below that width, after the `low` ones (references to other objects by id, times).
 */
type Priority = 'key' | 'main' | 'normal' | 'low';

export interface OutputSpec<T = any> {
  /** Columns of list tables and TSV rows, in order (the TSV order is stable and documented). */
  columns?: Column<T>[];
  /** For a single object: the fields shown as key/value lines (default: all plain fields). */
  fields?: Column<T>[];
  /**
   * Custom human rendering on a TTY (trees); JSON and TSV still apply. `value` comes with the control
   * characters of its strings escaped (a copy); `raw` is the command's own value, for what a command
   * keeps by identity (the tree behind a list of rows): escape what is drawn from it (`escapeDeep`).
   */
  human?: (value: any, ctx: Context, raw: any) => string | Promise<string>;
}

export interface RenderFlags {
  json?: boolean;
  fields?: string;
  limit?: number;
  all?: boolean;
  page?: string;
  /** `--jq`, compiled: the JSON goes through it (a list: the whole list, once). */
  jqProgram?: JqProgram;
}

/**
 * List columns, then the fields of a single object that are not columns, as `extra` columns: a
 * list's `--fields` may name any of them (`spaces list --fields id,emoji`).
 */
export function withExtras<T>(columns: Column<T>[], fields: Column<T>[]): Column<T>[] {
  const shown = new Set(columns.map((c) => toColumn(c).header));
  const extras = fields
    .filter((f) => !shown.has(toColumn(f).header))
    .map((f) => {
      const c = toColumn(f);
      return { key: c.header, value: c.value, extra: true as const };
    });
  return [...columns, ...extras];
}

export const DEFAULT_LIST_LIMIT = 30;
/** Items per write when streaming a list: few writes, small strings. */
const WRITE_BATCH = 100;

export async function render(ctx: Context, value: unknown, spec: OutputSpec, flags: RenderFlags): Promise<void> {
  if (value === undefined || value === null) return;
  if (value instanceof Paginator)
    return renderPaginated(ctx, value, spec, flags, flags.fields ? selectFields(spec.columns ?? spec.fields, flags.fields) : undefined);
  if (typeof value === 'string') {
    // Text asked for as it is (a page's Markdown): escaped only when a person reads it on a terminal.
    const text = ctx.tty ? terminalText(value) : value;
    ctx.out(text.endsWith('\n') || text === '' ? text : text + '\n');
    return;
  }
  if (Array.isArray(value))
    return renderItems(ctx, value, spec, flags, flags.fields ? selectFields(spec.columns ?? spec.fields, flags.fields, value[0]) : undefined);
  const declared = spec.fields ?? spec.columns;
  const picked = flags.fields ? selectFields(declared, flags.fields, value) : undefined;
  if (flags.jqProgram) {
    await jqOut(ctx, flags.jqProgram, picked ? record(value, picked) : value);
    return;
  }
  if (flags.json) {
    ctx.out(jsonText(picked ? record(value, picked) : value) + '\n');
    return;
  }
  if (spec.human && ctx.tty && !picked) {
    ctx.out(ensureNl(await spec.human(escapeDeep(value), ctx, value)));
    return;
  }
  const cols = picked ?? (declared ? shownColumns(declared) : defaultFields(value));
  if (!ctx.tty) {
    ctx.out(cols.map((c) => `${tsvField(c.header)}\t${tsvCell(c.value(value))}`).join('\n') + '\n');
    return;
  }
  const { paint } = await colours(ctx);
  const keys = cols.map((c) => terminalLine(c.header));
  const width = Math.max(...keys.map((k) => k.length));
  ctx.out(cols.map((c, i) => `${paint.key(keys[i].padEnd(width))}  ${humanCell(c.value(value))}`).join('\n') + '\n');
}

/**
 * Check `--fields` against what a command declares, before anything is sent: an unknown name is a
 * usage error listing the ones there are. (A command that declares nothing is checked on its answer.)
 */
export function checkFields(spec: OutputSpec | undefined, text: string | undefined): void {
  if (text === undefined) return;
  const declared = spec?.columns ?? spec?.fields;
  if (declared) selectFields(declared, text);
  else parseFields(text);
}

async function renderPaginated(ctx: Context, pager: Paginator<unknown>, spec: OutputSpec, flags: RenderFlags, picked?: ResolvedColumn[]) {
  const max = flags.all ? undefined : (flags.limit ?? DEFAULT_LIST_LIMIT);
  // A count on stderr while --all pages through, on a terminal only; cleared before the end.
  const progress =
    flags.all && ctx.io.stderr.isTTY && !ctx.env.CI ? (n: number, total: number) => ctx.io.stderr.write(`\r\x1b[2Kfetched ${n} of ${total}…`) : undefined;
  if (flags.jqProgram) {
    // The whole list through jq, once, as `--json` prints it (`[]` when it is empty), as gh's list
    // commands do: `length` counts the list. (Only `api --paginate` runs jq page by page.)
    const items: unknown[] = [];
    for await (const page of pager.pages(max, progress)) {
      for (const item of page) items.push(picked ? record(item, picked) : item);
    }
    if (progress) ctx.io.stderr.write('\r\x1b[2K');
    await jqOut(ctx, flags.jqProgram, items);
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
          const text = jsonText(picked ? batch.map((item) => record(item, picked)) : batch);
          ctx.out((first ? '\n' : ',\n') + text.slice(2, -2));
          first = false;
        }
        await ctx.stillRead();
      }
    } catch (err) {
      if (opened && !ctx.stdoutClosed) ctx.out(first ? ']\n' : '\n]\n');
      throw err;
    }
    ctx.out(!opened ? '[]\n' : first ? ']\n' : '\n]\n');
  } else if (!ctx.tty) {
    const cols = picked ?? shownColumns(spec.columns);
    for await (const page of pager.pages(max, progress)) {
      ctx.out(page.map((item) => cols.map((c) => tsvCell(c.value(item))).join('\t') + '\n').join(''));
      await ctx.stillRead();
    }
  } else {
    const all: unknown[] = [];
    for await (const item of pager.take(max, progress)) all.push(item);
    await renderTable(ctx, all, picked ?? shownColumns(spec.columns), !picked);
  }
  if (progress) ctx.io.stderr.write('\r\x1b[2K');
  if (!flags.all && pager.nextCursor) {
    const shown = max ?? 0;
    ctx.info(`showing ${Math.min(shown, pager.count ?? shown)} of ${pager.count ?? '?'} — use --all or --limit (next page: --page ${pager.nextCursor})`);
  }
}

async function renderItems(ctx: Context, items: unknown[], spec: OutputSpec, flags: RenderFlags, picked?: ResolvedColumn[]) {
  if (flags.jqProgram) {
    await jqOut(ctx, flags.jqProgram, picked ? items.map((i) => record(i, picked)) : items);
  } else if (flags.json) {
    ctx.out(jsonText(picked ? items.map((i) => record(i, picked)) : items) + '\n');
  } else if (spec.human && ctx.tty && !picked) {
    ctx.out(ensureNl(await spec.human(escapeDeep(items), ctx, items)));
  } else if (!ctx.tty) {
    const cols = picked ?? shownColumns(spec.columns);
    for (const item of items) ctx.out(cols.map((c) => tsvCell(c.value(item))).join('\t') + '\n');
  } else {
    await renderTable(ctx, items, picked ?? shownColumns(spec.columns), !picked);
  }
}

/**
 * A table that fits the terminal: one line per row. When the natural widths are too wide, the least
 * useful columns are left out first (`mayDrop`: not when `--fields` chose them), lowest priority and
 * rightmost first, until the main columns (titles) keep READABLE_WIDTH characters; stderr names them.
 * Then the widest columns that are not ids give way, their cells cut with `…` (ids are never cut).
 * Times are short.
 */
async function renderTable(ctx: Context, items: unknown[], cols: ResolvedColumn[], mayDrop: boolean) {
  if (items.length === 0) {
    ctx.info('no results');
    return;
  }
  const [{ default: Table }, { paint }, { strlen }] = await Promise.all([
    import('cli-table3'),
    colours(ctx),
    import('cli-table3/src/utils.js') as Promise<{ strlen(s: string): number }>,
  ]);
  const allRows = items.map((item) => cols.map((c) => humanCell(c.value(item))));
  const allHeads = cols.map((c) => terminalLine(c.header));
  const measured = cols.map((c, i): TableColumn => {
    const natural = Math.max(strlen(allHeads[i]), ...allRows.map((r) => strlen(r[i])));
    const priority = priorityOf(c, i);
    return {
      natural,
      priority,
      min: priority === 'main' ? Math.min(natural, READABLE_WIDTH) : Math.min(strlen(allHeads[i]), MIN_CUT_WIDTH),
      fixed: isIdColumn(c.header),
    };
  });
  const kept = mayDrop ? keptColumns(measured, ctx.width) : measured.map((_, i) => i);
  if (kept.length < cols.length) {
    const hidden = cols.filter((_, i) => !kept.includes(i)).map((c) => c.header);
    ctx.info(`note: ${hidden.length === 1 ? 'column' : 'columns'} ${hidden.join(', ')} hidden to fit ${ctx.width} columns (see --fields, --json)`);
  }
  const heads = kept.map((i) => allHeads[i]);
  const widths = fitWidths(
    kept.map((i) => measured[i]),
    ctx.width - GAP * (kept.length - 1),
  );
  const table = new Table({
    head: heads.map((h) => paint.head(h)),
    colWidths: widths,
    wordWrap: false,
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: ' '.repeat(GAP),
    },
  });
  for (const row of allRows) table.push(kept.map((i) => row[i]));
  ctx.out(
    table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n') + '\n',
  );
}

/** Spaces between two columns of a table. */
const GAP = 2;
/** A main column (a title) keeps at least this many characters while other columns can be left out. */
const READABLE_WIDTH = 20;
/** A column that gives way keeps at least this many characters (or its header's, when shorter)… */
const MIN_CUT_WIDTH = 10;
/** …and, when that is still too wide, down to this. */
const HARD_MIN_WIDTH = 4;

interface TableColumn {
  /** The width of its widest cell (or header). */
  natural: number;
  /** How far it gives way before HARD_MIN_WIDTH: READABLE_WIDTH for a main column. */
  min: number;
  /** Never cut (ids). */
  fixed: boolean;
  priority: Priority;
}

/** The order in which columns are left out: lowest priority first. */
const DROP_ORDER: readonly Priority[] = ['low', 'normal'];

/**
 * The columns (their indexes, in order) of a table `width` characters wide: all of them when they fit
 * at their minimum widths (ids whole, main columns at READABLE_WIDTH, the others cut); else without
 * the lowest-priority columns, the rightmost of a priority first, one at a time until they fit. Key
 * and main columns stay, even when that is still too wide (then fitWidths cuts further).
 */
function keptColumns(cols: readonly TableColumn[], width: number): number[] {
  const kept = cols.map((_, i) => i);
  const least = (c: TableColumn) => (c.fixed ? c.natural : Math.min(c.natural, c.min));
  const fits = () => kept.reduce((sum, i) => sum + least(cols[i]), 0) + GAP * (kept.length - 1) <= width;
  for (const priority of DROP_ORDER) {
    for (let at = kept.length - 1; at >= 0 && !fits(); at--) {
      if (cols[kept[at]].priority === priority) kept.splice(at, 1);
    }
  }
  return kept;
}

/**
 * Widths of a table's columns within `room` characters: the natural ones when they fit; else the
 * widest column that may give way loses one character at a time, down to its minimum, then down to
 * HARD_MIN_WIDTH, until the table fits (ids never give way: a table of ids alone may stay wider).
 */
function fitWidths(cols: { natural: number; min: number; fixed: boolean }[], room: number): number[] {
  const widths = cols.map((c) => c.natural);
  let total = widths.reduce((a, b) => a + b, 0);
  for (const floor of [(i: number) => cols[i].min, () => HARD_MIN_WIDTH]) {
    while (total > room) {
      let widest = -1;
      for (let i = 0; i < cols.length; i++) {
        if (!cols[i].fixed && widths[i] > floor(i) && (widest < 0 || widths[i] > widths[widest])) widest = i;
      }
      if (widest < 0) break;
      widths[widest]--;
      total--;
    }
  }
  return widths;
}

/** Columns that hold ids, never cut: `id`, `…Id`, and the ones that name another object by its id. */
const ID_COLUMNS = new Set([
  'id',
  'slug',
  'number',
  'parent',
  'space',
  'section',
  'group',
  'organization',
  'revision',
  'lastVersion',
  'postedBy',
  'createdBy',
  'resolvedBy',
  'mergedBy',
]);
function isIdColumn(header: string): boolean {
  return ID_COLUMNS.has(header) || /Id$/.test(header);
}

/** Ids that commands take beside a table's first column: a change request's number. */
const KEY_COLUMNS = new Set(['number', 'slug']);
/** What a row is about, as a person reads it. */
const MAIN_COLUMNS = new Set(['title', 'subject', 'name', 'displayName', 'label', 'body', 'target']);

/**
 * A column's priority: its own (Column.priority); else `key` for the first column and the ids of
 * KEY_COLUMNS, `main` for a title, subject, name…, `low` for another object's id (`parent`, `space`,
 * `createdBy`) and for a time (`…At`), `normal` for the rest.
 */
function priorityOf(c: ResolvedColumn, index: number): Priority {
  if (c.priority) return c.priority;
  if (index === 0 || KEY_COLUMNS.has(c.header)) return 'key';
  if (MAIN_COLUMNS.has(c.header)) return 'main';
  return isIdColumn(c.header) || /At$/.test(c.header) ? 'low' : 'normal';
}

interface ResolvedColumn {
  header: string;
  value: (item: any) => unknown;
  extra?: boolean;
  priority?: Priority;
}

function toColumn(c: Column): ResolvedColumn {
  if (typeof c === 'string') return { header: c, value: (item) => getPath(item, c) };
  const key = c.key;
  return {
    header: c.header ?? key,
    value: c.value ?? ((item) => getPath(item, key)),
    ...(c.extra ? { extra: true } : {}),
    ...(c.priority ? { priority: c.priority } : {}),
  };
}

/** What a table or TSV row shows by default: the declared columns but the extra ones. */
function shownColumns(declared: Column[] | undefined): ResolvedColumn[] {
  return (declared ?? ['id']).map(toColumn).filter((c) => !c.extra);
}

/**
 * The columns `--fields` names, in its order. Where the command declares its columns or fields, only
 * those names (and their values, as tables show them); where it declares none, the fields of the
 * answer itself (`sample`), dotted paths allowed. An unknown name is a usage error listing the others.
 */
function selectFields(declared: Column[] | undefined, text: string, sample?: unknown): ResolvedColumn[] {
  const names = parseFields(text);
  if (declared) {
    const byName = new Map(declared.map((c) => toColumn(c)).map((c) => [c.header, c]));
    const unknown = names.filter((n) => !byName.has(n));
    if (unknown.length) throw unknownFields(unknown, [...byName.keys()]);
    return names.map((n) => byName.get(n)!);
  }
  if (sample !== null && typeof sample === 'object') {
    const unknown = names.filter((n) => getPath(sample, n) === undefined);
    if (unknown.length) throw unknownFields(unknown, Object.keys(sample));
  }
  return names.map((n) => toColumn(n));
}

function unknownFields(unknown: string[], available: string[]): UsageError {
  return new UsageError(
    `--fields: no field ${unknown.map((n) => `"${n}"`).join(', ')} here; available: ${available.join(', ')}`,
    'for any other part of the JSON, use --jq (e.g. --jq .urls)',
  );
}

/** An object of the selected columns' values, by name (absent values are null): what JSON carries. */
function record(item: unknown, cols: ResolvedColumn[]): Record<string, unknown> {
  return Object.fromEntries(cols.map((c) => [c.header, c.value(item) ?? null]));
}

function defaultFields(value: unknown): ResolvedColumn[] {
  return Object.keys(value as object)
    .filter((k) => !['object', 'urls', 'permissions'].includes(k))
    .map((k) => toColumn(k));
}

function parseFields(text: string): string[] {
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError('--fields: needs a comma-separated list of field names, e.g. id,title');
  return fields;
}

function getPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A value in a TSV row: on one line, without tabs, control characters escaped. */
function tsvCell(v: unknown): string {
  return tsvField(cell(v));
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A cell as a terminal shows it: times short (`2h ago`, `in 6d`, or a date), the rest on one line
 * (line breaks and runs of spaces around them become one space), control characters escaped.
 */
function humanCell(v: unknown): string {
  return typeof v === 'string' && ISO_TIME.test(v) ? shortTime(v) : terminalLine(cell(v));
}

/** JSON as docsctl prints it: indented by 2, DEL and C1 controls `\u`-escaped as C0 ones are. */
function jsonText(value: unknown): string {
  return jsonSafe(JSON.stringify(value, null, 2));
}

/** `--jq`'s output for one value (escaped on a terminal by the program itself). */
async function jqOut(ctx: Context, program: JqProgram, value: unknown): Promise<void> {
  ctx.out(await program.run(value));
}

/**
 * A time relative to now, as a person reads it: `now`, `5m ago`, `2h ago`, `3d ago` (or `in 5m` …
 * ahead); beyond 30 days, the date (`2026-01-02`).
 */
function shortTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  const a = Math.abs(s);
  if (a >= 30 * 86_400) return iso.slice(0, 10);
  const n = a < 60 ? '' : a < 3_600 ? `${Math.floor(a / 60)}m` : a < 86_400 ? `${Math.floor(a / 3_600)}h` : `${Math.floor(a / 86_400)}d`;
  if (n === '') return 'now';
  return s >= 0 ? `${n} ago` : `in ${n}`;
}

function ensureNl(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}

type Paint = (s: string) => string;
/**
 * chalk, loaded only when colour is on. docsctl decides (Globals.color: NO_COLOR, CLICOLOR_FORCE,
 * DOCSCTL_FORCE_TTY…), not chalk: chalk's own guess looks at the process's stdout and FORCE_COLOR only,
 * and would leave a forced terminal output (DOCSCTL_FORCE_TTY on a pipe) without colour.
 */
export async function colours(ctx: Context): Promise<{ paint: { key: Paint; head: Paint; dim: Paint; ok: Paint; warn: Paint; bad: Paint } }> {
  if (!ctx.globals.color || !ctx.tty) {
    const id = (s: string) => s;
    return { paint: { key: id, head: id, dim: id, ok: id, warn: id, bad: id } };
  }
  const { Chalk, supportsColor } = await import('chalk');
  // As many colours as the terminal is known to show; at least the 16 basic ones docsctl uses.
  const chalk = new Chalk({ level: supportsColor ? (Math.max(1, supportsColor.level) as 1 | 2 | 3) : 1 });
  return { paint: { key: chalk.bold, head: chalk.bold.cyan, dim: chalk.dim, ok: chalk.green, warn: chalk.yellow, bad: chalk.red } };
}
