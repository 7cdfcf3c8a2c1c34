/**
 * After a create or put: poll the specification until its processing completes, with a spinner on
 * stderr when it is a terminal. A failed processing is shown, then reported as an error (exit 1).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommonFlags } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { render } from '../../cli/output.js';
import type { OpenAPISpec } from '../../contract/openapi.js';
import { errorLine, specFields } from './columns.js';

export interface WaitOptions {
  intervalMs?: number;
  /** Give up after this long (the service bounds its own fetches, so this is a safety net). */
  timeoutMs?: number;
}

/** Poll until `processingState` is `complete`; resolves to the last answer. */
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
      if (performance.now() - started > timeoutMs) {
        throw new CliError(`${spec.slug} is still ${current.processingState} after ${Math.round(timeoutMs / 1000)} s`, EXIT.FAILED, `check later with docsctl openapi get ${spec.slug}`);
      }
      await sleep(intervalMs);
      current = await poll();
      spin.update(`processing ${spec.slug}: ${current.processingState}…`);
    }
    return current;
  } finally {
    spin.stop();
  }
}

/**
 * What create and put print: the answer at once, or (with --wait, the default on a TTY) the
 * outcome of the processing; a recorded failure is printed, then exits 1 with the errors.
 */
export async function outcome(
  ctx: Context,
  flags: CommonFlags & { wait?: boolean },
  answer: OpenAPISpec,
  poll: () => Promise<OpenAPISpec>,
): Promise<OpenAPISpec> {
  if (!(flags.wait ?? ctx.tty)) return answer;
  const done = await waitForProcessing(ctx, answer, poll);
  if (done.lastProcessErrorCode === undefined) return done;
  await render(ctx, done, { fields: specFields }, flags);
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
