/**
 * What a command's `run` receives: the resolved globals, output writers, and lazy access to the
 * API client, the organization, the profile store, prompts and confirmations. Commands never touch
 * undici, conf, chalk or process.stdout themselves.
 */
import type { Dispatcher } from 'undici';
import type { Api, ApiOptions } from '../client/api.js';
import { RunMemory } from '../client/errors.js';
import { CLIENT_LIMITS, SETTING_MAXIMA } from '../client/limits.js';
import { checkApiUrl, resolveAuth, type ResolvedAuth } from '../config/profiles.js';
import { AuthError, CliError, EXIT, UsageError } from './errors.js';
import { displayWidth } from './text.js';
import { INPUT_LIMITS, INPUT_MAXIMA, INPUT_VARIABLES, JQ_BOUNDS, type JqBounds } from './limits.js';
import { terminalLine, terminalText } from './escape.js';
import type { Manifest } from './manifest.js';

export interface Globals {
  profile?: string;
  org?: string;
  verbose: boolean;
  /** False with --no-input, with CI set, or without a TTY. */
  interactive: boolean;
  color: boolean;
  timeout?: number;
}

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether stdin is a terminal, when known without opening it (process.stdin costs a stream). */
  stdinIsTTY?: boolean;
  env: NodeJS.ProcessEnv;
  /** Whether the reader of stdout has gone (EPIPE: `docsctl … | head`), when the process knows it. */
  stdoutClosed?: () => boolean;
  /** Where the API client sends its requests instead of the network (an undici Dispatcher; tests answer in process). */
  dispatcher?: Dispatcher;
  /** A minor garbage collection, when the process entry gives one (the API client's downloads call it: HttpOptions.collectGarbage). */
  collectGarbage?: () => void;
}

/**
 * Thrown by `out()` once the reader of stdout has gone (`| head`): the command stops where it is
 * (a list stops paging) and docsctl exits 0 without a word, as coreutils and gh do.
 */
export class StdoutClosed extends Error {
  constructor() {
    super('stdout closed');
    this.name = 'StdoutClosed';
  }
}

/** One choice of a prompt: the value returned, the text shown, a dim description. */
export interface Choice {
  value: string;
  name: string;
  description?: string;
}

/** Asks for a missing argument by its name (`space`, `role`…); undefined when it has no way to. */
export type ArgPicker = (ctx: Context, name: string, args: Record<string, string | undefined>) => Promise<string | undefined>;

export interface Spinner {
  /** Change the text while it spins. */
  update(text: string): void;
  /** Stop and clear the line; print `final` in its place when given. */
  stop(final?: string): void;
}

/** Upper bounds of the HTTP settings: a day for a timeout, and retries that end within the retry budget anyway. */
const MAX_SECONDS = 86_400;
const MAX_RETRIES = 100;

/** `raw` (a flag's number or a variable's text) as a number of seconds, or a UsageError naming `name`. */
function seconds(name: string, raw: string | number | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(n > 0) || n > MAX_SECONDS) {
    throw new UsageError(
      `${name}: must be a number of seconds greater than 0 and at most ${MAX_SECONDS} (got ${quote(raw)})`,
      name.startsWith('--') ? 'e.g. --timeout 60' : `e.g. ${name}=60, or unset it for the default`,
    );
  }
  return n;
}

/** `raw` as a whole number from `min` to `max`, or a UsageError naming `name` (`example` in its hint). */
function wholeNumber(
  name: string,
  raw: string | undefined,
  max: number,
  { min = 0, example = 3 }: { min?: number; example?: number } = {},
): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${name}: must be a whole number from ${min} to ${max} (got ${quote(raw)})`, `e.g. ${name}=${example}, or unset it for the default`);
  return n;
}

function quote(v: string | number): string {
  const s = String(v);
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A line cut to fit `columns - 1` columns (wide characters count two; what is cut ends with `…`). */
function fitLine(line: string, columns: number | undefined): string {
  if (!columns || displayWidth(line) <= columns - 1) return line;
  let used = 0;
  let out = '';
  for (const ch of line) {
    const w = displayWidth(ch);
    if (used + w > columns - 2) break;
    used += w;
    out += ch;
  }
  return `${out}…`;
}

/**
 * DOCSCTL_FORCE_TTY: terminal output (tables, colour, short times) on a pipe, as gh's GH_FORCE_TTY.
 * Any value but empty, `0` or `false` forces it; a number is also the terminal's width in columns.
 */
function forcedTty(env: NodeJS.ProcessEnv): boolean {
  const v = env.DOCSCTL_FORCE_TTY;
  return v !== undefined && v !== '' && !/^(0|false|no)$/i.test(v);
}

/**
 * FORCE_COLOR (the convention chalk and Node follow): colour forced, as CLICOLOR_FORCE, and nothing
 * more; `0` or `false` turns colour off, as in chalk and Node. It never asks for the
 * terminal's output: CI systems export it for other tools' logs, and a script reading docsctl's TSV
 * through a pipe must get TSV still.
 */
function forcedColor(env: NodeJS.ProcessEnv): boolean {
  const v = env.FORCE_COLOR;
  return v !== undefined && !colorOff(v);
}

function colorOff(forceColor: string | undefined): boolean {
  return forceColor !== undefined && /^(0|false)$/i.test(forceColor);
}

/**
 * Whether docsctl's output is in colour, as gh decides it (go-gh's term.FromEnv): never with
 * `--no-color` (`flag` false); with DOCSCTL_FORCE_TTY, unless NO_COLOR (not empty) or CLICOLOR=0 say
 * no (or FORCE_COLOR=0); else where colour is forced, by CLICOLOR_FORCE (not empty, not `0`: gh's) or
 * FORCE_COLOR (chalk's and Node's), even with NO_COLOR; else on a terminal, unless NO_COLOR,
 * CLICOLOR=0 or FORCE_COLOR=0 (or `false`) say no.
 * Colour shows only in the terminal's output (tables, key/value lines, trees), never in TSV or JSON:
 * CLICOLOR_FORCE or FORCE_COLOR alone keep TSV (uncoloured) on a pipe, as gh does; only
 * DOCSCTL_FORCE_TTY asks for the terminal's output there.
 */
export function colourOn(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean, flag = true): boolean {
  if (!flag) return false;
  const disabled = Boolean(env.NO_COLOR) || env.CLICOLOR === '0' || colorOff(env.FORCE_COLOR);
  if (forcedTty(env)) return !disabled;
  const forced = (Boolean(env.CLICOLOR_FORCE) && env.CLICOLOR_FORCE !== '0') || forcedColor(env);
  return forced || (!disabled && stdoutIsTTY);
}

export class Context {
  /** Set by main: asks for missing arguments by name, on a TTY only. */
  pickArg?: ArgPicker;
  private apiPromise?: Promise<Api>;
  private authPromise?: Promise<ResolvedAuth>;
  private readonly closers: (() => Promise<void> | void)[] = [];
  /**
   * True when stdout is a terminal, or DOCSCTL_FORCE_TTY says to act as if: tables (in colour where
   * Globals.color says so) instead of TSV. FORCE_COLOR and CLICOLOR_FORCE do not: they force colour only.
   */
  readonly tty: boolean;
  /**
   * What this run remembers for its error messages: the tokens of every client it builds (masked
   * wherever they show) and the last answers read (a malformed one is blamed, not docsctl). This
   * run's only: nothing of it is kept in a module, so another run in the process never sees it.
   */
  readonly run = new RunMemory();

  constructor(
    readonly globals: Globals,
    readonly io: Io,
    /** The command tree as data (for completion and docs generation). */
    readonly manifest?: Manifest,
  ) {
    this.tty = Boolean(io.stdout.isTTY) || forcedTty(io.env);
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  /**
   * The terminal's width in columns: the terminal's own; else a width in DOCSCTL_FORCE_TTY (a number
   * of at least 20: `1` only says yes), else COLUMNS; else 80.
   */
  get width(): number {
    const n = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) && Number(v) >= 20 ? Number(v) : undefined);
    return (this.io.stdout.isTTY ? this.io.stdout.columns : undefined) ?? n(this.env.DOCSCTL_FORCE_TTY) ?? n(this.env.COLUMNS) ?? 80;
  }

  /** Whether the reader of stdout has gone. */
  get stdoutClosed(): boolean {
    return this.io.stdoutClosed?.() ?? false;
  }

  /**
   * Before more work for stdout (the next page of a list): waits while what was written is still
   * waiting for its reader (so memory stays flat, whatever the reader's pace), then StdoutClosed if the
   * reader has gone (a write to a closed pipe is reported a moment after it).
   */
  async stillRead(): Promise<void> {
    const out = this.io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
    if (out.writableNeedDrain && !out.destroyed && !this.stdoutClosed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('error', done);
          out.off('close', done);
          resolve();
        };
        out.once('drain', done);
        out.once('error', done);
        out.once('close', done);
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (this.stdoutClosed) throw new StdoutClosed();
  }

  /** Data to stdout (text, or bytes: `cr pdf --out -`); StdoutClosed once nobody reads it any more. */
  out(text: string | Uint8Array): void {
    if (this.stdoutClosed) throw new StdoutClosed();
    this.io.stdout.write(text);
  }

  /**
   * A message to stderr (never data). Messages name things by their titles from the service: control
   * characters are escaped (line breaks and tabs kept), so a message carries no colour of its own.
   */
  info(text: string): void {
    const safe = terminalText(text);
    this.io.stderr.write(safe.endsWith('\n') ? safe : safe + '\n');
  }

  debug(text: string): void {
    if (this.globals.verbose) this.info(`* ${text}`);
  }

  auth(): Promise<ResolvedAuth> {
    this.authPromise ??= resolveAuth(this.env, this.globals);
    return this.authPromise;
  }

  /**
   * The API client, built on first use. Not authenticated → AuthError (exit 3); an API URL or an
   * HTTP setting that cannot be used → UsageError naming the variable (exit 2), nothing sent.
   */
  api(): Promise<Api> {
    this.apiPromise ??= (async () => {
      const auth = await this.auth();
      if (!auth.apiUrl || !auth.token) throw new AuthError();
      const bad = checkApiUrl(auth.apiUrl);
      if (bad) {
        if (auth.apiUrlSource === 'environment') throw new UsageError(`DOCSCTL_API_URL: ${bad}`);
        throw new UsageError(
          `the API URL of profile ${auth.profileName} (${auth.configPath ?? 'config.json'}): ${bad}`,
          `log in again: docsctl --profile ${auth.profileName} auth login --api-url URL`,
        );
      }
      return this.makeApi(auth.apiUrl, auth.token);
    })();
    return this.apiPromise;
  }

  /**
   * The HTTP settings from `--timeout` and the environment (DOCSCTL_TIMEOUT, DOCSCTL_CONNECT_TIMEOUT,
   * DOCSCTL_MAX_RETRIES, DOCSCTL_MAX_RESPONSE_BYTES, DOCSCTL_MAX_PAGES), checked: a value that is not
   * one is a UsageError naming it. An empty variable is unset.
   */
  httpSettings(): Partial<ApiOptions> {
    const env = this.env;
    const timeoutS = this.globals.timeout !== undefined ? seconds('--timeout', this.globals.timeout) : seconds('DOCSCTL_TIMEOUT', env.DOCSCTL_TIMEOUT);
    const connectS = seconds('DOCSCTL_CONNECT_TIMEOUT', env.DOCSCTL_CONNECT_TIMEOUT);
    const retries = wholeNumber('DOCSCTL_MAX_RETRIES', env.DOCSCTL_MAX_RETRIES, MAX_RETRIES);
    const maxBytes = wholeNumber('DOCSCTL_MAX_RESPONSE_BYTES', env.DOCSCTL_MAX_RESPONSE_BYTES, SETTING_MAXIMA.maxResponseBytes, {
      min: 1,
      example: CLIENT_LIMITS.maxResponseBytes * 2,
    });
    const maxPages = wholeNumber('DOCSCTL_MAX_PAGES', env.DOCSCTL_MAX_PAGES, SETTING_MAXIMA.maxPages, { min: 1, example: CLIENT_LIMITS.maxPages * 10 });
    return {
      ...(timeoutS !== undefined ? { timeoutMs: Math.round(timeoutS * 1000) } : {}),
      ...(connectS !== undefined ? { connectTimeoutMs: Math.round(connectS * 1000) } : {}),
      ...(retries !== undefined ? { maxRetries: retries } : {}),
      ...(maxBytes !== undefined ? { maxResponseBytes: maxBytes } : {}),
      ...(maxPages !== undefined ? { maxPages } : {}),
    };
  }

  /**
   * The most bytes docsctl reads of an input file or stdin (`inputBytes`: DOCSCTL_MAX_INPUT_BYTES), or
   * of a seed (`seedBytes`: DOCSCTL_MAX_SEED_BYTES), checked as the HTTP settings are.
   */
  maxBytes(of: keyof typeof INPUT_LIMITS): number {
    const name = INPUT_VARIABLES[of];
    return wholeNumber(name, this.env[name], INPUT_MAXIMA[of], { min: 1, example: INPUT_LIMITS[of] * 2 }) ?? INPUT_LIMITS[of];
  }

  /**
   * The bounds of `--jq` from DOCSCTL_JQ_TIMEOUT (seconds) and DOCSCTL_JQ_MAX_MEMORY (MiB), checked as
   * the HTTP settings are: a value that is not one is a UsageError naming it. An empty variable is unset.
   */
  jqBounds(): JqBounds {
    return {
      timeoutSeconds: seconds('DOCSCTL_JQ_TIMEOUT', this.env.DOCSCTL_JQ_TIMEOUT) ?? JQ_BOUNDS.timeoutSeconds,
      maxMemoryMib:
        wholeNumber('DOCSCTL_JQ_MAX_MEMORY', this.env.DOCSCTL_JQ_MAX_MEMORY, JQ_BOUNDS.maxMemoryMibLimit, { min: JQ_BOUNDS.minMemoryMib, example: 512 }) ??
        JQ_BOUNDS.maxMemoryMib,
    };
  }

  /**
   * While a long command runs, Ctrl-C (SIGINT) says `message` on stderr (what was done, how to go on)
   * and exits 130, the spinner's line cleared first. Returns what ends it (call it when the work is done).
   */
  onInterrupt(message: string): () => void {
    const interrupted = () => {
      this.info(message);
      process.exit(EXIT.CANCELLED);
    };
    process.once('SIGINT', interrupted);
    return () => process.off('SIGINT', interrupted);
  }

  /** Run `fn` when the command ends, however it ends (stops what the command started: jq's thread). */
  onClose(fn: () => Promise<void> | void): void {
    this.closers.push(fn);
  }

  /** A client for an explicit URL and token (login verifies a token before saving it). */
  async makeApi(apiUrl: string, token: string, overrides: Partial<ApiOptions> = {}): Promise<Api> {
    const settings = this.httpSettings();
    const { Api } = await import('../client/api.js');
    return new Api({
      baseUrl: apiUrl,
      token,
      ...settings,
      ...(this.globals.verbose ? { trace: (line: string) => this.info(`* ${line}`) } : {}),
      ...(this.io.dispatcher ? { dispatcher: this.io.dispatcher } : {}),
      ...(this.io.collectGarbage ? { collectGarbage: this.io.collectGarbage } : {}),
      ...overrides,
      run: this.run,
    });
  }

  /** The organization to act on: --org, DOCSCTL_ORG, or the profile's default. */
  async org(): Promise<string> {
    const auth = await this.auth();
    if (!auth.org) throw new UsageError('no organization selected', 'pass --org ID, set DOCSCTL_ORG, or run docsctl auth login');
    return auth.org;
  }

  /**
   * Ask before a destructive action. On a TTY the user confirms; otherwise `--yes` is required.
   */
  async confirm(message: string, yes: boolean | undefined): Promise<void> {
    if (yes) return;
    if (!this.globals.interactive) {
      throw new UsageError(`${message} — refusing without confirmation`, 'pass --yes to confirm (no prompt without a TTY, with CI set, or with --no-input)');
    }
    const { confirm } = await import('@inquirer/prompts');
    const ok = await confirm({ message: terminalLine(message), default: false }, { output: this.io.stderr, input: this.io.stdin });
    if (!ok) throw new CliError('cancelled: nothing was changed', EXIT.CANCELLED);
  }

  /** Prompts, loaded on first use; only when interactive. */
  async prompts() {
    if (!this.globals.interactive) throw new UsageError('cannot prompt: not interactive');
    return import('@inquirer/prompts');
  }

  /**
   * Ask the user to pick one of `choices` (loaded behind a spinner). More than a screenful gets
   * a search box that filters by name, id and description as the user types.
   */
  async choose(message: string, load: () => Promise<Choice[]>, what = 'items'): Promise<string> {
    const prompts = await this.prompts();
    const spin = this.spinner(`loading ${what}…`);
    let choices: Choice[];
    try {
      choices = await load();
    } finally {
      spin.stop();
    }
    if (choices.length === 0) throw new UsageError(`${message}: there are no ${what} to choose from`);
    // Names and descriptions are titles from the service: shown escaped, on one line.
    choices = choices.map((c) => ({ ...c, name: terminalLine(c.name), ...(c.description !== undefined ? { description: terminalLine(c.description) } : {}) }));
    const io = { output: this.io.stderr, input: this.io.stdin };
    if (choices.length <= 12) return prompts.select({ message, choices, pageSize: 12 }, io);
    return prompts.search<string>(
      {
        message,
        pageSize: 12,
        source: (term) => {
          const t = (term ?? '').toLowerCase();
          return choices.filter((c) => !t || `${c.name} ${c.value} ${c.description ?? ''}`.toLowerCase().includes(t));
        },
      },
      io,
    );
  }

  /** Await `work` with a spinner showing `text` (on a terminal only). */
  async spinning<T>(text: string, work: Promise<T>): Promise<T> {
    const spin = this.spinner(text);
    try {
      return await work;
    } finally {
      spin.stop();
    }
  }

  /**
   * A spinner on stderr while something long runs, only when stderr is a terminal (and not in CI);
   * otherwise it does nothing, so scripts and logs see no control characters.
   */
  spinner(text: string): Spinner {
    const err = this.io.stderr;
    if (!err.isTTY || this.env.CI) return { update() {}, stop() {} };
    let frame = 0;
    let current = terminalLine(text);
    const started = Date.now();
    // After a second, the time spent so far, so a long wait shows it is still going. The line is cut to
    // the terminal's width: one that wrapped would leave its first rows behind at each redraw.
    const draw = () => {
      const secs = Math.floor((Date.now() - started) / 1000);
      err.write(`\r\x1b[2K${fitLine(`${FRAMES[frame++ % FRAMES.length]} ${current}${secs > 0 ? ` · ${secs}s` : ''}`, err.columns)}`);
    };
    draw();
    const timer = setInterval(draw, 80);
    timer.unref();
    // Ctrl-C while it spins: the line goes, then (unless the command handles the interrupt itself) exit 130.
    const interrupted = () => {
      clearInterval(timer);
      err.write('\r\x1b[2K');
      if (process.listenerCount('SIGINT') === 0) process.exit(EXIT.CANCELLED);
    };
    process.once('SIGINT', interrupted);
    return {
      update(t) {
        current = terminalLine(t);
      },
      stop(final) {
        clearInterval(timer);
        process.off('SIGINT', interrupted);
        err.write(`\r\x1b[2K${final ? `${final}\n` : ''}`);
      },
    };
  }

  async close(): Promise<void> {
    for (const fn of this.closers.splice(0)) await fn();
    if (this.apiPromise) await (await this.apiPromise.catch(() => undefined))?.close();
  }
}
