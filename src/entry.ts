/**
 * The process entry, bundled as CommonJS (dist/cli.cjs, which bin/docsctl.js requires). Its fast
 * paths print without loading anything: `--version`, and `[command...] --help` (or `help
 * [command...]`) written to a pipe, a file or /dev/null, which prints the text that the same commander program rendered at build time
 * (dist/help.json; there is no terminal width to wrap to). Everything else, and help on a terminal,
 * runs the CLI proper (src/run.ts), one CommonJS script compiled with V8's code cache (see
 * loadMain). The V8 flags docsctl wants are set here, and only here (never by a library module).
 */
import { isAscii } from 'node:buffer';
import { accessSync, constants, fstatSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

declare const __VERSION__: string;
/** The file name of the CLI proper, `main-<hash of its content>.cjs`, set by scripts/build.mjs. */
declare const __MAIN__: string;

const argv = process.argv.slice(2);
const text = argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V') ? `${__VERSION__}\n` : prerenderedHelp(argv);
if (text !== undefined) writeOut(text);
else (loadMain() as { run(dir: string, collectGarbage: () => void): Promise<void> }).run(__dirname, collectGarbage);

/**
 * Compile and evaluate dist/main-<hash>.cjs as CommonJS does, with the code V8 compiled for it in an
 * earlier run (`<file>.cache`: made by the build, remade here when missing or refused, e.g. by
 * another Node version). Compiling ~2 MB of JavaScript at each start is most of the time a short
 * command takes; the cache skips it. V8 checks only the source's length against a cache, so the
 * file name carries a hash of the content: a cache never meets another build's code.
 */
function loadMain(): unknown {
  // Required here, not at the top: node:v8 alone costs the fast paths ~5 ms.
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  const { Script } = require('node:vm') as typeof import('node:vm');
  // undici parses HTTP with WebAssembly, which V8 also optimises in background threads that a short
  // process then waits for at exit (~200 ms); the baseline compiler is plenty for a CLI. Set before
  // compiling: V8 refuses a cache made under other flags.
  setFlagsFromString('--liftoff-only');
  const file = join(__dirname, __MAIN__);
  const cacheFile = `${file}.cache`;
  const bytes = readFileSync(file);
  // The bundle is ASCII (checked by the build): read as Latin-1, it is the same string, 10× faster than UTF-8.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  // Not after `--all`: a cache made under --optimize-for-size (below) would be refused by every other run.
  if ((cachedData === undefined || script.cachedDataRejected) && !allPages(argv) && writable(__dirname)) {
    // Made at exit, it holds the functions this run compiled as well.
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // e.g. the disk is full: the next run tries again
        rmSync(tmp, { force: true });
      }
    });
  }
  const mod = { exports: {} as unknown };
  (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, require, mod, file, __dirname);
  // `--all` pages through a long listing whose pages are garbage once written: V8 keeps the heap
  // small rather than grow it. Set after compiling (the cache was made without it).
  if (allPages(argv)) setFlagsFromString('--optimize-for-size');
  return mod.exports;
}

type Collect = (options?: { type?: 'minor' | 'major' }) => void;
let collector: Collect | null | undefined;

/**
 * A minor garbage collection (a scavenge of the young generation: ~0.2 ms), which the API client
 * asks for as a download goes so that its chunks already written do not pile up (HttpOptions
 * collectGarbage; docs/performance.md). V8 gives the function only under --expose-gc: the flag is
 * set for the moment it takes to get it, on the first call, and unset again, so no later context
 * (jq's thread) has a `gc` global. Where it cannot be had, nothing is collected.
 */
function collectGarbage(): void {
  if (collector === undefined) {
    collector = null;
    try {
      const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
      const { runInNewContext } = require('node:vm') as typeof import('node:vm');
      setFlagsFromString('--expose-gc');
      try {
        const gc: unknown = runInNewContext('gc');
        if (typeof gc === 'function') collector = gc as Collect;
      } finally {
        if (!process.execArgv.includes('--expose-gc')) setFlagsFromString('--no-expose-gc');
      }
    } catch {
      // No collections: memory is what V8 makes it.
    }
  }
  collector?.({ type: 'minor' });
}

/** Whether the command line asks for every page of a list (`--all`, before any `--`). */
function allPages(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--all');
}

/** Whether this process may write in `dir` (else making a cache at each exit would be wasted work). */
function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The help of `[command names...] --help` (or `-h`), or of `help [command names...]`, rendered at
 * build time, if it applies here (names and aliases only, nothing else on the line).
 */
function prerenderedHelp(args: string[]): string | undefined {
  const flag = args[args.length - 1];
  const names = flag === '--help' || flag === '-h' ? args.slice(0, -1) : args[0] === 'help' ? args.slice(1) : undefined;
  if (!names || names.some((n) => n === '' || n.startsWith('-') || /\s/.test(n)) || !notTerminal()) return undefined;
  const help = JSON.parse(readFileSync(join(__dirname, 'help.json'), 'utf8')) as { texts: Record<string, string>; aliases: Record<string, string> };
  const asked = names.join(' ');
  const key = Object.hasOwn(help.aliases, asked) ? help.aliases[asked] : asked;
  return Object.hasOwn(help.texts, key) ? help.texts[key] : undefined;
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

/**
 * Write to fd 1 without setting up a stream; what a non-blocking pipe refuses goes through
 * process.stdout. A reader that has gone (`docsctl --help | head -1`) is no error.
 */
function writeOut(out: string): void {
  const bytes = Buffer.from(out);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    process.stdout.on('error', () => {});
    process.stdout.write(bytes.subarray(done));
  }
}
