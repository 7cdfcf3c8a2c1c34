/**
 * Process timings with hyperfine (from the OS packages), alternating the commands compared: each
 * round runs every command in turn, the order rotating between rounds, so that a noisy moment of
 * the machine hits all of them alike. Medians are taken over all runs of all rounds.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, run, tempDir } from './proc.mjs';
import { median } from './stats.mjs';

export const HYPERFINE = process.env.HYPERFINE ?? '/usr/bin/hyperfine';

export function hyperfineAvailable() {
  return existsSync(HYPERFINE);
}

/**
 * `commands`: {name: 'command line'}. Returns {name: {times: [seconds...], median}}.
 * Commands run without a shell (`-N`), with `env` (default: benchEnv(), NODE_EXTRA_CA_CERTS unset).
 */
export async function compare(commands, { rounds = 5, runs = 10, warmup = 3, env = benchEnv() } = {}) {
  const names = Object.keys(commands);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const dir = tempDir('hyperfine');
  try {
    for (let round = 0; round < rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      const file = join(dir, `round-${round}.json`);
      const args = ['-N', '--style', 'none', '--warmup', String(warmup), '--runs', String(runs), '--export-json', file];
      for (const n of order) args.push('--command-name', n, commands[n]);
      const r = await run(HYPERFINE, args, { env });
      if (r.code !== 0) throw new Error(`hyperfine failed (${r.code}):\n${r.stderr}`);
      for (const res of JSON.parse(readFileSync(file, 'utf8')).results) times[res.command].push(...res.times);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(names.map((n) => [n, { times: times[n], median: median(times[n]) }]));
}
