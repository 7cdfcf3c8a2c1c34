/**
 * The process entry, bundled as CommonJS (dist/cli.cjs, which bin/docsctl.js requires) so that its
 * fast paths start without the ES module loader: `--version`, and `[command...] --help` written to
 * a pipe, a file or /dev/null, which prints the text that the same commander program rendered at
 * build time (dist/help.json; there is no terminal width to wrap to). Everything else, and help on
 * a terminal, loads the CLI proper: dist/main.js (src/run.ts), an ES module.
 */
import { fstatSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

declare const __VERSION__: string;

const argv = process.argv.slice(2);
const text = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V') ? `${__VERSION__}\n` : prerenderedHelp(argv);
if (text !== undefined) writeOut(text);
else void import('./main.js'); // dist/main.js, next to this bundle (not src/main.ts: see scripts/build.mjs)

/** The help of `[command names...] --help` (or `-h`) rendered at build time, if it applies here. */
function prerenderedHelp(args: string[]): string | undefined {
  const flag = args[args.length - 1];
  if (flag !== '--help' && flag !== '-h') return undefined;
  const names = args.slice(0, -1);
  if (names.some((n) => n === '' || n.startsWith('-') || /\s/.test(n)) || !notTerminal()) return undefined;
  const texts = JSON.parse(readFileSync(join(__dirname, 'help.json'), 'utf8')) as Record<string, string>;
  const key = names.join(' ');
  return Object.hasOwn(texts, key) ? texts[key] : undefined;
}

/** Whether stdout is surely not a terminal (a pipe, file, socket or /dev/null), asked without node:tty. */
function notTerminal(): boolean {
  try {
    const st = fstatSync(1);
    return st.isFIFO() || st.isFile() || st.isSocket() || (st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev);
  } catch {
    return false;
  }
}

/** Write to fd 1 without setting up a stream; what a non-blocking pipe refuses goes through process.stdout. */
function writeOut(out: string): void {
  const bytes = Buffer.from(out);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch {
    process.stdout.write(bytes.subarray(done));
  }
}
