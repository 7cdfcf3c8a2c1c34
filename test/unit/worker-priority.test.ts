/**
 * The sandbox's worker threads run below the thread that answers requests, and a task's deadline
 * counts the CPU time its thread spent on it, not the time it waited (src/server/worker/pool.ts).
 * Waiting is made here without using CPU: the task (an import) awaits a name lookup that this
 * thread answers late.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/server/limits.js';
import { CpuWorker, TaskStopped, threadCpuMs } from '../../src/server/worker/pool.js';

const linux = process.platform === 'linux';
const saved = { ...LIMITS.loop };
afterEach(() => Object.assign(LIMITS.loop, saved));

/** An import whose only name lookup this thread answers (with "not found") after `ms`. */
function importWaitingFor(worker: CpuWorker, ms: number, timeoutMs: number) {
  const lookup = () => new Promise((_, reject) => setTimeout(() => reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })), ms));
  return worker.run(
    'importSite',
    {
      url: 'http://docs.example.test/',
      maxPages: 1,
      maxFiles: 0,
      fetch: { timeoutMs: 60_000, maxBytes: 1024, allowHosts: ['docs.example.test'] },
      budget: { fetches: 1, bytes: 1024, fetchesSpent: 'fetches spent', bytesSpent: 'bytes spent' },
      resolveInParent: true,
    },
    { timeoutMs, calls: { lookup } },
  );
}

/** The nice value of every thread of this process. */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.skipIf(!linux)('the sandbox worker thread', () => {
  it('runs at a lower priority than the thread answering requests', async () => {
    const mine = Number(readFileSync('/proc/thread-self/stat', 'latin1').split(') ')[1].split(' ')[16]);
    const worker = new CpuWorker();
    try {
      await importWaitingFor(worker, 0, 5_000).catch(() => undefined);
      expect(LIMITS.loop.workerNice).toBeGreaterThan(0);
      expect(niceValues().filter((n) => n > mine)).toContain(Math.min(19, mine + LIMITS.loop.workerNice));
    } finally {
      worker.close();
    }
  });

  it("counts a task's CPU time against its deadline, not the time it waits", async () => {
    const worker = new CpuWorker();
    try {
      // 100 ms of deadline; the task waits 600 ms using next to no CPU: it ends on its own (the
      // import fails on the lookup), not stopped at its deadline.
      const err = await importWaitingFor(worker, 600, 100).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(TaskStopped);
      expect(String(err)).toMatch(/ENOTFOUND|resolve|not found/i);
    } finally {
      worker.close();
    }
  });

  it('ends a task that waits past workerWaitFactor times its deadline', async () => {
    LIMITS.loop.workerWaitFactor = 3;
    const worker = new CpuWorker();
    try {
      const t0 = performance.now();
      const err = await importWaitingFor(worker, 5_000, 100).catch((e: Error) => e);
      expect(err).toBeInstanceOf(TaskStopped);
      expect(String(err)).toContain('did not finish within 100 ms');
      expect(performance.now() - t0).toBeLessThan(3_000);
    } finally {
      worker.close();
    }
  });

  it("reads a thread's CPU time, and none for an unknown thread", () => {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'latin1').split(' ')[0]);
    const before = threadCpuMs(tid)!;
    // Spin until this process has used 60 ms of CPU (however long a loaded machine makes that take).
    const cpu0 = process.cpuUsage();
    while (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system < 60_000) {
      // spin
    }
    expect(threadCpuMs(tid)! - before).toBeGreaterThanOrEqual(20);
    expect(threadCpuMs(undefined)).toBeUndefined();
    expect(threadCpuMs(2 ** 30)).toBeUndefined();
  });
});
