/**
 * `serve --data FILE`: the state in a SQLite database (sqlite.ts), changes found and committed by the
 * journal (journal.ts). Loaded by `serve --data` only (serve.ts imports it on demand).
 */
import { readFileSync } from 'node:fs';
import type { Store } from '../store.js';
import { Journal } from './journal.js';
import { convertJsonFile, DAMAGED_HINT, DataFileError, dataFileKind, loadSqlite, removeLeftovers, SqliteRows } from './sqlite.js';

export { DataFileError } from './sqlite.js';

export interface Persistence {
  journal: Journal;
  rows: SqliteRows;
  /** What the file was: a database already, a new one (seeded), or a JSON state imported into one. */
  opened: 'database' | 'new' | 'imported';
  close(): void;
}

/**
 * Open (or make) the database at `file` and load the state from it into `store`, which keeps it
 * saved from then on. A missing (or empty) file is made and filled by `start` (the seed); a JSON
 * state file (written by docsctl before the database) is imported once, the file kept as
 * `FILE.bak`. Throws DataFileError, leaving the file untouched, when it is neither, or a database
 * that cannot be read (damaged, truncated, a record that does not decode), and
 * SqliteUnavailableError when better-sqlite3 cannot be loaded. `notice` is told what a user should
 * know: a file imported, a leftover removed, a database that lost its log (its state is older).
 */
export async function openPersistence(store: Store, file: string, start: () => void, notice: (message: string) => void): Promise<Persistence> {
  const Database = await loadSqlite();
  for (const path of removeLeftovers(file)) notice(`removed ${path}, left by an earlier run`);
  const kind = dataFileKind(file);
  if (kind === 'other')
    throw new DataFileError(`${file} is not a docsctl sandbox state file (neither its SQLite database nor a JSON state); it was left untouched`);
  if (kind === 'empty') notice(`${file} was empty: a new sandbox state is made in it`);
  let opened: Persistence['opened'] = kind === 'absent' || kind === 'empty' ? 'new' : 'database';
  if (kind === 'json') {
    try {
      store.importState(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new DataFileError(`${file} is not a docsctl sandbox state file (${(e as Error).message}); it was left untouched`);
    }
    const { backup } = convertJsonFile(Database, file, (rows) => {
      const journal = new Journal(rows, store);
      journal.replaced(store.data);
      journal.commit();
    });
    notice(
      `${file} held a JSON state: it is now a SQLite database holding the same state; the JSON file is kept as ${backup} (it holds every token: remove it once you no longer need it)`,
    );
    opened = 'imported';
  }
  let rows: SqliteRows;
  try {
    rows = new SqliteRows(Database, file, { create: true });
  } catch (e) {
    throw unreadable(file, e);
  }
  try {
    const journal = new Journal(rows, store);
    if (rows.empty) {
      start();
      store.attach(journal);
      journal.replaced(store.data);
      journal.commit();
    } else {
      try {
        store.attach(journal, journal.load());
      } catch (e) {
        throw unreadable(file, e);
      }
    }
    if (rows.withoutLog) notice(lostLog(file, rows.withoutLog));
    try {
      rows.markInUse();
    } catch (e) {
      throw unreadable(file, e);
    }
    store.onBackgroundChange(() => journal.commitQuietly());
    return { journal, rows, opened, close: () => rows.close() };
  } catch (e) {
    rows.close();
    throw e;
  }
}

/** A database that cannot be read, as a DataFileError naming the file and what is wrong (kept when it is one already). */
function unreadable(file: string, e: unknown): Error {
  if (e instanceof DataFileError) return e;
  const err = e as { code?: unknown; message?: string };
  const message = err.message ?? String(e);
  const code = typeof err.code === 'string' ? err.code : undefined;
  let what: string;
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') what = `the database is damaged or truncated (SQLite: ${message})`;
  else if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM' || code === 'SQLITE_READONLY' || code === 'SQLITE_AUTH')
    what = `it cannot be opened for reading and writing (SQLite ${code}: ${message})`;
  else if (code?.startsWith('SQLITE_')) what = `SQLite cannot read it (${code}: ${message})`;
  else what = `it is damaged (${message})`;
  return new DataFileError(`${file} cannot be loaded: ${what}; it was left untouched`, DAMAGED_HINT);
}

/** What to say of a database whose sandbox did not stop and whose log is not beside it. */
function lostLog(file: string, was: NonNullable<SqliteRows['withoutLog']>): string {
  const at = was.checkpointedAt ? `its last checkpoint, ${was.checkpointedAt}` : 'its last checkpoint';
  return (
    `${file} was in use by a sandbox (process ${was.pid}, since ${was.since}) and its log ${file}-wal is not here: ` +
    `it was copied or moved while that sandbox ran, or the log was removed. It holds the state as of ${at}; ` +
    'writes made after that are not in it. To copy a running sandbox whole, export its state (docs/reliability.md, Backups)'
  );
}
