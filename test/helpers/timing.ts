/**
 * Time bounds that hold on a machine shared with other work: CPU time of synchronous work (what a
 * slower algorithm costs, not how long the process waited for a core), and how much slower than
 * its CPU time this process runs now, to scale a bound on wall time.
 */

/** CPU time of `fn` in ms (less sensitive than wall time to a machine shared with other work). */
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** A synchronous task of about 10 ms of CPU, always the same. */
function reference(): number {
  let x = 0;
  for (let i = 0; i < 2_000_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}

/**
 * How many times its CPU time on an idle machine (about 10 ms, measured on the 2-core machine these
 * bounds were set on) the reference task costs now: 1 there, idle; more on a slower machine, or where
 * other work on the same cores slows even the CPU time (shared caches and cores). The median of 5 runs.
 */
export function cpuSlowdown(): number {
  const costs = Array.from({ length: 5 }, () => cpuMs(reference)).sort((a, b) => a - b);
  return Math.max(1, costs[2] / REFERENCE_IDLE_MS);
}
const REFERENCE_IDLE_MS = 10;

/**
 * How much longer than its CPU time the reference task takes now, in wall time: 1 on an idle
 * machine, about the number of runnable processes per core on a loaded one (the median of 5 runs).
 */
export function slowdown(): number {
  const ratios = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    const cpu = cpuMs(reference);
    return (performance.now() - t0) / Math.max(0.1, cpu);
  }).sort((a, b) => a - b);
  return Math.max(1, ratios[2]);
}
