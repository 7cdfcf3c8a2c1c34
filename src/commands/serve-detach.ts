/**
 * `docsctl serve --detach` and `docsctl serve stop`: the sandbox in the background, for CI.
 *
 * `--detach` runs the same binary again (`serve` with the same flags but --detach) in a session of
 * its own, its stdout and stderr to a log file, with an IPC channel. That child starts as `serve`
 * does; once it listens it writes a record of itself, `<config dir>/sandboxes/<port>.json` (its pid,
 * URL, log, and a random control token, mode 0600), prints its start lines to the log, sends them on
 * the channel and lets the channel go. The parent prints them and exits 0, the sandbox running on.
 * A child that fails before that exits with its error in the log: the parent prints it and exits
 * with the child's code. No polling: the parent waits for a message or an exit (bounded).
 *
 * `serve stop` reads the record of the port and asks the sandbox there to stop, `POST
 * /_sandbox/stop` with the control token, which only that sandbox holds (another server on the port,
 * or a sandbox started otherwise, refuses it and is left alone). The sandbox answers with its pid,
 * closes its server (and database, with --data), removes its record and exits; `stop` waits until
 * that pid has exited. No signal is sent to any process, and nothing is killed by name.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { kebab, type FlagSpec } from '../cli/spec.js';
import type { Context } from '../cli/context.js';
import { CliError, EXIT, QuietExit, UsageError } from '../cli/errors.js';
import { configFile } from '../config/profiles.js';

/** The bounds of --detach and stop, each changed by the variable named beside it (in seconds). */
export const DETACH_LIMITS = {
  /** How long `serve --detach` waits for the sandbox to listen (DOCSCTL_SERVE_START_TIMEOUT). */
  startTimeoutMs: 60_000,
  /** How long `serve stop` waits for the sandbox's process to end once asked (DOCSCTL_SERVE_STOP_TIMEOUT). */
  stopTimeoutMs: 30_000,
} as const;

/** Set by the parent in the child's environment: the child's log (JSON `{log, rename}`). */
const CHILD_ENV = 'DOCSCTL_SERVE_DETACHED';

/** What `serve --detach` records of the sandbox it started. */
export interface DetachedRecord {
  pid: number;
  port: number;
  url: string;
  /** The control token: `POST /_sandbox/stop` takes it (not the admin's token). */
  control: string;
  log: string;
  startedAt: string;
}

/** Where the records of detached sandboxes are: `sandboxes/` in the config folder. */
export function recordDir(env: NodeJS.ProcessEnv): string {
  return join(dirname(configFile(env.DOCSCTL_CONFIG_DIR)), 'sandboxes');
}

function recordFile(env: NodeJS.ProcessEnv, port: number): string {
  return join(recordDir(env), `${port}.json`);
}

/** A number of seconds from `name` in the environment, in ms; `fallback` when unset. */
function secondsSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0) || n > 86_400)
    throw new UsageError(
      `${name}: must be a number of seconds greater than 0 and at most 86400 (got ${JSON.stringify(raw)})`,
      `e.g. ${name}=${fallback / 1000}, or unset it for the default`,
    );
  return Math.round(n * 1000);
}

/**
 * `serve --detach`: start the sandbox in the background with these flags (`specs`: serve's own, to
 * pass them on), print what it printed once it listens. Its failure to start is this command's.
 */
export async function startDetached(ctx: Context, flags: Record<string, unknown>, specs: Record<string, FlagSpec>): Promise<void> {
  const timeoutMs = secondsSetting(ctx.env, 'DOCSCTL_SERVE_START_TIMEOUT', DETACH_LIMITS.startTimeoutMs);
  const dir = recordDir(ctx.env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The default log gets the port's name once the sandbox listens (the port may be 0 until then, and
  // the log of a sandbox running on the port must not be cut by a start that fails).
  const log = typeof flags.log === 'string' ? resolve(flags.log) : join(dir, `starting-${process.pid}.log`);
  let fd: number;
  try {
    fd = openSync(log, 'a', 0o600);
  } catch (e) {
    throw new UsageError(`--log: cannot write ${log}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const from = fstatSync(fd).size;
  const args: string[] = [];
  for (const [key, spec] of Object.entries(specs)) {
    const value = flags[key];
    if (key === 'detach' || key === 'log' || value === undefined || value === false) continue;
    if (spec.type === 'list') for (const v of value as string[]) args.push(`--${kebab(key)}`, v);
    else args.push(`--${kebab(key)}`, ...(spec.type === 'boolean' ? [] : [String(value)]));
  }
  if (ctx.globals.verbose) args.push('--verbose');
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], 'serve', ...args], {
    detached: true,
    stdio: ['ignore', fd, fd, 'ipc'],
    windowsHide: true,
    env: { ...ctx.env, [CHILD_ENV]: JSON.stringify({ log, rename: typeof flags.log !== 'string' }) },
  });
  closeSync(fd);
  type Outcome = { ready: string } | { exit: number | null; signal: NodeJS.Signals | null } | { failed: Error } | 'timeout' | 'cancelled';
  let timer: NodeJS.Timeout | undefined;
  let cancel = () => {};
  const outcome = await new Promise<Outcome>((done) => {
    timer = setTimeout(() => done('timeout'), timeoutMs);
    cancel = () => done('cancelled');
    process.once('SIGINT', cancel);
    process.once('SIGTERM', cancel);
    child.on('message', (m: { ready?: unknown }) => {
      if (typeof m?.ready === 'string') done({ ready: m.ready });
    });
    child.once('exit', (exit, signal) => done({ exit, signal }));
    child.once('error', (failed) => done({ failed }));
  }).finally(() => {
    clearTimeout(timer);
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  });
  if (typeof outcome === 'object' && 'ready' in outcome) {
    if (child.connected) child.disconnect();
    child.unref();
    ctx.out(outcome.ready);
    return;
  }
  if (outcome === 'timeout' || outcome === 'cancelled') {
    // Our own child, which has not reported yet: stopped by its pid (a record it wrote, it removes as it stops).
    child.kill('SIGTERM');
    if (outcome === 'cancelled') throw new CliError('cancelled: the sandbox was stopped before it started', EXIT.CANCELLED);
    throw new CliError(
      `the sandbox did not start within ${timeoutMs / 1000} s; it was stopped (its output: ${log})`,
      EXIT.FAILED,
      'raise DOCSCTL_SERVE_START_TIMEOUT (seconds), or read the log',
    );
  }
  if ('failed' in outcome) throw new CliError(`cannot start the sandbox: ${outcome.failed.message}`, EXIT.FAILED);
  // It exited before listening: its error is in the log, as it would have been on stderr.
  const text = readFrom(log, from);
  if (typeof flags.log !== 'string') rmSync(log, { force: true });
  if (text) ctx.info(text);
  throw text && outcome.exit
    ? new QuietExit(outcome.exit)
    : new CliError(`the sandbox exited before it listened (${outcome.signal ?? `exit ${outcome.exit}`})${text ? '' : ', without a word'}`, EXIT.FAILED);
}

/** The text of `file` from byte `from` on (what the child wrote there). */
function readFrom(file: string, from: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size - from;
    if (size <= 0) return '';
    const buf = Buffer.alloc(size);
    const n = readSync(fd, buf, 0, size, from);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The sandbox as the child of `serve --detach` (run by it, with its IPC channel), or undefined in
 * the foreground.
 */
export function detachedChild(env: NodeJS.ProcessEnv): DetachedChild | undefined {
  const raw = env[CHILD_ENV];
  if (raw === undefined || typeof process.send !== 'function') return undefined;
  const { log, rename } = JSON.parse(raw) as { log: string; rename: boolean };
  return new DetachedChild(env, log, rename);
}

export class DetachedChild {
  /** The control token of `POST /_sandbox/stop`. */
  readonly token = randomBytes(24).toString('base64url');
  private record: string | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    public log: string,
    private readonly rename: boolean,
  ) {}

  /** Once listening: the record of this sandbox, and the log named after its port. */
  register(url: string): void {
    const port = Number(new URL(url).port);
    if (this.rename) {
      const named = join(recordDir(this.env), `${port}.log`);
      try {
        renameSync(this.log, named);
        this.log = named;
      } catch {
        // e.g. a system that cannot rename an open file: the log keeps its first name
      }
    }
    const record: DetachedRecord = { pid: process.pid, port, url, control: this.token, log: this.log, startedAt: new Date().toISOString() };
    this.record = recordFile(this.env, port);
    const tmp = `${this.record}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.record);
  }

  /** What `serve` printed, to the parent (which prints it and exits); the channel is let go. */
  ready(output: string): Promise<void> {
    return new Promise((done) => {
      process.send!({ ready: output, log: this.log }, undefined, {}, () => {
        process.disconnect?.();
        done();
      });
    });
  }

  /** On the way out: the record goes, if it is still this sandbox's. */
  done(): void {
    if (!this.record) return;
    try {
      if ((JSON.parse(readFileSync(this.record, 'utf8')) as DetachedRecord).pid === process.pid) rmSync(this.record, { force: true });
    } catch {
      // gone already
    }
  }
}

/** `serve stop --port P`: stop the sandbox that `serve --detach` started on that port. */
export async function stopDetached(ctx: Context, port: number): Promise<void> {
  const timeoutMs = secondsSetting(ctx.env, 'DOCSCTL_SERVE_STOP_TIMEOUT', DETACH_LIMITS.stopTimeoutMs);
  const file = recordFile(ctx.env, port);
  const startOne = 'a sandbox started without --detach stops with Ctrl-C; docsctl serve --detach --port P starts one in the background';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliError(`cannot read ${file}: ${(e as Error).message}`, EXIT.FAILED);
    throw new CliError(`no sandbox started with --detach runs on port ${port} (none recorded in ${dirname(file)})`, EXIT.NOT_FOUND, startOne);
  }
  let record: DetachedRecord;
  try {
    record = JSON.parse(text) as DetachedRecord;
    if (!Number.isInteger(record.pid) || typeof record.url !== 'string' || typeof record.control !== 'string')
      throw new Error('not a record of docsctl serve --detach');
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`, EXIT.FAILED, 'remove the file if no sandbox runs on that port');
  }
  const { NetworkError } = await import('../client/errors.js');
  const api = await ctx.makeApi(record.url, record.control, { maxRetries: 0, timeoutMs: 10_000 });
  let answer;
  try {
    answer = await api.http.exchange({ method: 'POST', path: '/_sandbox/stop' });
  } catch (e) {
    if (!(e instanceof NetworkError)) throw e;
    rmSync(file, { force: true });
    throw new CliError(
      `no sandbox runs on port ${port}: the one started with --detach (pid ${record.pid}) is gone (${e.message}); its record was removed`,
      EXIT.NOT_FOUND,
      startOne,
    );
  } finally {
    await api.close();
  }
  const pid = (answer.json as { pid?: unknown } | undefined)?.pid;
  if (answer.status !== 202 || typeof pid !== 'number') {
    // The server on that URL does not hold the record's token: the sandbox that wrote it is gone.
    rmSync(file, { force: true });
    throw new CliError(
      `no sandbox started with --detach runs on port ${port}: ${record.url} is another server (it answered ${answer.status} to the stop), left alone; the record of pid ${record.pid} was removed`,
      EXIT.NOT_FOUND,
    );
  }
  const end = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > end) {
      throw new CliError(
        `asked the sandbox on port ${port} (pid ${pid}) to stop, but it is still running after ${timeoutMs / 1000} s`,
        EXIT.FAILED,
        `its output: ${record.log}; DOCSCTL_SERVE_STOP_TIMEOUT (seconds) waits longer`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  // It removes its record as it exits; one that could not is removed here (if no other took its place).
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as DetachedRecord).pid === pid) rmSync(file, { force: true });
  } catch {
    // removed by the sandbox
  }
  ctx.info(`stopped the sandbox on port ${port} (pid ${pid})`);
}

/**
 * Whether process `pid` is still running (signal 0 sends nothing: it only checks). A process that
 * has exited but that its parent (init, for a detached one) has not reaped yet is not: where /proc
 * says so (Linux, state Z).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch (e) {
    // No /proc here (macOS, Windows): signal 0 is the answer. Gone since then: not running.
    return (e as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
}
