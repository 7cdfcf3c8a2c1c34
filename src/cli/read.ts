/**
 * Reading what a command is given (a file named by a flag, stdin, an organization file, a seed)
 * within a bound, so that `/dev/zero`, a file that keeps growing or an endless pipe cannot fill the
 * memory: a regular file larger than the bound is refused by its size before it is read; anything
 * else (a pipe from `<(…)`, a device) is read up to the bound plus one byte, then refused.
 * Failures are `ReadRefused`, whose message is the rule (`cannot read it (ENOENT)`, `larger than
 * 64 MiB, …`), for the caller to prefix with the flag and the file.
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { plural } from './text.js';

export class ReadRefused extends Error {
  override name = 'ReadRefused';
}

/** `4 MiB`, `10000 bytes`: a bound, for messages. */
export function bytesText(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return plural(n, 'byte');
}

/** `a FIFO`, `a character device`… for messages. */
export function typeOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** `cannot read it (ENOENT)`: the refusal for an error of the file system. */
export function cannotRead(e: unknown): ReadRefused {
  return new ReadRefused(`cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
}

/**
 * At most `max` bytes from `fd`; `undefined` when it has more. `sizeHint` (a regular file's size)
 * lets a file be read in one piece.
 */
export function readAtMost(fd: number, max: number, sizeHint = 0): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(64 * 1024, sizeHint + 1 - total), max + 1 - total));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      throw cannotRead(e);
    }
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > max) return undefined;
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * The bytes of a file named on the command line: anything readable but a folder (a FIFO is waited
 * on, as `cat` does, then read within the bound), at most `maxBytes`. `limit` is the rule a larger
 * one breaks: `larger than 64 MiB, the most docsctl reads of an input file (… raises it)`.
 */
export function readBounded(file: string, maxBytes: number, limit: string): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw cannotRead(e);
  }
  try {
    let st: Stats;
    try {
      st = fstatSync(fd);
    } catch (e) {
      throw cannotRead(e);
    }
    if (st.isDirectory()) throw new ReadRefused('cannot read it (a folder)');
    if (st.isFile() && st.size > maxBytes) throw new ReadRefused(`${plural(st.size, 'byte')}: ${limit}`);
    const data = readAtMost(fd, maxBytes, st.isFile() ? st.size : 0);
    if (data === undefined) throw new ReadRefused(limit);
    return data;
  } finally {
    closeSync(fd);
  }
}

/** At most `maxBytes` of a stream (stdin); `undefined` when it has more (then it is not read further). */
export async function readStreamAtMost(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of stream) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    chunks.push(chunk);
    total += chunk.length;
    // Leaving the loop destroys the stream: nothing more is read.
    if (total > maxBytes) return undefined;
  }
  return Buffer.concat(chunks, total);
}
