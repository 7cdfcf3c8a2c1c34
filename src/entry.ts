/** The process entry (bin/docsctl.js imports the bundle of this file). `--version` loads nothing else. */
import { readFileSync } from 'node:fs';

declare const __VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${__VERSION__}\n`);
} else {
  const manifest = JSON.parse(readFileSync(new URL('./manifest.json', import.meta.url), 'utf8'));
  const { main } = await import('./main.js');
  const code = await main(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }, manifest);
  // Exit once output is flushed: open keep-alive sockets must not hold the process.
  process.stdout.write('', () => process.exit(code));
}
