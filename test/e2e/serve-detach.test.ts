/**
 * `docsctl serve --detach` and `docsctl serve stop`, as CI uses them: the built binary in bash
 * scripts (`set -euo pipefail`), among them the steps of docs/ci.md's workflow and its shell
 * script; then the port is free and no process is left. Also: the JSON start line, a start that
 * fails (port taken, bad seed, too slow), stop when nothing runs, a stale record, another server on
 * the port (left alone), and `--data` closed cleanly by a stop.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { docsctl, freePort, userShell } from '../helpers/cli.js';

const CI_DOC = resolve(import.meta.dirname, '../../docs/ci.md');

let shell: ReturnType<typeof userShell>;
/** Every pid a test saw started: none may be left running. */
const started = new Set<number>();

beforeAll(() => {
  shell = userShell('docsctl-detach-');
});
afterEach(() => {
  const left = [...started].filter(running);
  started.clear();
  expect(left, 'sandboxes left running').toEqual([]);
});
afterAll(() => {
  if (shell) rmSync(shell.home, { recursive: true, force: true });
});

/** Whether `pid` runs (an exited process that is not reaped yet does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return !existsSync('/proc/self/stat');
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

/** A bash script, as CI runs it, in the user's shell. */
async function bash(script: string, env: Record<string, string> = {}) {
  return execa('bash', ['-c', `set -euo pipefail\n${script}`], {
    env: { ...shell.env, ...env },
    extendEnv: false,
    cwd: shell.work,
    reject: false,
    timeout: 60_000,
    stdin: 'ignore',
  });
}

/** The pids a start printed (text or JSON), remembered for the check after each test. */
function pidsIn(output: string): number[] {
  const pids = [...output.matchAll(/^pid: +(\d+)$/gm), ...output.matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]));
  for (const p of pids) started.add(p);
  return pids;
}

/** The fenced blocks of `lang` in a Markdown file. */
function fenced(file: string, lang: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);
}

describe('docsctl serve --detach, then serve stop', () => {
  it('the CI steps in bash: start, commands through the printed export line, stop; the port is free and no process is left', async () => {
    const port = await freePort();
    const r = await bash(
      `
      out=$(docsctl serve --memory --detach --port "$PORT" --token ci-token-123)
      printf '%s\\n' "$out"
      eval "$(printf '%s\\n' "$out" | grep '^export ')"
      docsctl spaces list --jq '.[].id' >&2
      docsctl collections create --title "Made in CI" --jq .title >&2
      docsctl serve stop --port "$PORT"
    `,
      { PORT: String(port) },
    );
    const [pid] = pidsIn(r.stdout);
    expect(r.stderr).toContain('sp-welcome\nMade in CI\n');
    expect(r.stderr).toContain(`stopped the sandbox on port ${port} (pid ${pid})`);
    expect(r.exitCode).toBe(0);
    // What serve prints: the start lines with the pid, the log and how to stop it; the export line last.
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`docsctl sandbox listening on http://127.0.0.1:${port}`);
    expect(lines).toContain('admin token:   ci-token-123');
    expect(lines).toContain(`log:           ${join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes', `${port}.log`)}`);
    expect(lines).toContain(`stop it with:  docsctl serve stop --port ${port}`);
    expect(lines.at(-1)).toBe(`export DOCSCTL_API_URL=http://127.0.0.1:${port} DOCSCTL_TOKEN=ci-token-123 DOCSCTL_ORG=org-acme`);
    expect(pid).toBeGreaterThan(0);
    expect(running(pid), 'the sandbox has exited once stop returns').toBe(false);
    expect(await listening(port), 'the port is free once stop returns').toBe(false);
    // Its log holds what it printed, and that it stopped; its record is gone.
    expect(readFileSync(join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes', `${port}.log`), 'utf8')).toMatch(
      /^docsctl sandbox listening on [\s\S]*sandbox stopped\n$/,
    );
    expect(existsSync(join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes', `${port}.json`))).toBe(false);
  });

  it('runs docs/ci.md: its shell script, and its GitHub Actions workflow step by step', async () => {
    // The shell script.
    const [script] = fenced(CI_DOC, 'sh');
    expect(script).toContain('--detach');
    const port = await freePort();
    const r = await bash(`${script.replaceAll('4700', String(port))}\n`);
    expect(r.stderr).toBe(`stopped the sandbox on port ${port} (pid ${/\(pid (\d+)\)/.exec(r.stderr)?.[1]})`);
    expect(r.stdout).toContain('sp-welcome');
    expect(r.exitCode).toBe(0);
    expect(await listening(port)).toBe(false);

    // The workflow: setup-node, npm ci, serve --detach, the tests, serve stop even when they fail.
    const [yamlText] = fenced(CI_DOC, 'yaml');
    const other = await freePort();
    const job = Object.values(
      (
        parse(yamlText.replaceAll('4700', String(other))) as {
          jobs: Record<string, { env: Record<string, string>; steps: { uses?: string; run?: string; if?: string }[] }>;
        }
      ).jobs,
    )[0];
    const steps = job.steps;
    expect(steps.map((s) => s.uses ?? s.run)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm ci',
      'echo "$PWD/node_modules/.bin" >> "$GITHUB_PATH"',
      `docsctl serve --memory --detach --port ${other} --token "$DOCSCTL_TOKEN"`,
      'npm test',
      `docsctl serve stop --port ${other}`,
    ]);
    expect(steps.at(-1)!.if).toBe('always()');
    // The job's environment, then each step's `run` (a step fails the job); `npm ci` is the built
    // docsctl already on the PATH, and the user's tests (`npm test`) are a few commands.
    const userTests = 'docsctl auth status >&2 && docsctl spaces list --jq ".[].title"';
    const runs = steps.filter((s) => s.run && s.run !== 'npm ci').map((s) => (s.run === 'npm test' ? userTests : s.run!));
    const workflow = await bash(runs.join('\n'), { ...job.env, GITHUB_PATH: join(shell.home, 'github-path') });
    expect(workflow.stderr).toContain(`stopped the sandbox on port ${other}`);
    expect(workflow.stdout).toContain('Welcome');
    expect(workflow.exitCode).toBe(0);
    pidsIn(workflow.stdout);
    expect(await listening(other)).toBe(false);
  });

  it('--json prints the JSON start line with its pid and log; SIGTERM stops a detached sandbox cleanly too', async () => {
    const r = await docsctl(['serve', '--memory', '--detach', '--port', '0', '--json', '--token', 'json-token-1'], shell.env);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const info = JSON.parse(r.stdout);
    started.add(info.pid);
    const port = Number(new URL(info.url).port);
    expect(info).toMatchObject({
      url: `http://127.0.0.1:${port}`,
      token: 'json-token-1',
      organizationId: 'org-acme',
      pid: expect.any(Number),
      log: join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes', `${port}.log`),
    });
    expect(r.stdout).not.toContain('\n');
    expect(running(info.pid)).toBe(true);
    const listed = await docsctl(['orgs', 'list', '--fields', 'id'], { ...shell.env, DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: 'json-token-1' });
    expect(listed.stdout).toBe('org-acme\norg-globex');
    const record = join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes', `${port}.json`);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toMatchObject({ pid: info.pid, port, url: info.url, log: info.log });
    // A user's kill by pid: the sandbox stops as it would when asked, and removes its record.
    process.kill(info.pid, 'SIGTERM');
    for (const end = Date.now() + 10_000; running(info.pid) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    expect(running(info.pid)).toBe(false);
    expect(existsSync(record)).toBe(false);
    const again = await docsctl(['serve', 'stop', '--port', String(port)], shell.env);
    expect(again).toMatchObject({ exitCode: 4, stdout: '' });
  });

  it('a sandbox that cannot start: its error and exit code, at once, nothing left behind', async () => {
    const taken = await new Promise<Server>((done) => {
      const s = createServer((_q, res) => res.end('not a sandbox'));
      s.listen(0, '127.0.0.1', () => done(s));
    });
    const port = (taken.address() as { port: number }).port;
    try {
      const t0 = Date.now();
      const r = await bash(`docsctl serve --memory --detach --port ${port}`);
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(r.stderr).toBe(`error: --port: ${port} is already in use\nhint: pick another with --port, or --port 0 for any free one`);
      expect(r.stdout).toBe('');
      expect(r.exitCode).toBe(2);
      const json = await docsctl(['serve', '--memory', '--detach', '--port', String(port), '--json'], shell.env);
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { message: `--port: ${port} is already in use`, exitCode: 2 } });
      expect(json.exitCode).toBe(2);
      // The log of a start that failed is not kept; nor is a record; the server on the port is untouched.
      expect(readdirSync(join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes')).filter((f) => f.startsWith(String(port)) || f.startsWith('starting-'))).toEqual([]);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('not a sandbox');
      // With a seed to apply first, the port is checked before it: its error, not the seed's.
      const org = join(shell.env.DOCSCTL_CONFIG_DIR, 'org.yaml');
      writeFileSync(org, 'version: 1\nopenapi:\n  - slug: pets\n    url: https://petstore.example/openapi.json\n');
      const seeded = await docsctl(['serve', '--memory', '--port', String(port), '--seed', org], shell.env);
      expect(seeded.stderr).toBe(`error: --port: ${port} is already in use\nhint: pick another with --port, or --port 0 for any free one`);
      expect(seeded.exitCode).toBe(2);
    } finally {
      taken.close();
    }
    writeFileSync(join(shell.work, 'bad.json'), '{"organizations": [');
    const bad = await bash('docsctl serve --memory --detach --port 0 --seed bad.json');
    expect(bad.stderr).toMatch(/^error: --seed: bad\.json:1:20: malformed JSON: Unexpected end of JSON input/);
    expect(bad.exitCode).toBe(2);
    // A start slower than DOCSCTL_SERVE_START_TIMEOUT: stopped, exit 1, its log named.
    const slow = await bash('docsctl serve --memory --detach --port 0', { DOCSCTL_SERVE_START_TIMEOUT: '0.01' });
    expect(slow.stderr).toMatch(
      /^error: the sandbox did not start within 0\.01 s; it was stopped \(its output: .*starting-\d+\.log\)\nhint: raise DOCSCTL_SERVE_START_TIMEOUT/,
    );
    expect(slow.exitCode).toBe(1);
    const badSetting = await bash('docsctl serve --memory --detach --port 0', { DOCSCTL_SERVE_START_TIMEOUT: 'soon' });
    expect(badSetting.stderr).toMatch(/^error: DOCSCTL_SERVE_START_TIMEOUT: must be a number of seconds/);
    expect(badSetting.exitCode).toBe(2);
  });

  it('stop when nothing runs: exit 4; a stale record is removed; another server on the port is left alone', async () => {
    const port = await freePort();
    const none = await docsctl(['serve', 'stop', '--port', String(port)], shell.env);
    expect(none.stderr).toBe(
      `error: no sandbox started with --detach runs on port ${port} (none recorded in ${join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes')})\nhint: a sandbox started without --detach stops with Ctrl-C; docsctl serve --detach --port P starts one in the background`,
    );
    expect(none.exitCode).toBe(4);
    // A record whose sandbox is gone (nothing listens there).
    const dir = join(shell.env.DOCSCTL_CONFIG_DIR, 'sandboxes');
    const record = (p: number) =>
      writeFileSync(
        join(dir, `${p}.json`),
        JSON.stringify({ pid: 999999, port: p, url: `http://127.0.0.1:${p}`, control: 'x'.repeat(32), log: '/dev/null', startedAt: new Date().toISOString() }),
      );
    record(port);
    const stale = await docsctl(['serve', 'stop', '--port', String(port)], shell.env);
    expect(stale.stderr).toMatch(
      new RegExp(`^error: no sandbox runs on port ${port}: the one started with --detach \\(pid 999999\\) is gone .*; its record was removed`),
    );
    expect(stale.exitCode).toBe(4);
    expect(existsSync(join(dir, `${port}.json`))).toBe(false);
    // A sandbox in the foreground now holds the port: it has no control route, and stays.
    const fg = execa('node', [resolve(import.meta.dirname, '../../bin/docsctl.js'), 'serve', '--memory', '--port', String(port), '--json'], {
      env: shell.env,
      extendEnv: false,
      reject: false,
    });
    try {
      const info = JSON.parse(await new Promise<string>((done) => fg.stdout!.once('data', (d: Buffer) => done(d.toString()))));
      record(port);
      const other = await docsctl(['serve', 'stop', '--port', String(port)], shell.env);
      expect(other.stderr).toBe(
        `error: no sandbox started with --detach runs on port ${port}: http://127.0.0.1:${port} is another server (it answered 401 to the stop), left alone; the record of pid 999999 was removed`,
      );
      expect(other.exitCode).toBe(4);
      expect((await fetch(`${info.url}/v1/user`, { headers: { authorization: `Bearer ${info.token}` } })).status).toBe(200);
      // Its stop route is not there for the admin's token either.
      expect((await fetch(`${info.url}/_sandbox/stop`, { method: 'POST', headers: { authorization: `Bearer ${info.token}` } })).status).toBe(404);
    } finally {
      fg.kill('SIGTERM');
      await fg;
    }
    const usage = await docsctl(['serve', 'stop', '--port', String(port), '--memory'], shell.env);
    expect(usage).toMatchObject({ exitCode: 2, stderr: 'error: --memory: not taken by serve stop (it takes --port)' });
    const log = await docsctl(['serve', '--memory', '--log', 'x.log'], shell.env);
    expect(log).toMatchObject({ exitCode: 2, stderr: 'error: --log: only with --detach (in the foreground the output is on the terminal)' });
  });

  it('stop takes only the control token, and a detached --data sandbox closes its database cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-detach-data-'));
    try {
      const db = join(dir, 'sandbox.db');
      const log = join(dir, 'serve.log');
      const r = await docsctl(['serve', '--data', db, '--detach', '--port', '0', '--json', '--token', 'data-token-1', '--log', log], shell.env);
      expect(r.exitCode).toBe(0);
      const info = JSON.parse(r.stdout);
      started.add(info.pid);
      expect(info.log).toBe(log);
      const port = new URL(info.url).port;
      // The admin's token does not stop it; nor does no token.
      for (const headers of [{ authorization: 'Bearer data-token-1' }, {}] as Record<string, string>[]) {
        expect((await fetch(`${info.url}/_sandbox/stop`, { method: 'POST', headers })).status).toBe(401);
      }
      const made = await docsctl(['collections', 'create', '--title', 'Kept', '--jq', '.id'], {
        ...shell.env,
        DOCSCTL_API_URL: info.url,
        DOCSCTL_TOKEN: 'data-token-1',
        DOCSCTL_ORG: 'org-acme',
      });
      expect(made.exitCode).toBe(0);
      expect(existsSync(`${db}-wal`)).toBe(true);
      const stop = await docsctl(['serve', 'stop', '--port', port], shell.env);
      expect(stop).toMatchObject({ exitCode: 0, stderr: `stopped the sandbox on port ${port} (pid ${info.pid})` });
      // Closed: the log folded into the database and removed, as at Ctrl-C.
      expect(readdirSync(dir).sort()).toEqual(['sandbox.db', 'serve.log']);
      expect(readFileSync(log, 'utf8')).toMatch(/sandbox stopped\n$/);
      const back = await docsctl(['serve', '--data', db, '--detach', '--port', '0', '--json', '--log', log], shell.env);
      const again = JSON.parse(back.stdout);
      started.add(again.pid);
      const titles = await docsctl(['collections', 'list', '--fields', 'title'], {
        ...shell.env,
        DOCSCTL_API_URL: again.url,
        DOCSCTL_TOKEN: 'data-token-1',
        DOCSCTL_ORG: 'org-acme',
      });
      expect(titles.stdout.split('\n')).toContain('Kept');
      expect((await docsctl(['serve', 'stop', '--port', new URL(again.url).port], shell.env)).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
