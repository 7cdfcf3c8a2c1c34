/**
 * The e2e harness: a sandbox started in this test process on 127.0.0.1:0, and the built
 * `bin/docsctl` run with execa against it, with a temporary config dir (never the real home).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/serve.js';
import { watchAnswers } from './official.js';

export const BIN = resolve(import.meta.dirname, '../../bin/docsctl.js');

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface RunOptions {
  /** Extra environment (e.g. another user's DOCSCTL_TOKEN); `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  input?: string;
  /** Run as this default-seed user: admin, create, review, edit, comment, read, guest, outsider. */
  as?: string;
}

/** Run docsctl with a clean environment: PATH, a temp HOME and config dir, and the given variables. */
export async function docsctl(args: string[], env: Record<string, string | undefined>, opts: { input?: string } = {}): Promise<RunResult> {
  const clean: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const r = await execa('node', [BIN, ...args], {
    env: clean,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    ...(opts.input !== undefined ? { input: opts.input } : { stdin: 'ignore' }),
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode ?? -1 };
}

/**
 * A user's shell: a temporary home, a working directory, and `docsctl` on the PATH (the built
 * binary); `env` is the whole environment to give the shell.
 */
/** What `docsctl serve --json` prints first: where the sandbox listens and its admin token. */
export interface ServeInfo {
  url: string;
  token: string;
  organizationId: string;
  [k: string]: unknown;
}

/**
 * `docsctl serve --memory --port 0 --json ARGS` started as a process (the built binary) with `env`
 * alone: its first line, once it listens, and `stop` (SIGTERM, awaited). Fails with what it printed
 * if it exits first.
 */
export async function serveJson(
  args: string[],
  env: Record<string, string>,
): Promise<{ info: ServeInfo; child: ReturnType<typeof execa>; stop: () => Promise<void> }> {
  const child = execa('node', [BIN, 'serve', '--memory', '--port', '0', '--json', ...args], { env, extendEnv: false, reject: false });
  const stop = async () => {
    child.kill('SIGTERM');
    await child;
  };
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', () => reject(new Error(`serve exited: ${out}${String(child.stderr ?? '')}`)));
  });
  return { info: JSON.parse(line) as ServeInfo, child, stop };
}

export function userShell(prefix = 'docsctl-shell-') {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const bin = join(home, 'bin');
  const work = join(home, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'docsctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(bin, 'docsctl'), 0o755);
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, DOCSCTL_CONFIG_DIR: join(home, 'config'), LANG: 'C.UTF-8' };
  return { home, work, env };
}

/** A port free on 127.0.0.1 a moment ago (for what must be given a port: another process may take it since). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });
}

export interface Sandbox {
  server: RunningServer;
  /** Temp dir used as HOME and DOCSCTL_CONFIG_DIR. */
  home: string;
  /** Token of a default-seed user by role name (admin, read, guest, outsider...). */
  token(role: string): string;
  /** The environment `run` gives docsctl: authenticated as the admin (or `opts.as`), the temp home, no retries. */
  env(opts?: RunOptions): Record<string, string | undefined>;
  /** docsctl authenticated by environment as the admin (or `opts.as`). */
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Run and parse stdout as JSON; fails the test with stderr when the exit code is not 0. */
  json<T = any>(args: string[], opts?: RunOptions): Promise<T>;
  /** A raw request straight to the sandbox (to set up or inspect state without the CLI). */
  request(method: string, path: string, body?: unknown, role?: string): Promise<{ status: number; body: any }>;
}

/**
 * Start one sandbox for the test file, reset it before each test. Call at the top of a describe
 * or file; the returned object fills in during beforeAll.
 *
 * Every answer the sandbox gives during a test, and every request the CLI sends, is checked against
 * the official document (test/helpers/official.ts): a test fails when one does not validate.
 */
export function useSandbox(opts: ServerOptions = {}): Sandbox {
  return useSandboxWith(opts, (_sb, args, env, input) => docsctl(args, env, input !== undefined ? { input } : {}));
}

/** How a harness runs docsctl against the sandbox: a process (here) or main() in process (inprocess.ts). */
export type Runner = (sb: Sandbox, args: string[], env: Record<string, string | undefined>, input: string | undefined) => Promise<RunResult>;

/** useSandbox with docsctl run by `runner`; `ready` runs once the sandbox is up. */
export function useSandboxWith<S extends Sandbox = Sandbox>(opts: ServerOptions, runner: Runner, ready?: (sb: S) => Promise<void>): S {
  const sb = {} as S;
  let official: { take(): string[] } | undefined;
  beforeAll(async () => {
    sb.server = await startServer({ port: 0, ...opts });
    await ready?.(sb);
    official = watchAnswers(sb.server.app);
    sb.home = mkdtempSync(join(tmpdir(), 'docsctl-test-'));
  });
  afterEach(() => {
    expect(official?.take() ?? [], 'sandbox answers and CLI requests against the official document').toEqual([]);
  });
  afterAll(async () => {
    await sb.server?.close();
    if (sb.home) rmSync(sb.home, { recursive: true, force: true });
  });
  beforeEach(() => {
    sb.server.reset();
    rmSync(join(sb.home, 'config.json'), { force: true });
  });
  sb.token = (role: string) => {
    const u = sb.server.users.find((x) => x.id === `u-${role}`);
    if (!u) throw new Error(`no default user for role ${role}`);
    return u.token;
  };
  sb.env = (o = {}) => ({
    HOME: sb.home,
    DOCSCTL_CONFIG_DIR: sb.home,
    DOCSCTL_API_URL: sb.server.url,
    DOCSCTL_TOKEN: sb.token(o.as ?? 'admin'),
    DOCSCTL_ORG: sb.server.organizationId,
    DOCSCTL_MAX_RETRIES: '0',
    ...o.env,
  });
  sb.run = (args, o = {}) => runner(sb, args, sb.env(o), o.input);
  sb.json = async (args, o) => {
    const r = await sb.run([...args, '--json'], o);
    if (r.exitCode !== 0) throw new Error(`docsctl ${args.join(' ')} exited ${r.exitCode}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  sb.request = async (method, path, body, role = 'admin') => {
    const res = await sb.server.app.handle({
      method,
      url: path,
      headers: { authorization: `Bearer ${sb.token(role)}`, host: new URL(sb.server.url).host },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = res.body?.toString() ?? '';
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return sb;
}
