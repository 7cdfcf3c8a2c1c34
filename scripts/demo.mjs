// A short docsctl session against a fresh sandbox: start `docsctl serve --memory` on a free port,
// run a few commands as an admin would, show their output, stop the sandbox.
import { spawn, spawnSync } from 'node:child_process';
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

function run(args, opts = {}) {
  console.log(`\n$ docsctl ${args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', ...opts });
  process.stdout.write(r.stdout);
  process.stdout.write(r.stderr);
  if (r.status !== (opts.expect ?? 0)) throw new Error(`exit ${r.status}`);
  return r.stdout;
}

try {
  console.log(`sandbox running at ${sandbox.url} (organization ${sandbox.organizationId})`);
  run(['auth', 'login', '--api-url', sandbox.url, '--org', sandbox.organizationId, '--with-token'], { input: sandbox.token + '\n' });
  run(['auth', 'status']);
  const guides = JSON.parse(run(['collections', 'create', '--title', 'Guides', '--json']));
  run(['spaces', 'create', '--title', 'Getting started', '--emoji', '🚀', '--parent', guides.id]);
  run(['collections', 'list']);
  run(['spaces', 'list', '--collection', guides.id, '--fields', 'id,title,visibility']);
  run(['collections', 'update', guides.id, '--title', 'x'.repeat(51)], { expect: 2 });
  run(['collections', 'delete', guides.id, '--yes']);
  run(['api', '/v1/orgs/{org}/collections', '--paginate']);
  console.log('\ndemo finished: every command above ran against the sandbox.');
} finally {
  server.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}
