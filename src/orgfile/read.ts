/**
 * Reading the files an organization file brings in, within bounds (the primitives: src/cli/read.ts):
 * the file itself (named on the command line, so any readable thing but a folder: a pipe from
 * `<(…)` works) and the certificate files it names (untrusted: regular files only, inside the org
 * file's folder, never waited on). Failures are `ReadRefused`, whose message is the rule
 * (`a FIFO: a certificate file must be a regular file`…).
 */
import { closeSync, constants, fstatSync, openSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { bytesText, cannotRead, readAtMost, readBounded, ReadRefused, typeOf } from '../cli/read.js';
import { plural } from '../cli/text.js';

export { ReadRefused };

/**
 * The text of an organization file, read only if it is at most `maxBytes` (`tooBig` says how to
 * raise the bound). A folder, or a file that cannot be opened, is refused.
 */
export function readOrgFileText(
  file: string,
  maxBytes: number,
  tooBig: string,
  limit = `larger than ${bytesText(maxBytes)}, the limit of an organization file`,
): string {
  return readBounded(file, maxBytes, `${limit} (${tooBig})`).toString('utf8');
}

/**
 * A certificate file named by an organization file, as text: `given` is relative to `baseDir` (the
 * org file's folder). Symbolic links are followed, but where the path leads must be inside
 * `baseDir` (after its own links are resolved); it must be a regular file of at most `maxBytes`.
 * Checked before it is opened, and again on the open file (opened without following a link and
 * without waiting, so that nothing swapped in between is read).
 */
export function readCertificateFile(baseDir: string, given: string, maxBytes: number, what = 'a certificate file'): string {
  let real: string;
  let base: string;
  try {
    base = realpathSync(baseDir);
    real = realpathSync(resolve(baseDir, given));
  } catch (e) {
    throw cannotRead(e);
  }
  const rel = relative(base, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new ReadRefused(`it leads outside the organization file's folder (to ${real}): ${what} must be in that folder or below it`);
  }
  const regular = (st: Stats) => {
    if (!st.isFile()) throw new ReadRefused(`${typeOf(st)}: ${what} must be a regular file`);
    if (st.size > maxBytes) throw new ReadRefused(`${plural(st.size, 'byte')}: ${what} may have at most ${bytesText(maxBytes)}`);
  };
  let before: Stats;
  try {
    before = statSync(real);
  } catch (e) {
    throw cannotRead(e);
  }
  regular(before);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (e) {
    throw cannotRead(e);
  }
  try {
    const st = fstatSync(fd);
    regular(st);
    if (st.ino !== before.ino || st.dev !== before.dev) throw new ReadRefused('it changed while being read');
    const data = readAtMost(fd, maxBytes, st.size);
    if (data === undefined) throw new ReadRefused(`${what} may have at most ${bytesText(maxBytes)}`);
    return data.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
