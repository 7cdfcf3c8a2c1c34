/**
 * The CLI proper, an ES module (bundled to dist/main.js, code-split): reads the command manifest
 * and runs main(). The process entry (src/entry.ts) loads it for everything but its fast paths.
 */
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./manifest.json', import.meta.url), 'utf8'));
const { main } = await import('./main.js');
// stdin is set up only if a command reads it (prompts, --input -): it costs a stream.
const io = { stdout: process.stdout, stderr: process.stderr, get stdin() { return process.stdin; }, env: process.env };
const code = await main(process.argv.slice(2), io, manifest);
// Exit once output is flushed: open keep-alive sockets must not hold the process.
process.stdout.write('', () => process.exit(code));
