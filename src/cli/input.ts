/** Input that commands read: a file named by a flag, or stdin for `-`; text inline or from a file. */
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { INPUT_VARIABLES } from './limits.js';
import { bytesText, readBounded, ReadRefused, readStreamAtMost } from './read.js';

/** What each bound is the most of, for messages. */
const BOUND_OF = { inputBytes: 'an input file', seedBytes: 'a seed' } as const;

/** The rule a read past the bound breaks: `larger than 64 MiB, the most docsctl reads of an input file (… raises it)`. */
function limitRule(maxBytes: number, of: keyof typeof BOUND_OF): string {
  return `larger than ${bytesText(maxBytes)}, the most docsctl reads of ${BOUND_OF[of]} (${INPUT_VARIABLES[of]} raises it)`;
}

/**
 * The text of `file`, or of stdin when it is `-`, within DOCSCTL_MAX_INPUT_BYTES (a file larger is
 * refused by its size before it is read; `/dev/zero`, a pipe or stdin are read up to the bound).
 * A file that cannot be read is a usage error naming the flag it came from, the file and the rule
 * (`--input: body.json: cannot read it (ENOENT)`), or the file alone when it is an argument.
 */
export async function readFileOrStdin(ctx: Context, file: string, flag?: string): Promise<string> {
  if (file !== '-') return readFileText(ctx, file, flag);
  const maxBytes = ctx.maxBytes('inputBytes');
  const data = await readStreamAtMost(ctx.io.stdin, maxBytes);
  if (data === undefined) throw new UsageError(`${flag ? `${flag}: ` : ''}stdin: ${limitRule(maxBytes, 'inputBytes')}`);
  return data.toString('utf8');
}

/**
 * The text of a file named on the command line (a FIFO is waited on, as `cat` does), within the
 * bound `of` (DOCSCTL_MAX_INPUT_BYTES, or DOCSCTL_MAX_SEED_BYTES for `serve --seed`); else a usage
 * error naming the flag, the file and the rule.
 */
export function readFileText(ctx: Context, file: string, flag?: string, of: keyof typeof BOUND_OF = 'inputBytes'): string {
  const maxBytes = ctx.maxBytes(of);
  try {
    return readBounded(file, maxBytes, limitRule(maxBytes, of)).toString('utf8');
  } catch (e) {
    if (e instanceof ReadRefused) throw new UsageError(`${flag ? `${flag}: ` : ''}${file}: ${e.message}`);
    throw e;
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
