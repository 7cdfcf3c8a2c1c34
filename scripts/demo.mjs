// A short docsctl session against a fresh sandbox: start `docsctl serve --memory` on a free port
// (or `--port N`: `npm run demo -- --port 4800`), run what an admin does in a day (organize spaces,
// import docs through a change request, review, merge, publish a site, manage a member, call the API
// directly), show the output, stop the sandbox. On a terminal each command prints what it prints at
// a terminal (tables, colour); elsewhere (a pipe, a file) what it prints there (TSV).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const usage = 'usage: npm run demo [-- --port N]   (N from 0 to 65535; default 0, a free port)';
const argv = process.argv.slice(2);
let port = '0';
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].split(/=(.*)/s);
  if (flag === '--port' && (inline ?? argv[i + 1]) !== undefined) port = inline ?? argv[++i];
  else if (flag === '--help' || flag === '-h') {
    console.log(usage);
    process.exit(0);
  } else {
    console.error(`error: unknown argument ${JSON.stringify(argv[i])}\n${usage}`);
    process.exit(2);
  }
}
if (!/^\d+$/.test(port) || Number(port) > 65535) {
  console.error(`error: --port: must be a whole number from 0 to 65535 (got ${JSON.stringify(port)})\n${usage}`);
  process.exit(2);
}
/** Whether the demo runs at a terminal: the commands then print there themselves. */
const tty = Boolean(process.stdout.isTTY);

const bin = new URL('../bin/docsctl.js', import.meta.url).pathname;
const server = spawn(process.execPath, [bin, 'serve', '--memory', '--port', port, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
// Its first line, or its exit: a sandbox that cannot start says why (its --json error, e.g. the port is taken).
let said = '';
server.stderr.on('data', (d) => (said += d));
const first = await new Promise((resolve) => {
  createInterface({ input: server.stdout }).once('line', resolve);
  server.once('close', (code) => {
    let error;
    try {
      error = JSON.parse(said).error;
    } catch {
      // not its JSON error: shown as it came
    }
    process.stderr.write(error ? `error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}` : said);
    console.error(`demo: the sandbox did not start (docsctl serve exited with ${code})`);
    process.exit(code || 1);
  });
});
server.removeAllListeners('close');
server.stderr.removeAllListeners('data');
process.stderr.write(said);
server.stderr.pipe(process.stderr);
const sandbox = JSON.parse(first);
const home = mkdtempSync(join(tmpdir(), 'docsctl-demo-'));
const env = { ...process.env, DOCSCTL_CONFIG_DIR: home, DOCSCTL_API_URL: sandbox.url, DOCSCTL_ORG: sandbox.organizationId };
delete env.DOCSCTL_TOKEN;

// A tiny website on 127.0.0.1 for the import (the sandbox fetches it like any site).
const pages = {
  '/': '<html><head><title>Widget docs</title></head><body><h1>Widget docs</h1><p>Start with <a href="/install">installing</a>.</p></body></html>',
  '/install': '<html><head><title>Install</title></head><body><h1>Install</h1><p>Run <code>npm i widget</code>.</p></body></html>',
};
const site = createServer((req, res) => {
  const html = pages[req.url ?? ''];
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html' }).end(html ?? 'not found');
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}/`;

/**
 * Run docsctl (asynchronously: the website above must keep answering), print what it printed. At a
 * terminal its stdout and stderr are the terminal, unless the demo reads its JSON (`quiet`).
 */
function run(args, opts = {}) {
  console.log(`\n$ docsctl ${args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const shown = tty && !opts.quiet;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', shown ? 'inherit' : 'pipe', shown ? 'inherit' : 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    child.stdin.end(opts.input ?? '');
    child.on('close', (status) => {
      // JSON asked for only to read an id from it: one line is enough to show.
      if (!shown) process.stdout.write(opts.quiet ? `(${JSON.parse(stdout).id ?? 'ok'})\n` : stdout);
      if (!shown) process.stdout.write(stderr);
      if (status !== (opts.expect ?? 0)) reject(new Error(`exit ${status}`));
      else resolve(stdout);
    });
  });
}

try {
  console.log(`sandbox running at ${sandbox.url} (organization ${sandbox.organizationId})`);
  await run(['auth', 'login', '--api-url', sandbox.url, '--org', sandbox.organizationId, '--with-token'], { input: sandbox.token + '\n' });
  await run(['auth', 'status']);
  const guides = JSON.parse(await run(['collections', 'create', '--title', 'Guides', '--json'], { quiet: true }));
  const space = JSON.parse(await run(['spaces', 'create', '--title', 'Widget', '--emoji', '🚀', '--parent', guides.id, '--json'], { quiet: true }));
  await run(['content', 'template', space.id, 'getting-started']);
  await run(['tree']);
  // Propose the imported docs as a change request, discuss, merge.
  const cr = JSON.parse(await run(['cr', 'create', space.id, '--subject', 'Import the Widget docs', '--json'], { quiet: true }));
  await run(['cr', 'import', space.id, String(cr.number), siteUrl]);
  await run(['cr', 'pages', space.id, String(cr.number)]);
  await run(['comments', 'post', space.id, '--cr', String(cr.number), '-m', 'Looks good to me']);
  await run(['cr', 'merge', space.id, String(cr.number), '--yes']);
  await run(['content', 'pages', space.id]);
  await run(['content', 'search', space.id, 'npm']);
  // Publish it.
  const published = JSON.parse(await run(['sites', 'create', '--title', 'Widget docs', '--space', space.id, '--json'], { quiet: true }));
  await run(['sites', 'publish', published.id]);
  await run(['sites', 'published', published.id]);
  // People.
  await run(['members', 'set-role', 'u-read', 'comment']);
  await run(['members', 'list', '--fields', 'id,role']);
  // Any endpoint, as gh api: every page of a list through jq; the sandbox's own API description
  // (GET /openapi.json, no token) stored as an OpenAPI specification of the organization.
  await run(['api', '/v1/orgs/{org}/spaces', '--paginate', '--jq', '.[] | "\\(.id)  \\(.title)"']);
  await run(['openapi', 'put', 'docsctl-api', '--url', `${sandbox.url}/openapi.json`, '--wait', '--fields', 'slug,processingState,lastVersion']);
  // Bad input is caught before anything is sent (exit 2), naming the field and the rule.
  await run(['collections', 'update', guides.id, '--title', 'x'.repeat(51)], { expect: 2 });
  await run(['spaces', 'list', '--fields', 'id,title,visibility']);
  console.log('\ndemo finished: every command above ran against the sandbox.');
} finally {
  server.kill('SIGTERM');
  site.close();
  rmSync(home, { recursive: true, force: true });
}
