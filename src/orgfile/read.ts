/**
 * Reading the files an organization file brings in, within bounds: the file itself (named on the
 * command line, so any readable thing but a folder: a pipe from `<(…)` works) and the certificate
 * files it names (untrusted: regular files only, inside the org file's folder, never waited on).
 * Each read takes at most the bound plus one byte, so `/dev/zero` or a growing file cannot fill the
 * memory. Failures are `ReadRefused`, whose message is the rule (`not a regular file (a FIFO)…`).
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { bytesText } from './limits.js';

export class ReadRefused extends Error {
  override name = 'ReadRefused';
}

/** `a FIFO`, `a character device`… for messages. */
function typeOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function errno(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** At most `max` bytes from `fd`; `undefined` when it has more. */
function readAtMost(fd: number, max: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, max + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > max) return undefined;
  }
  return Buffer.concat(chunks, total);
}

/**
 * The text of an organization file, read only if it is at most `maxBytes` (`tooBig` says how to
 * raise the bound). A folder, or a file that cannot be opened, is refused.
 */
export function readOrgFileText(file: string, maxBytes: number, tooBig: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new ReadRefused(`cannot read it (${errno(e)})`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new ReadRefused('cannot read it (a folder)');
    const limit = `larger than ${bytesText(maxBytes)}, the limit of an organization file (${tooBig})`;
    if (st.isFile() && st.size > maxBytes) throw new ReadRefused(`${st.size} bytes: ${limit}`);
    let data: Buffer | undefined;
    try {
      data = readAtMost(fd, maxBytes);
    } catch (e) {
      throw new ReadRefused(`cannot read it (${errno(e)})`);
    }
    if (data === undefined) throw new ReadRefused(limit);
    return data.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * A certificate file named by an organization file, as text: `given` is relative to `baseDir` (the
 * org file's folder). Symbolic links are followed, but where the path leads must be inside
 * `baseDir` (after its own links are resolved); it must be a regular file of at most `maxBytes`.
 * Checked before it is opened, and again on the open file (opened without following a link and
 * without waiting, so that nothing swapped in between is read).
 */
export function readCertificateFile(baseDir: string, given: string, maxBytes: number): string {
  let real: string;
  let base: string;
  try {
    base = realpathSync(baseDir);
    real = realpathSync(resolve(baseDir, given));
  } catch (e) {
    throw new ReadRefused(`cannot read it (${errno(e)})`);
  }
  const rel = relative(base, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new ReadRefused(`it leads outside the organization file's folder (to ${real}): a certificate file must be in that folder or below it`);
  }
  const regular = (st: Stats) => {
    if (!st.isFile()) throw new ReadRefused(`${typeOf(st)}: a certificate file must be a regular file`);
    if (st.size > maxBytes) throw new ReadRefused(`${st.size} bytes: a certificate file may have at most ${bytesText(maxBytes)}`);
  };
  let before: Stats;
  try {
    before = statSync(real);
  } catch (e) {
    throw new ReadRefused(`cannot read it (${errno(e)})`);
  }
  regular(before);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    throw new ReadRefused(`cannot read it (${errno(e)})`);
  }
  try {
    const st = fstatSync(fd);
    regular(st);
    if (st.ino !== before.ino || st.dev !== before.dev) throw new ReadRefused('it changed while being read');
    let data: Buffer | undefined;
    try {
      data = readAtMost(fd, maxBytes);
    } catch (e) {
      throw new ReadRefused(`cannot read it (${errno(e)})`);
    }
    if (data === undefined) throw new ReadRefused(`a certificate file may have at most ${bytesText(maxBytes)}`);
    return data.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
