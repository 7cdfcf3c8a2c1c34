/**
 * The memory bound of `--jq` on jq's output (src/cli/jq.ts, src/cli/jq-worker.cjs), with a bound
 * smaller than the CLI accepts (DOCSCTL_JQ_MAX_MEMORY starts at 32 MiB, whose output takes long to
 * produce): jq's output may not pass it, and stops there with the bound named. The other bounds are
 * driven through the CLI in test/e2e/hostile-output.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from '../../src/cli/context.js';
import { compileJq } from '../../src/cli/jq.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of closers.splice(0)) await f();
});

/** What compileJq reads of a context: its bounds, whether stdout is a terminal, where to register the thread's end. */
function context(maxMemoryMib: number): Context {
  return { tty: false, jqBounds: () => ({ timeoutSeconds: 60, maxMemoryMib }), onClose: (f: () => Promise<void>) => closers.push(f) } as unknown as Context;
}

describe('--jq output bound', () => {
  it('output past the bound stops jq: exit 1 naming the bound; under it, the output whole', async () => {
    // 100 kB strings: jq's heap stays as it starts (16 MiB, not grown), its output grows.
    const jq = await compileJq(context(4), '("x" * 100000) as $s | range(.n) | $s');
    expect(await jq.run({ n: 30 })).toBe(`${'x'.repeat(100_000)}\n`.repeat(30));
    const err = await jq.run({ n: 100 }).then(
      () => undefined,
      (e: Error & { exitCode?: number; hint?: string }) => e,
    );
    expect(err?.message).toBe("--jq: jq's output outgrew its memory bound (jq may use 4 MiB: DOCSCTL_JQ_MAX_MEMORY)");
    expect(err?.exitCode).toBe(1);
    expect(err?.hint).toContain('DOCSCTL_JQ_MAX_MEMORY=8');
    // The thread is stopped: nothing more runs on it.
    await expect(jq.run({ n: 1 })).rejects.toThrow(/outgrew/);
  });
});

describe('--jq thread kept for the next command of the process', () => {
  it('a sound thread serves the next command with its own expression; another bound or a failed run gets a new one', async () => {
    const first = await compileJq(context(64), '.a');
    expect(await first.run({ a: 'one', b: 'two' })).toBe('one\n');
    for (const f of closers.splice(0)) await f();
    const second = await compileJq(context(64), '.b');
    expect(second).toBe(first);
    expect(await second.run({ a: 'one', b: 'two' })).toBe('two\n');
    for (const f of closers.splice(0)) await f();
    // An expression that does not compile ends the thread: the next command gets a new one.
    await expect(compileJq(context(64), '.[')).rejects.toThrow(/--jq:/);
    for (const f of closers.splice(0)) await f();
    const third = await compileJq(context(64), '.a');
    expect(third).not.toBe(first);
    for (const f of closers.splice(0)) await f();
    // Another memory bound: a thread of its own.
    const fourth = await compileJq(context(32), '.a');
    expect(fourth).not.toBe(third);
    expect(await fourth.run({ a: 1 })).toBe('1\n');
  });
});
