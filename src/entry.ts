/** The process entry (bin/docsctl.js imports the bundle of this file). */
import { main } from './main.js';

const code = await main(process.argv.slice(2), {
  stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env,
});
// Exit once output is flushed: open keep-alive sockets must not hold the process.
process.stdout.write('', () => process.exit(code));
