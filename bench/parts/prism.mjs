/**
 * The sandbox against Stoplight Prism mocking the same operation (GET /v1/spaces/{spaceId}, its
 * example the sandbox's own answer): requests/s ≥ 15 × Prism's, same load tool, alternating.
 * Prism is the project's devDependency (the conformance suite runs the CLI against it too); when it
 * is not installed, the part is skipped and says why.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { api, benchEnv, ROOT, stopChild, tempDir } from '../lib/proc.mjs';
import { startSandbox } from '../lib/sandbox.mjs';
import { median, result } from '../lib/stats.mjs';
import { CONNECTIONS, LOAD_TOOL, loadRun, startBare } from './http.mjs';

const PRISM = join(ROOT, 'node_modules/.bin/prism');
const SPACE = 'sp-welcome';

/** Why Prism cannot run here, or undefined when it can. */
function prismMissing() {
  return existsSync(PRISM) ? undefined : '@stoplight/prism-cli is not installed (npm ci installs it with the devDependencies)';
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** An OpenAPI document with the one operation, answering `example`. */
function spec(example) {
  return {
    openapi: '3.0.3',
    info: { title: 'docsctl sandbox: one operation', version: '1' },
    paths: {
      '/v1/spaces/{spaceId}': {
        get: {
          operationId: 'getSpace',
          parameters: [{ name: 'spaceId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'The space', content: { 'application/json': { example } } } },
        },
      },
    },
  };
}

async function startPrism(example) {
  const dir = tempDir('prism');
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(spec(example)));
  const port = await freePort();
  const child = spawn(PRISM, ['mock', '--host', '127.0.0.1', '--port', String(port), file], { env: benchEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${err}`);
    try {
      const res = await fetch(`${url}/v1/spaces/${SPACE}`);
      if (res.status === 200) return { url, stop: () => stopChild(child).then(() => rmSync(dir, { recursive: true, force: true })) };
    } catch {
      // not listening yet
    }
  }
  await stopChild(child);
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`prism did not answer within 60 s: ${err}`);
}

export default async function prism({ quick }) {
  const why = prismMissing();
  if (why) return { results: [], skipped: why };
  const sandbox = await startSandbox();
  let mock;
  let bare;
  try {
    const got = await api(sandbox.url, sandbox.token, 'GET', `/v1/spaces/${SPACE}`);
    mock = await startPrism(got.body);
    // The bare node:http server of the http part, for reference: how far above Prism any server gets here.
    bare = await startBare({ [SPACE]: got.body });
    const durationMs = quick ? 3000 : 6000;
    const rounds = quick ? 1 : 5;
    const targets = {
      prism: { url: `${mock.url}/v1/spaces/${SPACE}`, connections: CONNECTIONS, durationMs },
      sandbox: { url: `${sandbox.url}/v1/spaces/${SPACE}`, headers: { authorization: `Bearer ${sandbox.token}` }, connections: CONNECTIONS, durationMs },
      bare: { url: `${bare.url}/v1/spaces/${SPACE}`, connections: CONNECTIONS, durationMs },
    };
    const rps = { prism: [], sandbox: [], bare: [] };
    const names = Object.keys(targets);
    for (let round = 0; round < rounds; round++) {
      for (const name of names.map((_, i) => names[(i + round) % names.length])) {
        const r = await loadRun(targets[name]);
        if (r.errors || r.statuses[200] !== r.requests) throw new Error(`${name}: unexpected answers ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
        rps[name].push(r.rps);
        process.stderr.write(`    round ${round + 1}: ${name} ${Math.round(r.rps)} req/s\n`);
      }
    }
    const command = `npm run bench -- prism  (prism mock, @stoplight/prism-cli 5; ${LOAD_TOOL}, ${CONNECTIONS} connections, ${durationMs / 1000} s × ${rounds} rounds, alternating)`;
    return [
      result({
        part: 'prism',
        name: 'GET /v1/spaces/{id}: requests/s vs Stoplight Prism (mock of that operation)',
        value: median(rps.sandbox),
        baseline: median(rps.prism),
        unit: 'req/s',
        target: 15,
        dir: '>=',
        command,
      }),
      result({
        part: 'prism',
        name: 'for reference: bare node:http vs Prism, same run',
        value: median(rps.bare),
        baseline: median(rps.prism),
        unit: 'req/s',
        command,
      }),
    ];
  } finally {
    await bare?.stop();
    await mock?.stop();
    await sandbox.stop();
  }
}
