// A short docsctl session against a fresh sandbox: start `docsctl serve --memory` on a free port,
// run what an admin does in a day (organize spaces, import docs through a change request, review,
// merge, publish a site, manage a member, call the API directly), show the output, stop the sandbox.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const bin = new URL('../bin/docsctl.js', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'docsctl-demo-'));
const server = spawn(process.execPath, [bin, 'serve', '--memory', '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once('line', resolve);
  server.once('exit', (code) => reject(new Error(`docsctl serve exited with ${code}`)));
});
const sandbox = JSON.parse(first);
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

/** Run docsctl (asynchronously: the website above must keep answering), print what it printed. */
function run(args, opts = {}) {
  console.log(`\n$ docsctl ${args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(opts.input ?? '');
    child.on('close', (status) => {
      // JSON asked for only to read an id from it: one line is enough to show.
      process.stdout.write(opts.quiet ? `(${JSON.parse(stdout).id ?? 'ok'})\n` : stdout);
      process.stdout.write(stderr);
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
