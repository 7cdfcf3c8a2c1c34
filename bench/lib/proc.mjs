/** Child processes of the benchmarks: servers that announce themselves on stdout, and one-shot runs. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(ROOT, 'bin/docsctl.js');

let configDir;
process.on('exit', () => configDir && rmSync(configDir, { recursive: true, force: true }));

/**
 * The environment every measured process runs in: NODE_EXTRA_CA_CERTS unset (it adds tens of
 * milliseconds to each Node start), a throw-away config dir, no colour, not CI.
 */
export function benchEnv(extra = {}) {
  configDir ??= tempDir('cfg');
  const env = { ...process.env, DOCSCTL_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  delete env.CI;
  return env;
}

export function tempDir(what) {
  return mkdtempSync(join(tmpdir(), `docsctl-bench-${what}-`));
}

/**
 * Start a long-running process that prints one JSON line when ready (e.g. `docsctl serve --json`).
 * Resolves to `{info, child, stop()}`.
 */
export function startServer(cmd, args, { env = benchEnv(), timeoutMs = 600_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')}: not ready after ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} ${args.join(' ')} exited (${code}) before it was ready\n${err}`));
    });
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.resume();
      resolvePromise({ info: JSON.parse(out.slice(0, nl)), child, stop: () => stopChild(child), stderr: () => err });
    });
  });
}

export function stopChild(child) {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}

/** Run to completion; resolves to {code, stdout, stderr}. */
export function run(cmd, args, { env = benchEnv(), timeoutMs = 600_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/** Run a process that prints one JSON line (its last) and parse it; throws on a non-zero exit. */
export async function runJson(cmd, args, opts) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** Resident memory of a live process, from /proc: {rss, hwm} in bytes. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** One HTTP request to the sandbox (setup and checks, not measurement). */
export async function api(base, token, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

/** Run the built CLI with `--verbose` and time it: wall time and the requests its trace shows. */
export async function timedCli(env, args) {
  const started = performance.now();
  const r = await run('node', [BIN, ...args, '--verbose'], { env });
  const ms = performance.now() - started;
  if (r.code !== 0) throw new Error(`docsctl ${args.join(' ')} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return { ms, requests: (r.stderr.match(/^\* (GET|POST|PUT|PATCH|DELETE) \S+ → /gm) ?? []).length };
}

/** Delay every /v1 GET of a sandbox by `ms` (a fault rule, as a service across a network); 0 removes it. */
export async function setLatency(info, ms) {
  const rules = ms ? [{ method: 'GET', path: '/v1/**', latencyMs: ms }] : [];
  const r = await api(info.url, info.token, 'PUT', '/_sandbox/faults', { rules });
  if (r.status !== 200) throw new Error(`faults: ${r.status}`);
}

/** Peak RSS (bytes) of one `docsctl` run, stdout to /dev/null, from GNU time. */
export function peakRss(args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const kb = Number(err.trim().split('\n').pop());
      if (code !== 0 || !Number.isFinite(kb)) reject(new Error(`docsctl ${args.join(' ')} failed (${code}): ${err}`));
      else resolvePromise(kb * 1024);
    });
  });
}
