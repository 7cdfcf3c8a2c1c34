/** One request: `docsctl spaces get ID --json` against a running sandbox, against `node -e 0`. */
import { compare } from '../lib/hyperfine.mjs';
import { BIN, run } from '../lib/proc.mjs';
import { cliEnv, startSandbox } from '../lib/sandbox.mjs';
import { result } from '../lib/stats.mjs';

export default async function request({ quick }) {
  const sandbox = await startSandbox();
  try {
    const env = cliEnv(sandbox);
    const node = process.execPath;
    const args = [BIN, 'spaces', 'get', 'sp-welcome', '--json'];
    // The command must work before it is timed.
    const check = await run(node, args, { env });
    if (check.code !== 0 || JSON.parse(check.stdout).id !== 'sp-welcome') throw new Error(`spaces get failed (${check.code}): ${check.stderr}`);
    const t = await compare(
      { 'node -e 0': `${node} -e 0`, 'docsctl spaces get': `${node} ${args.join(' ')}` },
      { env, ...(quick ? { rounds: 2, runs: 10, warmup: 2 } : { rounds: 5, runs: 20, warmup: 3 }) },
    );
    return [
      result({
        part: 'request',
        name: '`docsctl spaces get ID --json` (sandbox running)',
        value: t['docsctl spaces get'].median * 1000,
        baseline: t['node -e 0'].median * 1000,
        unit: 'ms',
        target: 4,
        command: "hyperfine -N 'node bin/docsctl.js spaces get sp-welcome --json' vs 'node -e 0'",
      }),
    ];
  } finally {
    await sandbox.stop();
  }
}
