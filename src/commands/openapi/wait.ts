/**
 * After a create or put: poll the specification until its processing completes, with a spinner on
 * stderr when it is a terminal. A failed processing is shown, then reported as an error (exit 1).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Print } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import type { OpenAPISpec } from '../../contract/openapi.js';
import { errorLine, specFields } from './columns.js';
import { DEFAULT_WAIT_S } from './source.js';

export interface WaitOptions {
  intervalMs?: number;
  /** Give up after this long (the service bounds its own fetches, so this is a safety net). */
  timeoutMs?: number;
}

/** The wait ran out of time: the specification as it last stood. */
export class WaitTimeout extends Error {
  constructor(
    readonly spec: OpenAPISpec,
    readonly timeoutMs: number,
  ) {
    super(`gave up waiting after ${timeoutMs / 1000} s: ${spec.slug} is still ${spec.processingState === 'progress' ? 'in progress' : spec.processingState}`);
  }
}

/** Poll until `processingState` is `complete`; resolves to the last answer, or throws WaitTimeout. */
export async function waitForProcessing(
  ctx: Context,
  spec: OpenAPISpec,
  poll: () => Promise<OpenAPISpec>,
  { intervalMs = 250, timeoutMs = 10 * 60_000 }: WaitOptions = {},
): Promise<OpenAPISpec> {
  let current = spec;
  const spin = ctx.spinner(`processing ${spec.slug}: ${current.processingState}…`);
  const started = performance.now();
  try {
    while (current.processingState !== 'complete') {
      const left = timeoutMs - (performance.now() - started);
      if (left <= 0) throw new WaitTimeout(current, timeoutMs);
      await sleep(Math.min(intervalMs, left));
      current = await poll();
      spin.update(`processing ${spec.slug}: ${current.processingState}…`);
    }
    return current;
  } finally {
    spin.stop();
  }
}

/**
 * What create and put print: the outcome of the processing (they wait, on a terminal and in scripts
 * alike, for at most --wait-timeout seconds), or with --no-wait the answer at once. A recorded
 * failure is printed, then exits 1 with the errors; so is a wait that runs out of time.
 */
export async function outcome(
  ctx: Context,
  flags: { wait?: boolean; waitTimeout?: number },
  answer: OpenAPISpec,
  poll: () => Promise<OpenAPISpec>,
  print: Print,
): Promise<OpenAPISpec> {
  if (flags.wait === false) return answer;
  let done: OpenAPISpec;
  try {
    done = await waitForProcessing(ctx, answer, poll, { timeoutMs: (flags.waitTimeout ?? DEFAULT_WAIT_S) * 1000 });
  } catch (err) {
    if (!(err instanceof WaitTimeout)) throw err;
    await print(err.spec, { fields: specFields });
    throw new CliError(
      `${err.message} (the service goes on processing it)`,
      EXIT.FAILED,
      `see where it is with docsctl openapi get ${err.spec.slug}; wait longer with --wait-timeout SECONDS, or not at all with --no-wait`,
    );
  }
  if (done.lastProcessErrorCode === undefined) return done;
  await print(done, { fields: specFields });
  const listed = done.lastProcessedErrors ?? [];
  const errors = listed.map((e) => `  ${errorLine(e)}`);
  const more = done.lastProcessedErrorCount - listed.length;
  if (more > 0) errors.push(`  … and ${more} more`);
  throw new CliError(
    [`processing ${done.slug} failed: ${done.lastProcessErrorCode}`, ...errors].join('\n'),
    EXIT.FAILED,
    done.lastVersion ? `the previous version ${done.lastVersion} is kept` : undefined,
  );
}
