/** `--wait` after an OpenAPI put: polling, the spinner (TTY only), and the outcome of a failure. */
import { describe, expect, it } from 'vitest';
import { Context, type Io } from '../../src/cli/context.js';
import { CliError } from '../../src/cli/errors.js';
import { render } from '../../src/cli/output.js';
import type { OpenAPISpec } from '../../src/contract/openapi.js';
import { outcome, waitForProcessing, WaitTimeout } from '../../src/commands/openapi/wait.js';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, write: (s: string) => (chunks.push(s), true) } };
}

function context(opts: { stdoutTTY?: boolean; stderrTTY?: boolean } = {}) {
  const out = sink(opts.stdoutTTY ?? false);
  const err = sink(opts.stderrTTY ?? false);
  const io = { stdout: out.stream, stderr: err.stream, stdin: { isTTY: false }, env: {} } as unknown as Io;
  const ctx = new Context({ verbose: false, interactive: false, color: false }, io);
  return { ctx, out: out.chunks, err: err.chunks, print: (v: unknown, s?: object) => render(ctx, v, s ?? {}, {}) };
}

const spec = (over: Partial<OpenAPISpec> = {}): OpenAPISpec => ({
  object: 'openapi-spec',
  id: 'id1',
  slug: 'pets',
  createdAt: 't0',
  updatedAt: 't0',
  processingState: 'pending',
  visibility: 'private',
  lastProcessedErrorCount: 0,
  permissions: { view: true, edit: true },
  urls: { location: 'http://sandbox.test/v1/orgs/o/openapi/pets', app: 'http://sandbox.test/app' },
  ...over,
});

/** A poll that answers the given states in turn, counting its calls. */
function sequence(...states: Partial<OpenAPISpec>[]) {
  let i = 0;
  const poll = async () => spec(states[Math.min(i++, states.length - 1)]);
  return { poll, calls: () => i };
}

describe('waitForProcessing', () => {
  it('polls until the processing completes, writing nothing off a TTY', async () => {
    const { ctx, err } = context();
    const s = sequence({ processingState: 'progress' }, { processingState: 'progress' }, { processingState: 'complete', lastVersion: 'v1' });
    const done = await waitForProcessing(ctx, spec(), s.poll, { intervalMs: 5 });
    expect(done).toMatchObject({ processingState: 'complete', lastVersion: 'v1' });
    expect(s.calls()).toBe(3);
    expect(err).toEqual([]);
  });

  it('draws a spinner on a TTY stderr and clears its line at the end', async () => {
    const { ctx, err } = context({ stderrTTY: true });
    const s = sequence({ processingState: 'progress' }, { processingState: 'complete' });
    await waitForProcessing(ctx, spec(), s.poll, { intervalMs: 120 });
    expect(err[0]).toBe('\r\x1b[2K⠋ processing pets: pending…');
    expect(err.some((c) => c.includes('processing pets: progress…'))).toBe(true);
    expect(err.at(-1)).toBe('\r\x1b[2K');
  });

  it('does not poll an answer that is already complete', async () => {
    const { ctx } = context();
    const s = sequence({ processingState: 'complete' });
    await waitForProcessing(ctx, spec({ processingState: 'complete' }), s.poll);
    expect(s.calls()).toBe(0);
  });

  it('gives up after its time limit with the last answer, clearing the spinner', async () => {
    const { ctx, err } = context({ stderrTTY: true });
    const s = sequence({ processingState: 'progress' });
    const failed = waitForProcessing(ctx, spec(), s.poll, { intervalMs: 5, timeoutMs: 30 });
    await expect(failed).rejects.toThrow(/^gave up waiting after 0\.03 s: pets is still in progress$/);
    await expect(failed).rejects.toBeInstanceOf(WaitTimeout);
    await expect(failed).rejects.toMatchObject({ spec: { processingState: 'progress' } });
    expect(err.at(-1)).toBe('\r\x1b[2K');
  });

  it('clears the spinner when polling fails', async () => {
    const { ctx, err } = context({ stderrTTY: true });
    const failed = waitForProcessing(
      ctx,
      spec(),
      async () => {
        throw new Error('network down');
      },
      { intervalMs: 5 },
    );
    await expect(failed).rejects.toThrow('network down');
    expect(err.at(-1)).toBe('\r\x1b[2K');
  });
});

describe('outcome', () => {
  it('waits by default off a TTY and on one alike; --no-wait returns the answer at once', async () => {
    const answer = spec();
    const off = context();
    const s1 = sequence({ processingState: 'complete', lastVersion: 'v1' });
    expect((await outcome(off.ctx, {}, answer, s1.poll, off.print)).lastVersion).toBe('v1');
    expect(s1.calls()).toBe(1);
    const s0 = sequence({ processingState: 'complete' });
    expect(await outcome(off.ctx, { wait: false }, answer, s0.poll, off.print)).toBe(answer);
    expect(s0.calls()).toBe(0);

    const tty = context({ stdoutTTY: true });
    const s2 = sequence({ processingState: 'complete', lastVersion: 'v2' });
    expect((await outcome(tty.ctx, {}, answer, s2.poll, tty.print)).lastVersion).toBe('v2');
    const s3 = sequence({ processingState: 'complete' });
    expect(await outcome(tty.ctx, { wait: false }, answer, s3.poll, tty.print)).toBe(answer);
  });

  it('a wait that runs out (--wait-timeout) prints the spec as it stands, then exit 1 with what to do', async () => {
    const { ctx, out, print } = context();
    const s = sequence({ processingState: 'progress' });
    const err = await outcome(ctx, { waitTimeout: 0.02 }, spec(), s.poll, print).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({
      exitCode: 1,
      message: 'gave up waiting after 0.02 s: pets is still in progress (the service goes on processing it)',
      hint: 'see where it is with docsctl openapi get pets; wait longer with --wait-timeout SECONDS, or not at all with --no-wait',
    });
    expect(out.join('')).toContain('processingState\tprogress');
  });

  it('prints a failed processing, then fails with its errors and says the last version is kept', async () => {
    const { ctx, out, print } = context();
    const failed = sequence({
      processingState: 'complete',
      lastVersion: 'v1',
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: [
        { code: 'INVALID_JSON', message: 'line 1, column 2: bad' },
        { code: 'INVALID_INFO', message: "missing 'info'" },
      ],
    });
    const err = await outcome(ctx, { wait: true }, spec(), failed.poll, print).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({
      exitCode: 1,
      hint: 'the previous version v1 is kept',
      message: "processing pets failed: PARSE_ERROR\n  INVALID_JSON: line 1, column 2: bad\n  INVALID_INFO: missing 'info'",
    });
    expect(out.join('')).toContain('lastProcessErrorCode\tPARSE_ERROR\n');
  });
});
