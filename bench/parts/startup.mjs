/** Start-up: `docsctl --version`, `--help` and `spaces list --help` against `node -e 0`. */
import { compare } from '../lib/hyperfine.mjs';
import { BIN } from '../lib/proc.mjs';
import { result } from '../lib/stats.mjs';

export default async function startup({ quick }) {
  const node = process.execPath;
  const commands = {
    'node -e 0': `${node} -e 0`,
    'docsctl --version': `${node} ${BIN} --version`,
    'docsctl --help': `${node} ${BIN} --help`,
    'docsctl spaces list --help': `${node} ${BIN} spaces list --help`,
  };
  const t = await compare(commands, quick ? { rounds: 2, runs: 10, warmup: 2 } : { rounds: 5, runs: 20, warmup: 3 });
  const base = t['node -e 0'].median * 1000;
  const row = (name, target) =>
    result({
      part: 'startup',
      name: `\`${name}\``,
      value: t[name].median * 1000,
      baseline: base,
      unit: 'ms',
      target,
      command: `hyperfine -N '${name.replace('docsctl', 'node bin/docsctl.js')}' vs 'node -e 0'`,
    });
  return [row('docsctl --version', 1.4), row('docsctl --help', 1.6), row('docsctl spaces list --help', 1.6)];
}
