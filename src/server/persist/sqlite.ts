/**
 * The `serve --data` database: SQLite through better-sqlite3 (an optional dependency, loaded by
 * `serve --data` only: the CLI and `serve --memory` never load it).
 *
 * One table of rows, one row per record of the state (persist/journal.ts says what a record is):
 *
 *   record(seq INTEGER PRIMARY KEY, tbl TEXT, key TEXT, value TEXT), UNIQUE (tbl, key)
 *   meta(name TEXT PRIMARY KEY, value TEXT)
 *
 * `seq` is the rowid, so the rows of a table read in `seq` order are its Map in order, and loading
 * is one scan of the table. `value` is the record as the codec writes it (persist/codec.ts).
 *
 * - WAL mode with `synchronous = NORMAL`: a commit appends to the write-ahead log and returns
 *   without an fsync. A killed process (SIGKILL, a crash of Node) loses nothing that was committed:
 *   the log is in the operating system's hands. A power loss or a crash of the operating system may
 *   lose the last commits since the log was last synced (at a checkpoint), never the file's
 *   consistency.
 * - `locking_mode = EXCLUSIVE`, taken when the file is opened: one process uses a database at a time
 *   (a second `serve --data` on it is refused), and SQLite keeps its WAL index in memory, so no
 *   `-shm` file exists: the database and its `-wal` are the only files, also after a SIGKILL.
 * - The log is checkpointed into the database when the sandbox starts, when writes pause for a
 *   second, and at the latest 5 s after the first write it holds (`LIMITS.storage`; SQLite also does
 *   past 1000 pages), and removed when the sandbox stops. So the database file alone, copied while
 *   the sandbox runs, holds the state of a few seconds before: the meta rows `inUse` (which process,
 *   since when; removed at a stop) and `checkpointedAt` (the time of the last checkpoint) let the next
 *   start tell a database that lost its log (copied or moved without it, or the log removed) and say
 *   how old its state is.
 */
import { chmodSync, closeSync, constants, copyFileSync, existsSync, fsyncSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { LIMITS } from '../limits.js';
import type { RowChange, RowStore, StoredRow } from './journal.js';

type Database = BetterSqlite3.Database;
type DatabaseConstructor = typeof BetterSqlite3;

/** What the file given to `--data` is. */
export type DataFileKind = 'absent' | 'empty' | 'sqlite' | 'json' | 'other';

/** better-sqlite3 cannot be loaded here: `serve --data` cannot run. */
export class SqliteUnavailableError extends Error {}

/** The file given to `--data` cannot be used (it was left untouched); `hint`: what to do. */
export class DataFileError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A sandbox had the database open and did not stop (meta row `inUse`). */
export interface InUse {
  pid: number;
  /** When that sandbox opened it (ISO 8601). */
  since: string;
}

/** Meta rows kept by SqliteRows itself (the journal's are the state's: sandboxAdmin, clockOffset). */
const IN_USE = 'inUse';
const CHECKPOINTED_AT = 'checkpointedAt';

/** Marks a database as a docsctl sandbox's (meta row `format`). */
const FORMAT = 'docsctl-sandbox-state';
const FORMAT_VERSION = '1';

let driver: DatabaseConstructor | undefined;

/** better-sqlite3, loaded (and its native part checked) on first use. */
export async function loadSqlite(): Promise<DatabaseConstructor> {
  if (driver) return driver;
  let Database: DatabaseConstructor;
  try {
    // Not bundled: through require in the CLI's bundle (a script, where import() is not available), import() as ES modules.
    Database = typeof require === 'function' ? (require('better-sqlite3') as DatabaseConstructor) : (await import('better-sqlite3')).default;
    new Database(':memory:').close();
  } catch (e) {
    throw new SqliteUnavailableError(
      `--data keeps the state in SQLite through the optional package better-sqlite3, which could not be loaded here (${(e as Error).message.split('\n')[0]})`,
    );
  }
  driver = Database;
  return Database;
}

/** How to get better-sqlite3 where it is missing. */
export const SQLITE_HINT =
  "install it in docsctl's folder with `npm install better-sqlite3` (a prebuilt binary is downloaded where one exists; otherwise it is built, which needs Python 3, make and a C++ compiler), or run `docsctl serve --memory`";

/** What to do about a damaged database. */
export const DAMAGED_HINT = 'restore it from a backup (docs/reliability.md, Backups), or start with another --data file';

/**
 * What shows that a SQLite file lost its end, from its header (the SQLite file format, 1.3): a
 * size that is not a whole number of pages (SQLite writes whole pages), or fewer pages than the
 * header counts while that count is valid (its "version-valid-for" matches the change counter) and
 * no log is beside the file (a log may hold pages a checkpoint had yet to write). Undefined when
 * neither, or when the file is not a SQLite database.
 */
function truncation(file: string, hadLog: boolean): string | undefined {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let n: number;
  let size: number;
  try {
    n = readSync(fd, head, 0, 100, 0);
    size = statSync(file).size;
  } finally {
    closeSync(fd);
  }
  if (n < 100 || head.subarray(0, 16).toString('latin1') !== 'SQLite format 3\0') return undefined;
  const raw = head.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  if (size % pageSize !== 0) return `${size} bytes, not a whole number of its ${pageSize}-byte pages`;
  const pages = head.readUInt32BE(28);
  const valid = head.readUInt32BE(92) === head.readUInt32BE(24);
  if (!hadLog && valid && pages * pageSize > size) return `it holds ${size / pageSize} of the ${pages} pages its header counts`;
  return undefined;
}

/** Whether `file` is absent, empty, a SQLite database, a JSON document, or something else. */
export function dataFileKind(file: string): DataFileKind {
  if (!existsSync(file)) return 'absent';
  if (!statSync(file).isFile()) return 'other';
  if (statSync(file).size === 0) return 'empty';
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (n === 0) return 'empty';
  if (head.subarray(0, n).toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  const first = head.subarray(0, n).toString('utf8').trimStart()[0];
  return first === '{' ? 'json' : 'other';
}

/**
 * Files an earlier docsctl or an interrupted start left beside `file`: `FILE.<pid>.tmp` (a whole
 * JSON state, with every token, that versions before the database wrote before each rename) and
 * `FILE.import-<pid>` (a database being built from a JSON state), whose process is gone. Removed.
 */
export function removeLeftovers(file: string): string[] {
  const dir = dirname(file);
  const name = basename(file);
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`)) continue;
    const m = /^\.(?:(\d+)\.tmp|import-(\d+)(?:-wal|-journal)?)$/.exec(entry.slice(name.length));
    if (!m) continue;
    const pid = Number(m[1] ?? m[2]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(join(dir, entry), { force: true });
    removed.push(join(dir, entry));
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OpenOptions {
  /** Make the file if it does not exist (mode 0600: the state holds every token). */
  create: boolean;
}

/** Rows in a SQLite file (see the module comment). */
export class SqliteRows implements RowStore {
  readonly db: Database;
  private seq: number;
  private readonly stmt: {
    read: BetterSqlite3.Statement<[string, string], string>;
    keys: BetterSqlite3.Statement<[string], string>;
    keep: BetterSqlite3.Statement<[number, string, string, string]>;
    move: BetterSqlite3.Statement<[number, string, string, string]>;
    insert: BetterSqlite3.Statement<[number, string, string, string]>;
    del: BetterSqlite3.Statement<[string, string]>;
    meta: BetterSqlite3.Statement<[string, string]>;
  };
  private readonly applyTx: (changes: RowChange[], meta: [string, string][]) => void;
  private readonly replaceTx: (rows: Iterable<StoredRow>, meta: [string, string][]) => void;
  /** Checkpoint once writes pause (refreshed by each), and at the latest (not refreshed). */
  private idle: NodeJS.Timeout | undefined;
  private due: NodeJS.Timeout | undefined;
  /** A log was beside the database when it was opened. */
  private readonly hadLog: boolean;
  /** This process marked the database in use (`markInUse`). */
  private marked = false;
  /**
   * The database was in use by a sandbox that did not stop, and its log is not beside it: it was
   * copied or moved without it, or the log was removed. Its state is that of `checkpointedAt`.
   */
  readonly withoutLog: (InUse & { checkpointedAt?: string }) | undefined;

  constructor(
    Database: DatabaseConstructor,
    readonly file: string,
    opts: OpenOptions,
  ) {
    // Before SQLite opens it (opening makes one).
    const hadLog = existsSync(`${file}-wal`);
    this.hadLog = hadLog;
    if (opts.create && !existsSync(file)) closeSync(openSync(file, constants.O_CREAT | constants.O_WRONLY | constants.O_EXCL, 0o600));
    const cut = truncation(file, hadLog);
    if (cut !== undefined) throw new DataFileError(`${file} is truncated: ${cut}; it was left untouched`, DAMAGED_HINT);
    const db = new Database(file, { fileMustExist: true, timeout: 0 });
    this.db = db;
    try {
      // Before the first access: the WAL index then lives in memory (no -shm file).
      db.pragma('locking_mode = EXCLUSIVE');
      try {
        // Taken now and kept: another process cannot open the database meanwhile.
        db.exec('BEGIN EXCLUSIVE; COMMIT');
      } catch (e) {
        if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new DataFileError(`${file} is in use by another process (another docsctl serve --data?)`);
        throw e;
      }
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
      if (tables.length > 0) {
        const format = tables.includes('meta') ? db.prepare('SELECT value FROM meta WHERE name = ?').pluck().get('format') : undefined;
        if (format === undefined && tables.includes('meta') && tables.includes('record')) {
          throw new DataFileError(`${file} is damaged: its meta table has lost the docsctl format mark; it was left untouched`, DAMAGED_HINT);
        }
        if (format !== FORMAT || !tables.includes('record')) throw new DataFileError(`${file} is a SQLite database, but not a docsctl sandbox's`);
      }
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('temp_store = MEMORY');
      if (tables.length === 0) {
        db.exec(`
          CREATE TABLE record (seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
          CREATE UNIQUE INDEX record_key ON record (tbl, key);
          CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        `);
        db.prepare('INSERT INTO meta (name, value) VALUES (?, ?), (?, ?)').run('format', FORMAT, 'formatVersion', FORMAT_VERSION);
      } else {
        const metaOf = (name: string) => db.prepare('SELECT value FROM meta WHERE name = ?').pluck().get(name) as string | undefined;
        const version = metaOf('formatVersion');
        if (version !== FORMAT_VERSION)
          throw new DataFileError(
            `${file} holds a sandbox database of format ${String(version)}, which this docsctl does not read (it reads ${FORMAT_VERSION})`,
          );
        const inUse = metaOf(IN_USE);
        if (inUse !== undefined && !hadLog) {
          const checkpointedAt = metaOf(CHECKPOINTED_AT);
          this.withoutLog = { ...(JSON.parse(inUse) as InUse), ...(checkpointedAt !== undefined ? { checkpointedAt } : {}) };
        }
      }
      this.seq = (db.prepare('SELECT max(seq) FROM record').pluck().get() as number | null) ?? 0;
    } catch (e) {
      this.closeDb();
      throw e;
    }
    this.stmt = {
      read: db.prepare('SELECT value FROM record WHERE tbl = ? AND key = ?').pluck() as BetterSqlite3.Statement<[string, string], string>,
      keys: db.prepare('SELECT key FROM record WHERE tbl = ? ORDER BY seq').pluck() as BetterSqlite3.Statement<[string], string>,
      // An update keeps its place; a row added at the end (or added again) takes a new seq.
      keep: db.prepare('INSERT INTO record (seq, tbl, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value'),
      move: db.prepare(
        'INSERT INTO record (seq, tbl, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value, seq = excluded.seq',
      ),
      insert: db.prepare('INSERT INTO record (seq, tbl, key, value) VALUES (?, ?, ?, ?)'),
      del: db.prepare('DELETE FROM record WHERE tbl = ? AND key = ?'),
      meta: db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    };
    this.applyTx = db.transaction((changes: RowChange[], meta: [string, string][]) => {
      for (const c of changes) {
        if (c.value === undefined) this.stmt.del.run(c.table, c.key);
        else (c.append ? this.stmt.move : this.stmt.keep).run(++this.seq, c.table, c.key, c.value);
      }
      for (const [name, value] of meta) this.stmt.meta.run(name, value);
    });
    this.replaceTx = db.transaction((rows: Iterable<StoredRow>, meta: [string, string][]) => {
      db.exec('DELETE FROM record');
      let seq = 0;
      for (const r of rows) this.stmt.insert.run(++seq, r.table, r.key, r.value);
      this.seq = seq;
      for (const [name, value] of meta) this.stmt.meta.run(name, value);
    });
  }

  /** Whether the database holds a state yet (a new file holds none). */
  get empty(): boolean {
    return this.db.prepare("SELECT count(*) FROM meta WHERE name = 'sandboxAdmin'").pluck().get() === 0;
  }

  read(table: string, key: string): string | undefined {
    return this.stmt.read.get(table, key);
  }

  keys(table: string): string[] {
    return this.stmt.keys.all(table);
  }

  loadAll(): { rows: Iterable<StoredRow>; meta: Map<string, string> } {
    const meta = new Map(this.db.prepare('SELECT name, value FROM meta').raw().all() as [string, string][]);
    const iterate = this.db.prepare('SELECT tbl, key, value FROM record ORDER BY seq').raw();
    function* rows(): Generator<StoredRow> {
      for (const [table, key, value] of iterate.iterate() as IterableIterator<[string, string, string]>) yield { table, key, value };
    }
    return { rows: rows(), meta };
  }

  apply(changes: RowChange[], meta: [string, string][]): void {
    this.transaction(() => this.applyTx(changes, meta));
  }

  replaceAll(rows: Iterable<StoredRow>, meta: [string, string][]): void {
    this.transaction(() => this.replaceTx(rows, meta));
  }

  /** Run a transaction; the sequence number goes back with it when it fails. */
  private transaction(run: () => void): void {
    const seq = this.seq;
    try {
      run();
    } catch (e) {
      this.seq = seq;
      throw e;
    }
    this.scheduleCheckpoint();
  }

  /**
   * Copy the log into the database once writes pause (LIMITS.storage.checkpointIdleMs), and at the
   * latest `checkpointEveryMs` after the first write since the last checkpoint, however busy: it
   * keeps the log small, reads short, and the database file alone close behind.
   */
  private scheduleCheckpoint(): void {
    const { checkpointIdleMs, checkpointEveryMs } = LIMITS.storage;
    if (this.idle) this.idle.refresh();
    else (this.idle = setTimeout(() => this.checkpoint(), checkpointIdleMs)).unref();
    if (!this.due) (this.due = setTimeout(() => this.checkpoint(), checkpointEveryMs)).unref();
  }

  /**
   * Fold the log into the database now (it is then empty), noting the time in the meta row
   * `checkpointedAt`; a failure is logged, and the log stays for the next one.
   */
  checkpoint(): void {
    this.cancelCheckpoint();
    if (!this.db.open) return;
    try {
      this.stmt.meta.run(CHECKPOINTED_AT, new Date().toISOString());
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (e) {
      console.error(`[sandbox] checkpoint of ${this.file} failed (the log stays, and is retried): ${(e as Error).message}`);
    }
  }

  private cancelCheckpoint(): void {
    clearTimeout(this.idle);
    clearTimeout(this.due);
    this.idle = this.due = undefined;
  }

  /**
   * Mark the database as in use by this process until `close` (meta row `inUse`), and checkpoint:
   * from now on the database file alone holds the state of the last checkpoint, and says so.
   */
  markInUse(): void {
    this.stmt.meta.run(IN_USE, JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies InUse));
    this.marked = true;
    this.checkpoint();
  }

  /** Unmark, checkpoint and close: the log is removed, the database alone remains. */
  close(): void {
    this.cancelCheckpoint();
    if (!this.db.open) return;
    if (this.marked) {
      try {
        this.db.prepare('DELETE FROM meta WHERE name = ?').run(IN_USE);
      } catch (e) {
        console.error(`[sandbox] could not mark ${this.file} as stopped (the next start will say it lost its log if the log is gone): ${(e as Error).message}`);
      }
    }
    this.closeDb();
  }

  /**
   * Close the connection. SQLite removes the log as it closes, but not from a database it found
   * damaged: an empty log this connection made is removed here, so a refused file is left as found.
   */
  private closeDb(): void {
    this.db.close();
    const log = `${this.file}-wal`;
    if (!this.hadLog && existsSync(log) && statSync(log).size === 0) rmSync(log, { force: true });
  }
}

/**
 * Replace a JSON state file by a database holding the same state, `write` filling it: built beside
 * it (`FILE.import-<pid>`), synced, then renamed over it; the JSON file is kept as `FILE.bak`
 * (mode 0600). A crash before the rename leaves the JSON file where it was (the next start imports
 * it again, and removes the unfinished database).
 */
export function convertJsonFile(Database: DatabaseConstructor, file: string, write: (rows: SqliteRows) => void): { backup: string } {
  const building = `${file}.import-${process.pid}`;
  rmSync(building, { force: true });
  rmSync(`${building}-wal`, { force: true });
  const rows = new SqliteRows(Database, building, { create: true });
  try {
    write(rows);
  } catch (e) {
    rows.close();
    rmSync(building, { force: true });
    throw e;
  }
  rows.close();
  const fd = openSync(building, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const backup = `${file}.bak`;
  copyFileSync(file, backup);
  chmodSync(backup, 0o600);
  renameSync(building, file);
  syncDir(dirname(file));
  return { backup };
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some systems cannot sync a directory: the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
