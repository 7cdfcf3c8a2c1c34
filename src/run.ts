/**
 * The CLI proper, bundled as one CommonJS script (dist/main-<hash>.cjs) that the process entry
 * (src/entry.ts) compiles with V8's code cache: reads the command manifest and runs main().
 */
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { join } from 'node:path';
import { main } from './main.js';

/**
 * Run docsctl with this process's arguments; `dir` holds manifest.json. Exits when output is flushed.
 * `collectGarbage`: a minor collection, from the process entry (which alone sets V8 flags).
 */
export async function run(dir: string, collectGarbage?: () => void): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  // A reader of stdout that goes away (`| head`) is normal: the command stops, quietly (Context.out).
  let closed = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') closed = true;
    else throw err;
  });
  // process.stdin is set up only if a command reads it (prompts, --input -): it costs a stream.
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
    env: process.env,
    stdoutClosed: () => closed,
    ...(collectGarbage ? { collectGarbage } : {}),
  };
  const code = await main(process.argv.slice(2), io, manifest);
  // Exit once output is flushed: open keep-alive sockets must not hold the process.
  process.stdout.write('', () => process.exit(code));
}
