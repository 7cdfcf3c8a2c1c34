/**
 * A real terminal for tests: docsctl runs in a tmux pane (a pseudo-terminal), keys are sent with
 * send-keys and the screen is read with capture-pane. Each terminal has its own tmux server socket.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { BIN } from './cli.js';

/** Whether a program is installed (tests that need it are skipped, and say so, when it is not). */
export function installed(program: string, versionFlag = '--version'): boolean {
  try {
    execFileSync(program, [versionFlag], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const HAS_TMUX = installed('tmux', '-V');

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class Terminal {
  private readonly socket = `docsctl-test-${randomBytes(4).toString('hex')}`;

  private constructor() {}

  /**
   * Start `docsctl ARGS` in a fresh pane (120×40 unless `columns` says); the pane prints `[exit N]` when it ends.
   * The shell outlives a Ctrl-C of docsctl, as a user's interactive shell does (its trap is not docsctl's).
   */
  static start(args: string[], env: Record<string, string>, columns = 120): Terminal {
    return Terminal.run(`trap : INT; node ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}; echo "[exit $?]"; sleep 60`, env, columns);
  }

  /** Run a shell command line in a fresh pane with only `env` (plus TERM, and PATH unless given). */
  static run(command: string, env: Record<string, string>, columns = 120): Terminal {
    const t = new Terminal();
    const exports = Object.entries({ PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env })
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ');
    t.tmux('new-session', '-d', '-x', String(columns), '-y', '40', '-s', 'main', `env -i ${exports} sh -c ${shellQuote(command)}`);
    return t;
  }

  /** The visible screen with its colours (SGR sequences kept), trailing blanks trimmed. */
  coloured(): string {
    return this.tmux('capture-pane', '-e', '-p', '-t', 'main').replace(/\s+$/, '');
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** The visible screen, trailing blanks trimmed. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main').replace(/\s+$/, '');
  }

  /** Wait until the screen matches `pattern` (or fail with the screen after `timeoutMs`). */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen();
      if (pattern.test(s)) return s;
      if (Date.now() > end) throw new Error(`terminal never showed ${pattern}; screen:\n${s}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Everything the pane has shown, what scrolled off the screen too, wrapped lines joined. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'main').replace(/\s+$/, '');
  }

  /** Whether the pane shows its cursor (a program that hid it, `\x1b[?25l`, and ended without showing it again leaves it hidden). */
  cursorVisible(): boolean {
    return this.tmux('display-message', '-p', '-t', 'main', '#{cursor_flag}').trim() === '1';
  }

  /** Type text (literally) or press named keys (`Enter`, `Down`, `C-c`). */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Wait for the command to end; its exit code. */
  async exitCode(timeoutMs = 15_000): Promise<number> {
    const s = await this.waitFor(/\[exit \d+\]/, timeoutMs);
    return Number(/\[exit (\d+)\]/.exec(s)![1]);
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
