/**
 * The CPU time each test file costs, for finding where the suite's time goes (docs/performance.md,
 * Test suite): with `SUITE_CPU_LOG=FILE npx vitest run`, each test file appends a line of JSON to
 * FILE: its path, its wall time, and the CPU time (user + system, in seconds) of its worker process
 * (worker threads included) and of the child processes it waited for (the built binary, Prism), read
 * from /proc/self/stat before and after the file. Wall times under load say little; CPU times do.
 * Without the variable (or without /proc) it does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.SUITE_CPU_LOG;

/** [own CPU, waited-for children's CPU], in seconds. */
function cpu(): [number, number] | undefined {
  try {
    // Fields after the command's closing parenthesis: utime is the 14th field of the line, cutime the 16th.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (n: number) => Number(fields[n - 3]) / 100;
    return [at(14) + at(15), at(16) + at(17)];
  } catch {
    return undefined;
  }
}

if (LOG) {
  // From before the file is imported (setup files run before each test file) to after its last hook.
  const start = { wall: performance.now(), cpu: cpu(), file: '?' };
  beforeAll(() => {
    start.file = relative(process.cwd(), expect.getState().testPath ?? '?');
  });
  afterAll(() => {
    const end = cpu();
    if (!start.cpu || !end) return;
    appendFileSync(
      LOG,
      `${JSON.stringify({
        file: start.file,
        wall: Math.round(performance.now() - start.wall) / 1000,
        own: Math.round((end[0] - start.cpu[0]) * 100) / 100,
        children: Math.round((end[1] - start.cpu[1]) * 100) / 100,
        pid: process.pid,
      })}\n`,
    );
  });
}
