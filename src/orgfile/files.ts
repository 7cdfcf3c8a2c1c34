/**
 * The files `-f` names (repeatable): a file, or a folder whose `*.yaml`, `*.yml` and `*.json` files
 * (not `*.schema.json`, a JSON Schema kept beside them; not in sub-folders) are taken in name order.
 * Each file, and all of them together, at most the organization file's bound (DOCSCTL_ORG_FILE_MAX_BYTES):
 * an organization split in files is no larger than in one. A folder gives at most
 * ORG_FILE_LIMITS.folderFiles files. Failures are ReadRefused, named by the caller.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { bytesText, cannotRead, ReadRefused } from '../cli/read.js';
import { plural } from '../cli/text.js';
import { ORG_FILE_LIMITS } from './limits.js';
import { readOrgFileText } from './read.js';

export interface OrgFileText {
  /** As named: `org.yaml`, `teams/a.yaml`. */
  source: string;
  text: string;
  /** The folder its certificate files are in (or below). */
  baseDir: string;
}

/** The extensions taken from a folder. */
const TAKEN = /\.(ya?ml|json)$/i;
/** JSON Schemas kept beside the files (`docsctl orgs schema > org.schema.json`). */
const SKIPPED = /\.schema\.json$/i;

/** The files of a folder that are organization files, in name order (code-point order: the same everywhere). */
function folderFiles(folder: string, maxFiles: number = ORG_FILE_LIMITS.folderFiles): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (e) {
    throw cannotRead(e);
  }
  const files = names
    .filter((n) => TAKEN.test(n) && !SKIPPED.test(n))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((n) => join(folder, n))
    .filter((p) => {
      try {
        return !statSync(p).isDirectory();
      } catch {
        return true; // a broken link: its read says so
      }
    });
  if (files.length === 0) throw new ReadRefused('a folder without organization files (*.yaml, *.yml, *.json)');
  if (files.length > maxFiles) throw new ReadRefused(`a folder of ${plural(files.length, 'organization file')}: at most ${maxFiles} are taken from a folder`);
  return files;
}

/** Whether `path` is a folder (anything else, a pipe included, is read as a file). */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Read the files given (folders expanded), each within `maxBytes` and all of them within
 * `maxBytes` together. `onRefused(path, e)` is told each file that cannot be read (the others are
 * still read); a name given twice (directly or through a folder) is read once.
 */
export function readOrgFiles(given: string[], maxBytes: number, raise: string, onRefused: (path: string, e: ReadRefused) => void): OrgFileText[] {
  const out: OrgFileText[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const g of given) {
    let paths: string[];
    if (isFolder(g)) {
      try {
        paths = folderFiles(g);
      } catch (e) {
        if (!(e instanceof ReadRefused)) throw e;
        onRefused(g, e);
        continue;
      }
    } else paths = [g];
    for (const path of paths) {
      const abs = resolve(path);
      if (seen.has(abs)) continue;
      seen.add(abs);
      const left = maxBytes - total;
      try {
        const text =
          left < maxBytes
            ? readOrgFileText(
                path,
                left,
                raise,
                `larger than the ${bytesText(left)} left of ${bytesText(maxBytes)}, the limit of an organization's files together`,
              )
            : readOrgFileText(path, maxBytes, raise);
        total += Buffer.byteLength(text);
        out.push({ source: path, text, baseDir: dirname(abs) });
      } catch (e) {
        if (!(e instanceof ReadRefused)) throw e;
        onRefused(path, e);
      }
    }
  }
  return out;
}
