/**
 * The export folder on disk: files written whole or not at all (a temporary file in the same
 * folder, then a rename), their checksums, and the state an export keeps beside its files
 * (STATE_FILE: what it wrote, to write only what changed, to prune what it wrote and is gone, and
 * to resume an interrupted export without downloading again what it already has).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The state file of an export, at the folder's root. */
export const STATE_FILE = '.docsctl-export.json';
/** The suffix of a file being written (left by an interrupted export, removed by the next). */
export const PART_SUFFIX = '.docsctl-part';

export interface StateEntry {
  sha256: string;
  size: number;
  /** An asset's: what identified its bytes when downloaded (`oid:…` from git metadata, or its download URL and size). */
  source?: string;
}

export interface ExportState {
  docsctl: 1;
  space: string;
  changeRequest?: string;
  format: 'markdown' | 'json';
  /** False while an export is under way (or was interrupted). */
  complete: boolean;
  files: Record<string, StateEntry>;
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A path inside `root`, or an error: what the service names never leads out of the folder. */
export function inside(root: string, path: string): string {
  const full = resolve(root, path);
  const rel = relative(resolve(root), full);
  if (rel === '' || rel.startsWith('..') || rel.split(sep).includes('..') || resolve(rel) === rel)
    throw new Error(`refused to write outside the folder: ${path}`);
  return full;
}

export async function readState(root: string): Promise<ExportState | undefined> {
  let text: string;
  try {
    text = await readFile(join(root, STATE_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const state = JSON.parse(text) as ExportState;
    if (state?.docsctl !== 1 || typeof state.files !== 'object' || state.files === null) return undefined;
    return state;
  } catch {
    return undefined;
  }
}

export async function writeState(root: string, state: ExportState): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(state.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await writeAtomic(join(root, STATE_FILE), `${JSON.stringify({ ...state, files: sorted }, null, 2)}\n`);
}

/** The bytes of a file, or undefined when there is none. */
export async function readIfThere(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw e;
  }
}

/** A file's size and SHA-256, read as a stream (any size), or undefined when there is none. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number } | undefined> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return undefined;
    size = s.size;
  } catch {
    return undefined;
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), size };
}

function partName(path: string): string {
  return `${path}.${randomBytes(4).toString('hex')}${PART_SUFFIX}`;
}

/** Write `data` to `path` whole or not at all. */
export async function writeAtomic(path: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const part = partName(path);
  try {
    await writeFile(part, data);
    await rename(part, path);
  } catch (e) {
    await unlink(part).catch(() => {});
    throw e;
  }
}

export interface StreamingWriter {
  write(chunk: Buffer): Promise<void>;
  /** All written: the bytes' checksum and size (the file not yet in place). */
  finish(): Promise<{ sha256: string; size: number }>;
  /** Put the finished file in place. */
  place(): Promise<void>;
  /** Remove what was written. */
  abort(): Promise<void>;
}

/**
 * A file written as its bytes come (a download): `write` each chunk (awaiting the disk, so memory
 * stays flat), `finish`, then `place` (renamed into place) or `abort` (removed). Hashes what it writes.
 */
export async function streamingWriter(path: string | undefined): Promise<StreamingWriter> {
  const hash = createHash('sha256');
  let size = 0;
  if (path === undefined) {
    // Hashing only (`--check`): nothing written.
    return {
      async write(chunk) {
        hash.update(chunk);
        size += chunk.length;
      },
      async finish() {
        return { sha256: hash.digest('hex'), size };
      },
      async place() {},
      async abort() {},
    };
  }
  await mkdir(dirname(path), { recursive: true });
  const part = partName(path);
  const out = createWriteStream(part);
  await new Promise<void>((done, fail) => {
    out.once('open', () => done());
    out.once('error', fail);
  });
  let failure: Error | undefined;
  out.on('error', (e) => {
    failure = e;
  });
  return {
    async write(chunk) {
      if (failure) throw failure;
      hash.update(chunk);
      size += chunk.length;
      if (!out.write(chunk)) {
        await new Promise<void>((done, fail) => {
          out.once('drain', () => done());
          out.once('error', fail);
        });
      }
    },
    async finish() {
      await new Promise<void>((done, fail) => {
        out.end((e?: Error | null) => (e ? fail(e) : done()));
      });
      if (failure) throw failure;
      return { sha256: hash.digest('hex'), size };
    },
    async place() {
      await rename(part, path);
    },
    async abort() {
      out.destroy();
      await unlink(part).catch(() => {});
    },
  };
}

/** Remove a file, then its folders left empty up to `root`. */
export async function removeFile(root: string, path: string): Promise<void> {
  await rm(inside(root, path), { force: true });
  let dir = dirname(inside(root, path));
  while (relative(resolve(root), dir) !== '' && !relative(resolve(root), dir).startsWith('..')) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

/**
 * The files of `root` that are content but not in `known` (paths from the root, with `/`, sorted):
 * what the folder holds that the export did not write. Not content, never listed: what is in a
 * dot-folder or is a dot-file (`.git/`, `.github/`, `.gitignore`…) but `.gitbook/` (everything in it
 * is) and `.gitbook.yaml`; the state file; files being written (`*.docsctl-part`); a subfolder
 * holding an export of its own (its state file: another space's, as in a backup). `known` is
 * compared without case: on a file system that ignores it, `readme.md` is `README.md`.
 */
export async function extraFiles(root: string, known: Iterable<string>): Promise<string[]> {
  const written = new Set([...known].map((k) => k.toLowerCase()));
  const out: string[] = [];
  const walk = async (dir: string, rel: string, inGitbook: boolean): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw e;
    }
    if (rel !== '' && entries.some((e) => e.name === STATE_FILE)) return;
    for (const e of entries) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      const gitbook = inGitbook || (rel === '' && e.name === '.gitbook' && e.isDirectory());
      if (e.name.startsWith('.') && !gitbook && !(rel === '' && e.name === '.gitbook.yaml')) continue;
      if (e.name.endsWith(PART_SUFFIX)) continue;
      if (e.isDirectory()) await walk(join(dir, e.name), path, gitbook);
      else if (!written.has(path.toLowerCase())) out.push(path);
    }
  };
  await walk(root, '', false);
  return out.sort();
}

/** Remove what an interrupted export left being written (`*.docsctl-part`). */
export async function removeParts(root: string): Promise<void> {
  let entries: string[];
  try {
    entries = (await readdir(root, { recursive: true })) as string[];
  } catch {
    return;
  }
  for (const e of entries) if (e.endsWith(PART_SUFFIX)) await unlink(join(root, e)).catch(() => {});
}
