/**
 * What a write changed, found through the store's maps, and how it reaches the database.
 *
 * Handlers change records in place all over the sandbox (`store.data.spaces.get(id).title = ...`,
 * `sitesState(store).sections.get(id).siteSpaces.push(...)`), so the changes cannot be listed by
 * the code that makes them. Instead every Map of the state (the store's own, and those of every
 * family's slice) is a `Table`: a Map that tells the journal which of its entries were reached.
 *
 * - A row is one entry of a table: one record (a space, a revision, a comment...), keyed as in
 *   the Map. The database holds one row per entry, its value encoded by `codec.ts`.
 * - An entry is *touched* when it is set, deleted, or handed out (`get` of a present key, and every
 *   entry an iteration yields): whatever was handed out may be changed in place afterwards.
 * - At a commit (after each write request, after background work, after a purge), each touched
 *   entry is encoded again and compared with what the database holds (a SHA-256 of the last text
 *   written, or the row itself the first time): only entries that differ are written, in one
 *   transaction. A write therefore costs what it reached, not the size of the state.
 * - The order of a Map is part of the state (spaces are listed in creation order): each row has a
 *   sequence number, and an entry added (or deleted and added again) gets a new one, at the end.
 * - Reads do not touch: while a GET is answered the journal is paused (GET handlers change nothing;
 *   the answers the app keeps rely on the same rule), except for a set or delete, always recorded.
 * - A commit that fails (the disk is full or read-only, a value cannot be encoded) writes nothing,
 *   and every touched entry is put back as the database holds it: memory and disk never disagree.
 *   The request answers 503.
 *
 * An async handler may hold a record across an await; the entries a write touches stay watched
 * (pinned) until that write ends, so a change made to them later is still seen, even when another
 * request's commit came in between. Before its first await a write's touches are its own; after it
 * (a continuation, which cannot be told apart from background work without tracking async context)
 * they are pinned to every write still running, the one that touched them among them.
 */
import { sha256 } from '../lib/sha256.js';
import { TOP_TABLES, type Store, type StoreData, type StoreJournal } from '../store.js';
import { rawEntries } from './raw.js';
import { decode, encode } from './codec.js';

/** The table of the families' slices: one row per family, its skeleton (which field is which table). */
const SLICES = 'slices';

/** One row as the database holds it. */
export interface StoredRow {
  table: string;
  /** The Map key, encoded. */
  key: string;
  value: string;
}

/** A row to write: `value` undefined deletes it; `append` gives it a new sequence number (the end of its table). */
export interface RowChange {
  table: string;
  key: string;
  value?: string;
  append: boolean;
}

/** The database side (persist/sqlite.ts). */
export interface RowStore {
  /** The stored text of a row, or undefined. */
  read(table: string, key: string): string | undefined;
  /** The keys of a table, in order. */
  keys(table: string): string[];
  /** Every row, in order; and the meta values. */
  loadAll(): { rows: Iterable<StoredRow>; meta: Map<string, string> };
  /** Write the changes and meta values in one transaction, or throw having written nothing. */
  apply(changes: RowChange[], meta: [string, string][]): void;
  /** Replace every row and meta value in one transaction, or throw having written nothing. */
  replaceAll(rows: Iterable<StoredRow>, meta: [string, string][]): void;
}

/** A commit that failed: nothing was written, and the state is as the database holds it. */
class PersistError extends Error {}

const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapHas = Map.prototype.has;
const mapDelete = Map.prototype.delete;
const mapClear = Map.prototype.clear;
const mapEntries = Map.prototype.entries;

/**
 * A Map of the state that tells the journal which entries were reached (see the module comment).
 * `hashes` holds the SHA-256 of the text last written for an entry, once known.
 */
export class Table<K = unknown, V = unknown> extends Map<K, V> {
  readonly hashes = new Map<K, string>();
  constructor(
    readonly name: string,
    readonly journal: Journal,
  ) {
    super();
  }

  override get(key: K): V | undefined {
    const v = mapGet.call(this, key) as V | undefined;
    if (v !== undefined && this.journal.paused === 0) this.journal.touch(this, key);
    return v;
  }

  override set(key: K, value: V): this {
    const fresh = !mapHas.call(this, key);
    mapSet.call(this, key, value);
    this.journal.wrote(this, key, fresh);
    return this;
  }

  override delete(key: K): boolean {
    if (!mapDelete.call(this, key)) return false;
    this.journal.wrote(this, key, false);
    return true;
  }

  override clear(): void {
    for (const key of Map.prototype.keys.call(this) as IterableIterator<K>) this.journal.wrote(this, key, false);
    mapClear.call(this);
  }

  override entries(): MapIterator<[K, V]> {
    return (this.journal.paused === 0 ? this.touching() : mapEntries.call(this)) as MapIterator<[K, V]>;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override values(): MapIterator<V> {
    return (this.journal.paused === 0 ? this.touchingValues() : Map.prototype.values.call(this)) as MapIterator<V>;
  }

  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  private *touching(): Generator<[K, V]> {
    for (const entry of mapEntries.call(this) as IterableIterator<[K, V]>) {
      this.journal.touch(this, entry[0]);
      yield entry;
    }
  }

  private *touchingValues(): Generator<V> {
    for (const [k, v] of mapEntries.call(this) as IterableIterator<[K, V]>) {
      this.journal.touch(this, k);
      yield v;
    }
  }

  /** Set without recording (loading, putting back). */
  rawSet(key: K, value: V): void {
    mapSet.call(this, key, value);
  }
}

/** A write request in progress: what it touched before its first await. */
export interface WriteScope {
  pinned: Map<Table, Set<unknown>>;
  /** A failed commit put back something it had touched: it must fail too. */
  poisoned: boolean;
}

/** One part of a family's slice: a table, or a plain value kept with the skeleton. */
type SkeletonPart = [field: string, part: { table: string } | { value: unknown }];

const digest = (text: string): string => sha256(text, 'base64');

/** Marks of one commit: per table, the keys touched. */
type Marks = Map<Table, Set<unknown>>;

export class Journal implements StoreJournal {
  /** > 0 while a read is answered: handing out entries does not touch them. */
  paused = 0;
  private dirty: Marks = new Map();
  /** Entries added at the end of their table since the last commit, in order. */
  private appended: [Table, unknown][] = [];
  /** The whole state was replaced (reset, import): the next commit rewrites everything. */
  private full = false;
  private readonly writes = new Set<WriteScope>();
  private current: WriteScope | undefined;
  /** The meta values as last written. */
  private meta = new Map<string, string>();
  /** Tables of the current state by name (slices' tables included). */
  private tables = new Map<string, Table>();

  constructor(
    readonly rows: RowStore,
    readonly store: Store,
    /** Called after each commit that wrote something (e.g. to schedule a checkpoint). */
    private readonly afterWrite: () => void = () => undefined,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Recording

  touch(table: Table, key: unknown): void {
    let keys = this.dirty.get(table);
    if (keys === undefined) this.dirty.set(table, (keys = new Set()));
    keys.add(key);
    if (this.current !== undefined) pin(this.current, table, key);
    else for (const w of this.writes) pin(w, table, key);
  }

  wrote(table: Table, key: unknown, fresh: boolean): void {
    this.touch(table, key);
    if (fresh) this.appended.push([table, key]);
  }

  /** Whether anything waits to be committed. */
  get pending(): boolean {
    return this.full || this.dirty.size > 0 || this.metaChanges().length > 0;
  }

  /** Answer a read: entries handed out meanwhile are not touched (sets and deletes still are). */
  pause(): void {
    this.paused++;
  }

  resume(): void {
    this.paused--;
  }

  /** A write request starts: what it touches until `endSync` stays watched until `end`. */
  begin(): WriteScope {
    const scope: WriteScope = { pinned: new Map(), poisoned: false };
    this.writes.add(scope);
    this.current = scope;
    return scope;
  }

  /** The synchronous part of the write is over (the handler returned, or awaits). */
  endSync(scope: WriteScope): void {
    if (this.current === scope) this.current = undefined;
  }

  end(scope: WriteScope): void {
    this.writes.delete(scope);
    if (this.current === scope) this.current = undefined;
  }

  /** Run `fn` touching what it reaches even inside a read (a purge), then commit; a failure is logged and undone. */
  background(fn: () => void): void {
    const paused = this.paused;
    this.paused = 0;
    try {
      fn();
    } finally {
      this.paused = paused;
    }
    this.commitQuietly('a purge of deleted spaces');
  }

  /** Commit; a failure (the change is undone) is logged rather than thrown: for work no one awaits. */
  commitQuietly(what = 'a background change'): void {
    try {
      this.commit();
    } catch (e) {
      console.error(`[sandbox] ${what} could not be saved and was undone: ${(e as Error).message}`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // The state's layout

  /** Make every Map of a new state a table; the next commit writes it all. */
  replaced(data: StoreData): void {
    this.adopt(data);
    this.full = true;
    this.dirty.clear();
    this.appended = [];
  }

  /** Make the Maps of `data` tables (copied in order, nothing recorded). */
  adopt(data: StoreData): void {
    this.tables = new Map();
    for (const name of TOP_TABLES) (data as unknown as Record<string, unknown>)[name] = this.table(name, data[name]);
    const slices = this.table(SLICES, data.slices);
    data.slices = slices as Map<string, unknown>;
    for (const [key, slice] of rawEntries(slices)) this.adoptSliceFields(key as string, slice as Record<string, unknown>, false);
  }

  /** A family made its slice (Store.slice): its Maps become tables. */
  sliceMade(key: string, slice: object): void {
    this.adoptSliceFields(key, slice as Record<string, unknown>, true);
  }

  /** The Maps of a slice become tables (what a new slice holds already is recorded as added). */
  private adoptSliceFields(key: string, slice: Record<string, unknown>, fresh: boolean): void {
    for (const field of Object.keys(slice)) {
      const v = slice[field];
      if (!(v instanceof Map)) continue;
      const t = this.table(`${key}.${field}`, v);
      slice[field] = t;
      if (fresh) for (const k of Map.prototype.keys.call(t) as IterableIterator<unknown>) this.wrote(t, k, true);
    }
  }

  private table(name: string, from?: Map<unknown, unknown>): Table {
    if (from instanceof Table && from.journal === this) {
      this.tables.set(name, from);
      return from;
    }
    const t = new Table(name, this);
    if (from) for (const [k, v] of rawEntries(from)) t.rawSet(k, v);
    this.tables.set(name, t);
    return t;
  }

  /** How a row of `table` is written: a slice as its skeleton, anything else as it is. */
  private encodeRow(table: Table, value: unknown): string {
    if (table.name !== SLICES) return encode(value);
    const slice = value as Record<string, unknown>;
    const parts: SkeletonPart[] = Object.keys(slice).map((field) => {
      const v = slice[field];
      return [field, v instanceof Table ? { table: v.name } : { value: v }];
    });
    return encode(parts);
  }

  /** A slice from its skeleton, its tables taken from `tables` (made empty when absent). */
  private sliceFrom(text: string, tables: Map<string, Table>): Record<string, unknown> {
    const parts = decode(text) as SkeletonPart[];
    if (!Array.isArray(parts)) throw new Error('database: a slice row is not a skeleton');
    const slice: Record<string, unknown> = {};
    for (const [field, part] of parts) {
      if ('table' in part) {
        let t = tables.get(part.table);
        if (!t) tables.set(part.table, (t = new Table(part.table, this)));
        slice[field] = t;
      } else {
        slice[field] = part.value;
      }
    }
    return slice;
  }

  private metaValues(): [string, string][] {
    return [
      ['sandboxAdmin', JSON.stringify(this.store.data.sandboxAdmin)],
      ['clockOffset', JSON.stringify(this.store.clock.offset)],
    ];
  }

  private metaChanges(): [string, string][] {
    return this.metaValues().filter(([name, text]) => this.meta.get(name) !== text);
  }

  /** The state the database holds, with its tables; the journal's own view reset to it. */
  load(): { data: StoreData; clockOffset: number } {
    const { rows, meta } = this.rows.loadAll();
    const tables = new Map<string, Table>();
    const sliceRows: [string, string][] = [];
    for (const row of rows) {
      try {
        if (row.table === SLICES) {
          sliceRows.push([decode(row.key) as string, row.value]);
          continue;
        }
        let t = tables.get(row.table);
        if (!t) tables.set(row.table, (t = new Table(row.table, this)));
        t.rawSet(decode(row.key), decode(row.value));
      } catch (e) {
        throw new Error(`the record ${row.table} ${row.key}: ${(e as Error).message}`);
      }
    }
    const slices = new Table(SLICES, this);
    for (const [key, text] of sliceRows) {
      try {
        slices.rawSet(key, this.sliceFrom(text, tables));
      } catch (e) {
        throw new Error(`the record ${SLICES} ${JSON.stringify(key)}: ${(e as Error).message}`);
      }
    }
    const data = { slices } as unknown as StoreData;
    for (const name of TOP_TABLES) {
      let t = tables.get(name);
      if (!t) tables.set(name, (t = new Table(name, this)));
      (data as unknown as Record<string, unknown>)[name] = t;
    }
    const known = new Set<string>([
      ...TOP_TABLES,
      ...[...rawEntries(slices)].flatMap(([, s]) =>
        Object.values(s as object)
          .filter((v) => v instanceof Table)
          .map((v) => (v as Table).name),
      ),
    ]);
    const stray = [...tables.keys()].find((name) => !known.has(name));
    if (stray !== undefined) throw new Error(`database: rows of table ${stray}, which no slice names`);
    const admin = meta.get('sandboxAdmin');
    data.sandboxAdmin = admin === undefined ? '' : (JSON.parse(admin) as string);
    const offset = meta.get('clockOffset');
    // Order: StoreData's own (users ... trash, slices, sandboxAdmin), as emptyData() makes it.
    const ordered = {} as Record<string, unknown>;
    for (const name of TOP_TABLES) ordered[name] = (data as unknown as Record<string, unknown>)[name];
    ordered.slices = slices;
    ordered.sandboxAdmin = data.sandboxAdmin;
    this.tables = tables;
    this.tables.set(SLICES, slices);
    this.meta = new Map(meta);
    this.dirty.clear();
    this.appended = [];
    this.full = false;
    return { data: ordered as unknown as StoreData, clockOffset: offset === undefined ? 0 : (JSON.parse(offset) as number) };
  }

  // -------------------------------------------------------------------------------------------
  // Committing

  /** Write what changed since the last commit, in one transaction; throws PersistError after putting the state back. */
  commit(): void {
    if (this.full) {
      this.rewrite();
      return;
    }
    const marks = this.marks();
    const metaChanges = this.metaChanges();
    if (marks.size === 0 && metaChanges.length === 0) return;
    // The last place each entry was appended at, in order: those rows move to the end.
    const appendedAt = new Map<Table, Map<unknown, number>>();
    this.appended.forEach(([t, k], i) => {
      let m = appendedAt.get(t);
      if (!m) appendedAt.set(t, (m = new Map()));
      m.set(k, i);
    });
    const updates: RowChange[] = [];
    const appends: [number, RowChange][] = [];
    const hashes: [Table, unknown, string | undefined][] = [];
    try {
      for (const [table, keys] of marks) {
        // A table of a state replaced since (reset, import) is no longer written.
        if (this.tables.get(table.name) !== table) continue;
        for (const key of keys) {
          const ek = encode(key);
          if (!mapHas.call(table, key)) {
            // Gone: delete the row if the database has it (a key never stored was added and deleted since).
            if (table.hashes.has(key) || this.rows.read(table.name, ek) !== undefined) {
              updates.push({ table: table.name, key: ek, append: false });
              hashes.push([table, key, undefined]);
            }
            continue;
          }
          const text = this.encodeRow(table, mapGet.call(table, key));
          const hash = digest(text);
          const at = appendedAt.get(table)?.get(key);
          if (at !== undefined) {
            appends.push([at, { table: table.name, key: ek, value: text, append: true }]);
          } else {
            const known = table.hashes.get(key);
            if (known === hash) continue;
            if (known === undefined && this.rows.read(table.name, ek) === text) {
              table.hashes.set(key, hash);
              continue;
            }
            updates.push({ table: table.name, key: ek, value: text, append: false });
          }
          hashes.push([table, key, hash]);
        }
      }
      appends.sort((a, b) => a[0] - b[0]);
      const changes = [...updates, ...appends.map(([, c]) => c)];
      if (changes.length > 0 || metaChanges.length > 0) this.rows.apply(changes, metaChanges);
    } catch (e) {
      this.putBack(marks);
      throw new PersistError(describe(e));
    }
    for (const [table, key, hash] of hashes) {
      if (hash === undefined) table.hashes.delete(key);
      else table.hashes.set(key, hash);
    }
    for (const [name, text] of metaChanges) this.meta.set(name, text);
    this.dirty.clear();
    this.appended = [];
    if (hashes.length > 0 || metaChanges.length > 0) this.afterWrite();
  }

  /** Touched entries: since the last commit, and pinned by writes still running. */
  private marks(): Marks {
    if (this.writes.size === 0) return this.dirty;
    const out: Marks = new Map([...this.dirty].map(([t, keys]) => [t, new Set(keys)]));
    for (const w of this.writes) {
      for (const [t, keys] of w.pinned) {
        // A table of a state since replaced is no longer the state's.
        if (this.tables.get(t.name) !== t) continue;
        let set = out.get(t);
        if (!set) out.set(t, (set = new Set()));
        for (const k of keys) set.add(k);
      }
    }
    return out;
  }

  /** Write the whole state again (after a reset or an import). */
  private rewrite(): void {
    try {
      const meta = this.metaValues();
      this.rows.replaceAll(this.allRows(), meta);
      this.meta = new Map(meta);
    } catch (e) {
      // The database still holds the state before: back to it.
      this.reload();
      throw new PersistError(describe(e));
    }
    for (const t of this.tables.values()) t.hashes.clear();
    this.full = false;
    this.dirty.clear();
    this.appended = [];
    this.afterWrite();
  }

  private *allRows(): Generator<StoredRow> {
    const data = this.store.data;
    for (const name of TOP_TABLES) {
      const t = data[name] as unknown as Table;
      for (const [k, v] of rawEntries(t)) yield { table: name, key: encode(k), value: encode(v) };
    }
    const slices = data.slices as Table;
    for (const [key, slice] of rawEntries(slices)) {
      yield { table: SLICES, key: encode(key), value: this.encodeRow(slices, slice) };
      for (const v of Object.values(slice as object)) {
        if (v instanceof Table) for (const [k, x] of rawEntries(v)) yield { table: v.name, key: encode(k), value: encode(x) };
      }
    }
  }

  /** The whole state as the database holds it, in place of the one in memory. */
  private reload(): void {
    const { data, clockOffset } = this.load();
    this.store.data = data;
    this.store.clock.offset = clockOffset;
    this.store.reindex();
    this.store.changed();
  }

  /** Put every marked entry back as the database holds it (in place where it can, keeping identities), and the meta values. */
  private putBack(marks: Marks): void {
    const reorder = new Set<Table>();
    for (const [t] of this.appended) reorder.add(t);
    let users = false;
    for (const [table, keys] of marks) {
      if (this.tables.get(table.name) !== table) continue;
      if (table.name === 'users') users = true;
      for (const key of keys) {
        table.hashes.delete(key);
        const stored = this.rows.read(table.name, encode(key));
        if (stored === undefined) {
          mapDelete.call(table, key);
          continue;
        }
        if (table.name === SLICES) {
          if (!mapHas.call(table, key)) {
            table.rawSet(key, this.sliceFrom(stored, this.tables));
            reorder.add(table);
          } else {
            becomeSlice(mapGet.call(table, key) as Record<string, unknown>, this.sliceFrom(stored, this.tables));
          }
          continue;
        }
        const value = decode(stored);
        const had = mapHas.call(table, key);
        if (!had || !become(mapGet.call(table, key), value)) table.rawSet(key, value);
        if (!had) reorder.add(table);
      }
    }
    for (const table of reorder) {
      if (this.tables.get(table.name) !== table) continue;
      const order = this.rows.keys(table.name).map((k) => decode(k));
      const entries = order.map((k) => [k, mapGet.call(table, k)] as const);
      mapClear.call(table);
      for (const [k, v] of entries) table.rawSet(k, v);
    }
    const admin = this.meta.get('sandboxAdmin');
    if (admin !== undefined) this.store.data.sandboxAdmin = JSON.parse(admin) as string;
    const offset = this.meta.get('clockOffset');
    if (offset !== undefined) this.store.clock.offset = JSON.parse(offset) as number;
    // Writes still running that had touched what was put back fail as well.
    for (const w of this.writes) {
      for (const [t, keys] of w.pinned) {
        const put = marks.get(t);
        if (put && [...keys].some((k) => put.has(k))) w.poisoned = true;
      }
    }
    this.dirty.clear();
    this.appended = [];
    if (users) this.store.reindex();
    this.store.changed();
  }

  /** Put back what a failed write touched (it was poisoned by another's failed commit). */
  putBackWrite(scope: WriteScope): void {
    const marks = this.marks();
    for (const [t, keys] of scope.pinned) {
      let set = marks.get(t);
      if (!set) marks.set(t, (set = new Set()));
      for (const k of keys) set.add(k);
    }
    this.putBack(marks);
  }
}

function pin(scope: WriteScope, table: Table, key: unknown): void {
  let pinned = scope.pinned.get(table);
  if (pinned === undefined) scope.pinned.set(table, (pinned = new Set()));
  pinned.add(key);
}

/** Make `target` hold what `source` holds, keeping its identity; false when their kinds differ. */
function become(target: unknown, source: unknown): boolean {
  if (typeof target !== 'object' || target === null || typeof source !== 'object' || source === null) return false;
  if (Array.isArray(target)) {
    if (!Array.isArray(source)) return false;
    target.splice(0, target.length, ...source);
    return true;
  }
  if (target instanceof Map) {
    if (!(source instanceof Map)) return false;
    mapClear.call(target);
    for (const [k, v] of source) mapSet.call(target, k, v);
    return true;
  }
  if (target instanceof Set) {
    if (!(source instanceof Set)) return false;
    target.clear();
    for (const v of source) target.add(v);
    return true;
  }
  if (Array.isArray(source) || source instanceof Map || source instanceof Set) return false;
  for (const k of Object.keys(target)) delete (target as Record<string, unknown>)[k];
  for (const k of Object.keys(source))
    Object.defineProperty(target, k, { value: (source as Record<string, unknown>)[k], writable: true, enumerable: true, configurable: true });
  return true;
}

/** A slice back to its skeleton: its plain values (its tables are put back row by row). */
function becomeSlice(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k];
  for (const k of Object.keys(source)) if (!(source[k] instanceof Table)) target[k] = source[k];
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return err.code ? `${err.code}: ${err.message}` : (err.message ?? String(e));
}
