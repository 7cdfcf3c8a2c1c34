/** Input that commands read: a file named by a flag, or stdin for `-`; text inline or from a file. */
import { readFile } from 'node:fs/promises';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/**
 * The text of `file`, or of stdin when it is `-`. A file that cannot be read is a usage error
 * naming the flag it came from (`--input: cannot read body.json: ENOENT`), or the file alone when
 * it is an argument (`schema.json: cannot read it (ENOENT)`).
 */
export async function readFileOrStdin(ctx: Context, file: string, flag?: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new UsageError(flag ? `${flag}: cannot read ${file}: ${why}` : `${file}: cannot read it (${why})`);
  }
}

/**
 * Text given inline (`--body TEXT`) or read from a file or stdin (`--body-file FILE|-`): one of the two flags (declared to conflict), or neither when `required` is false. `names` are the flags as
 * typed, for messages: `['--body', '--body-file']`.
 */
export async function textInput(
  ctx: Context,
  inline: string | undefined,
  file: string | undefined,
  names: [string, string],
  required = true,
): Promise<string | undefined> {
  if (inline !== undefined) return inline;
  if (file === undefined) {
    if (required) throw new UsageError(`missing ${names[0]}`, `pass ${names[0]} TEXT, or ${names[1]} FILE (- for stdin)`);
    return undefined;
  }
  if (file === '-' && ctx.io.stdin.isTTY) throw new UsageError(`${names[1]} -: stdin is a terminal`, `pipe the text: echo "…" | docsctl … ${names[1]} -`);
  return readFileOrStdin(ctx, file, names[1]);
}
