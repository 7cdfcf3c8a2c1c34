/** `--url URL` or `--file PATH` (sent as text), and how to wait: shared by create and put. */
import type { FlagSpec } from '../../cli/spec.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { readFileOrStdin } from '../../cli/input.js';
import { specSlug } from '../../contract/openapi.js';
import { describeIssue } from '../../contract/op.js';

/** How long create and put wait for the processing by default, in seconds. */
export const DEFAULT_WAIT_S = 300;

/** The help's description of create and put: how they wait. */
export const WAIT_DESCRIPTION =
  'It waits until the service has processed the specification, the same way on a terminal (with a spinner) and in ' +
  `scripts, for at most ${DEFAULT_WAIT_S} seconds (--wait-timeout): a failed processing is printed, then exit 1; a wait ` +
  'that times out prints the specification as it stands and exits 1 (the processing goes on). --no-wait answers at ' +
  'once, with processingState pending.';

export const sourceFlags = {
  url: { description: 'URL the service fetches the specification from (an absolute URI; the sandbox fetches http and https)', value: 'url' },
  file: { description: 'local JSON or YAML file, sent as the specification’s text', value: 'path' },
  wait: { type: 'boolean', description: 'wait until processing ends, and fail (exit 1) if it failed: the default, on a terminal and in scripts alike' },
  noWait: { type: 'boolean', description: 'answer at once, with processingState pending' },
  waitTimeout: {
    type: 'number',
    description: `stop waiting after this many seconds (default ${DEFAULT_WAIT_S}): exit 1, the processing goes on`,
    value: 'seconds',
  },
} as const satisfies Record<string, FlagSpec>;

/** The `source` body field, and the flag it came from (for messages). */
export async function sourceOf(ctx: Context, flags: { url?: string; file?: string }): Promise<{ source: { url?: string; text?: string }; flag: string }> {
  if ((flags.url === undefined) === (flags.file === undefined)) {
    throw new UsageError('needs exactly one of --url or --file', 'docsctl openapi put SLUG --url https://example.com/openapi.yaml, or --file openapi.yaml');
  }
  if (flags.url !== undefined) return { source: { url: flags.url }, flag: '--url' };
  return { source: { text: await readFileOrStdin(ctx, flags.file!, '--file') }, flag: '--file' };
}

/**
 * A slug that is a path parameter (put): checked with the slug rule before sending, as put may
 * create the specification (an existing one has a slug that follows the rule too).
 */
export function checkSlug(slug: string): void {
  const r = specSlug.safeParse(slug);
  if (!r.success) throw new UsageError(`<slug>: ${describeIssue(r.error.issues[0])}`);
}

/** The wait flags that contradict each other, refused before anything is read or sent. */
export function waitFlags(flags: { wait?: boolean; waitTimeout?: number }): void {
  if (flags.waitTimeout === undefined) return;
  if (flags.wait === false) throw new UsageError('--no-wait and --wait-timeout cannot be used together');
  if (!(flags.waitTimeout > 0)) throw new UsageError('--wait-timeout: must be a number of seconds above 0');
}
