/** Text given inline (`--body TEXT`) or read from a file or stdin (`--body-file FILE|-`). */
import { readFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';

/**
 * Exactly one of the two flags, or neither when `required` is false. `names` are the flags as
 * typed, for messages: `['--body', '--body-file']`.
 */
export async function textInput(
  ctx: Context,
  inline: string | undefined,
  file: string | undefined,
  names: [string, string],
  required = true,
): Promise<string | undefined> {
  if (inline !== undefined && file !== undefined) throw new UsageError(`${names[0]} and ${names[1]} cannot be used together`);
  if (inline !== undefined) return inline;
  if (file === undefined) {
    if (required) throw new UsageError(`missing ${names[0]}`, `pass ${names[0]} TEXT, or ${names[1]} FILE (- for stdin)`);
    return undefined;
  }
  if (file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      throw new UsageError(`${names[1]}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  if (ctx.io.stdin.isTTY) throw new UsageError(`${names[1]} -: stdin is a terminal`, `pipe the text: echo "…" | docsctl … ${names[1]} -`);
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
