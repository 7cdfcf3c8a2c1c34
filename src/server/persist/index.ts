/**
 * `serve --data FILE`: the state in a SQLite database (sqlite.ts), changes found and committed by the
 * journal (journal.ts). Loaded by `serve --data` only (serve.ts imports it on demand).
 */
import { readFileSync } from 'node:fs';
import type { Store } from '../store.js';
import { Journal } from './journal.js';
import { convertJsonFile, DataFileError, dataFileKind, loadSqlite, removeLeftovers, SqliteRows } from './sqlite.js';

export { DataFileError, SqliteUnavailableError, SQLITE_HINT } from './sqlite.js';
export { PersistError } from './journal.js';

export interface Persistence {
  journal: Journal;
  rows: SqliteRows;
  /** What the file was: a database already, a new one (seeded), or a JSON state imported into one. */
  opened: 'database' | 'new' | 'imported';
  close(): void;
}

/**
 * Open (or make) the database at `file` and load the state from it into `store`, which keeps it
 * saved from then on. A missing file is made and filled by `start` (the seed); a JSON state file
 * (written by docsctl before the database) is imported once, the file kept as `FILE.bak`. Throws
 * DataFileError, leaving the file untouched, when it is neither, and SqliteUnavailableError when
 * better-sqlite3 cannot be loaded.
 */
export async function openPersistence(store: Store, file: string, start: () => void, notice: (message: string) => void): Promise<Persistence> {
  const Database = await loadSqlite();
  for (const path of removeLeftovers(file)) notice(`removed ${path}, left by an earlier run`);
  const kind = dataFileKind(file);
  if (kind === 'other') throw new DataFileError(`${file} is not a docsctl sandbox state file (neither its SQLite database nor a JSON state); it was left untouched`);
  let opened: Persistence['opened'] = kind === 'absent' ? 'new' : 'database';
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
    notice(`${file} held a JSON state: it is now a SQLite database holding the same state; the JSON file is kept as ${backup} (it holds every token: remove it once you no longer need it)`);
    opened = 'imported';
  }
  const rows = new SqliteRows(Database, file, { create: true });
  try {
    const journal = new Journal(rows, store);
    if (rows.empty) {
      start();
      store.attach(journal);
      journal.replaced(store.data);
      journal.commit();
    } else {
      store.attach(journal, journal.load());
    }
    store.onBackgroundChange(() => journal.commitQuietly());
    return { journal, rows, opened, close: () => rows.close() };
  } catch (e) {
    rows.close();
    throw e;
  }
}
