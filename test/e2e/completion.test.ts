/**
 * Completion scripts: generated from the command tree, kept in completions/ (in sync), and loaded
 * into a real bash that completes commands, flags, enum values and ids from the sandbox.
 */
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, useSandbox } from '../helpers/cli.js';
import { HAS_TMUX, installed, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();
const root = resolve(import.meta.dirname, '../..');

/** Complete `line` in bash with the generated script; returns the candidates. */
async function complete(line: string): Promise<string[]> {
  const binDir = mkdtempSync(join(tmpdir(), 'docsctl-bin-'));
  symlinkSync(BIN, join(binDir, 'docsctl'));
  const words = line.split(' ');
  const script = [
    `source ${join(root, 'completions/docsctl.bash')}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_docsctl',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
    env: {
      PATH: `${binDir}:${process.env.PATH}`, HOME: sb.home, TMPDIR: sb.home, DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('admin'), DOCSCTL_ORG: 'org-acme',
      // The 300 ms default is for people; a loaded test machine gets more.
      DOCSCTL_COMPLETE_TIMEOUT_MS: '5000',
    },
    extendEnv: false,
  });
  return r.stdout.split('\n').filter(Boolean).sort();
}

describe('shell completion', () => {
  it('completions/ is what `docsctl completion` generates from the current tree', async () => {
    for (const [shell, file] of [['bash', 'docsctl.bash'], ['zsh', '_docsctl'], ['fish', 'docsctl.fish']]) {
      const r = await sb.run(['completion', shell]);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(root, 'completions', file), 'utf8'), `completions/${file} is stale: run npm run docs`).toBe(r.stdout + '\n');
    }
    const bad = await sb.run(['completion', 'tcsh']);
    expect(bad.exitCode).toBe(2);
  });

  it('docs/commands.md is generated from the current tree', async () => {
    const r = await sb.run(['__docs']);
    expect(readFileSync(join(root, 'docs/commands.md'), 'utf8'), 'docs/commands.md is stale: run npm run docs').toBe(r.stdout + '\n');
    expect(r.stdout).toContain('## docsctl collections');
  });

  it('bash completes commands, subcommands, flags and enum values', async () => {
    expect(await complete('docsctl col')).toEqual(['collections']);
    expect(await complete('docsctl compl')).toEqual(['completion']);
    expect(await complete('docsctl sp')).toEqual(['spaces']);
    expect(await complete('docsctl collections ')).toEqual(expect.arrayContaining(['create', 'delete', 'get', 'list', 'move', 'transfer']));
    expect(await complete('docsctl collections list --a')).toEqual(['--all']);
    expect(await complete('docsctl collections update x --default-level ')).toEqual(['admin', 'comment', 'create', 'edit', 'inherit', 'null', 'read', 'review']);
    // global options with values are skipped when finding the command
    expect(await complete('docsctl --org org-acme collections tr')).toEqual(['transfer']);
  });

  it('id completion gives up on a server that does not answer, printing nothing', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`;
      const started = Date.now();
      const r = await sb.run(['__complete', 'ids', 'space'], { env: { DOCSCTL_API_URL: url, TMPDIR: sb.home } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
      // The request gives up after 300 ms; node's own start is the rest.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('bash completes ids from the sandbox', async () => {
    expect(await complete('docsctl collections get ')).toEqual(['col-handbook']);
    expect(await complete('docsctl spaces get sp-')).toEqual(['sp-welcome']);
    expect(await complete('docsctl collections move col-handbook --before ')).toEqual(['sp-welcome']);
  });
});

/** A PATH where `docsctl` is the built bin. */
function binPath(): string {
  const binDir = mkdtempSync(join(tmpdir(), 'docsctl-bin-'));
  symlinkSync(BIN, join(binDir, 'docsctl'));
  return `${binDir}:${process.env.PATH}`;
}

const shellEnv = () => ({
  PATH: binPath(), HOME: sb.home, TMPDIR: sb.home, DOCSCTL_CONFIG_DIR: sb.home,
  DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('admin'), DOCSCTL_ORG: 'org-acme', DOCSCTL_COMPLETE_TIMEOUT_MS: '5000',
});

describe.skipIf(!HAS_TMUX || !installed('zsh'))('zsh completion, typed at a real zsh', () => {
  it('completes a command and a space id with TAB', async () => {
    const t = Terminal.run('exec zsh -f -i', shellEnv());
    try {
      await t.waitFor(/[#%] ?$/m);
      t.type(`fpath=(${join(root, 'completions')} $fpath); autoload -U compinit; compinit -u -D; PS1='zsh> '`);
      t.press('Enter');
      await t.waitFor(/^zsh> ?$/m);
      t.type('docsctl spa');
      t.press('Tab');
      await t.waitFor(/docsctl spaces\s*$/m);
      t.type('get sp-');
      t.press('Tab');
      await t.waitFor(/docsctl spaces get sp-welcome/);
    } finally {
      t.close();
    }
  });
});

describe.skipIf(!HAS_TMUX || !installed('fish'))('fish completion, typed at a real fish', () => {
  it('completes a command and a space id with TAB', async () => {
    const t = Terminal.run(`exec fish --no-config -C 'source ${join(root, 'completions/docsctl.fish')}; function fish_prompt; echo "> "; end'`, shellEnv());
    try {
      await t.waitFor(/^>/m);
      t.type('docsctl spa');
      t.press('Tab');
      await t.waitFor(/docsctl spaces\s*$/m);
      t.type('get sp-');
      t.press('Tab');
      await t.waitFor(/docsctl spaces get sp-welcome/);
    } finally {
      t.close();
    }
  });
});
