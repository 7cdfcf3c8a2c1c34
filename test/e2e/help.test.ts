/**
 * Help as a user meets it: `docsctl help spaces create`, global flags in a section of their own
 * (declared once: help, completion, docs and parsing agree), and typos that suggest from where they
 * were typed. Help written to a pipe comes from dist/help.json (the entry's fast path); on a
 * terminal the CLI renders it, which a tmux pane shows.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestNode } from '../../src/cli/manifest.js';
import { useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();
const root = resolve(import.meta.dirname, '../..');
const manifest = (): Manifest => JSON.parse(readFileSync(join(root, 'dist/manifest.json'), 'utf8'));

/** The global flags, as every command's help must list them. */
const GLOBALS = ['--org <id>', '--profile <name>', '--timeout <seconds>', '--verbose', '--no-input', '--no-color', '-h, --help'];

/** The lines of one section of a help text (`Flags:` up to the next blank line). */
function section(help: string, heading: string): string[] | undefined {
  const lines = help.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) return undefined;
  const end = lines.findIndex((l, i) => i > at && l === '');
  return lines.slice(at + 1, end < 0 ? undefined : end);
}
/** The flag terms of a section (`--org <id>`, `-h, --help`). */
const terms = (lines: string[] | undefined) => (lines ?? []).filter((l) => /^ {2}-/.test(l)).map((l) => l.trim().split(/\s{2,}/)[0]);

describe('docsctl help', () => {
  // Help to a pipe is answered by the process entry from dist/help.json: these run as processes.
  it('help spaces create prints the help of spaces create; help spaces, of the group; help, of docsctl', async () => {
    const asked = await sb.process(['help', 'spaces', 'create']);
    expect(asked.exitCode).toBe(0);
    expect(asked.stderr).toBe('');
    expect(asked.stdout).toMatch(/^Usage: docsctl spaces create \[flags\]\n/);
    expect(asked.stdout).toContain('Create a space');
    expect(asked.stdout).toBe((await sb.process(['spaces', 'create', '--help'])).stdout);

    const group = await sb.process(['help', 'spaces']);
    expect(group.exitCode).toBe(0);
    expect(group.stdout).toMatch(/^Usage: docsctl spaces <command> \[flags\]\n/);
    expect(group.stdout).toMatch(/^ {2}list\|ls +List the spaces/m);
    expect(group.stdout).toMatch(/^ {2}restore +Restore a deleted space/m);

    const all = await sb.process(['help']);
    expect(all.exitCode).toBe(0);
    expect(all.stdout).toBe((await sb.process(['--help'])).stdout);
    expect(all.stdout).toMatch(/^ {2}spaces +Spaces:/m);
  });

  it('takes aliases, global flags before it, and `<group> help <command>`', async () => {
    const want = (await sb.process(['cr', 'list', '--help'])).stdout;
    expect(want).toMatch(/^Usage: docsctl cr list /);
    for (const args of [
      ['help', 'change-requests', 'ls'],
      ['help', 'cr', 'list'],
      ['--org', 'org-acme', 'help', 'cr', 'list'],
      ['cr', 'help', 'list'],
      ['change-requests', 'ls', '--help'],
    ]) {
      const r = await sb.process(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toBe(want);
    }
  });

  it('help of a command that does not exist is a usage error that suggests', async () => {
    const none = await sb.run(['help', 'nothing']);
    expect(none.exitCode).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(
      /^error: unknown command 'nothing' for 'docsctl'\nhint: the commands of docsctl: auth, serve, api, completion, orgs, .*, sites, exit-codes; see docsctl help$/,
    );
    const nothingThere = await sb.run(['help', 'spaces', 'nothing']);
    expect(nothingThere.exitCode).toBe(2);
    expect(nothingThere.stderr).toBe(
      "error: unknown command 'nothing' for 'docsctl spaces'\nhint: the commands of docsctl spaces: list, get, create, update, delete, restore, duplicate, move, transfer, links, permissions; see docsctl help spaces",
    );

    const typo = await sb.run(['help', 'spaces', 'crate']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain("error: unknown command 'crate' for 'docsctl spaces'. Did you mean create?\n");
    expect(typo.stderr).toContain('hint: see docsctl help spaces');

    const top = await sb.run(['help', 'spacs']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toContain('Did you mean spaces?');

    // Past a command there is nothing more to ask about.
    const deeper = await sb.run(['help', 'spaces', 'list', 'more']);
    expect(deeper.exitCode).toBe(2);
    expect(deeper.stderr).toContain("unknown command 'more' for 'docsctl spaces list'");
  });

  it('help exit-codes still lists the exit codes', async () => {
    const r = await sb.run(['help', 'exit-codes']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes:\n {2}0 {2}success/);
  });
});

describe.skipIf(!HAS_TMUX)('help at a terminal (rendered by the CLI, not prerendered)', () => {
  it('docsctl help spaces get shows that command, with its global flags apart', async () => {
    // A help short enough for the 40 rows of the test's terminal.
    const t = Terminal.start(['help', 'spaces', 'get'], { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home });
    try {
      expect(await t.exitCode()).toBe(0);
      const screen = t.screen();
      expect(screen).toContain('Usage: docsctl spaces get <space> [flags]');
      expect(screen).toMatch(/Global flags:\n {2}--org <id> /);
    } finally {
      t.close();
    }
  });

  it('docsctl help nothing is exit 2', async () => {
    const t = Terminal.start(['help', 'nothing'], { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home });
    try {
      expect(await t.exitCode()).toBe(2);
      expect(t.screen()).toContain("error: unknown command 'nothing' for 'docsctl'");
    } finally {
      t.close();
    }
  });
});

describe('global flags', () => {
  it('every command and group lists them under "Global flags:", apart from its own flags', async () => {
    const help = JSON.parse(readFileSync(join(root, 'dist/help.json'), 'utf8')) as { texts: Record<string, string> };
    const paths: string[] = [''];
    const walk = (n: ManifestNode, p: string[]) => {
      paths.push([...p, n.name].join(' '));
      if (n.kind === 'group') n.commands.forEach((c) => walk(c, [...p, n.name]));
    };
    manifest().entries.forEach((e) => walk(e, []));
    expect(paths.length).toBeGreaterThan(100);
    for (const path of paths) {
      const text = help.texts[path];
      expect(text, `help of "${path}"`).toBeDefined();
      const globals = terms(section(text, 'Global flags:'));
      expect(
        globals.filter((t) => t !== '-V, --version'),
        `Global flags of "${path}"`,
      ).toEqual(GLOBALS);
      for (const heading of ['Flags:', 'Output flags:']) {
        for (const t of terms(section(text, heading))) expect(GLOBALS, `"${t}" under ${heading} of "${path}"`).not.toContain(t);
      }
    }
  });

  it('a command that prints data lists --json, --fields and --jq as output flags; one that prints none does not take them', async () => {
    const list = (await sb.run(['spaces', 'list', '--help'])).stdout;
    expect(terms(section(list, 'Output flags:'))).toEqual(['--json', '--fields <list>', '--jq <expression>']);
    expect(terms(section(list, 'Flags:'))).toEqual(expect.arrayContaining(['--parent <collection>', '--limit <n>', '--all', '--page <cursor>']));
    const serve = (await sb.run(['serve', '--help'])).stdout;
    expect(section(serve, 'Output flags:')).toBeUndefined();
    const completion = await sb.run(['completion', 'bash', '--jq', '.']);
    expect(completion.exitCode).toBe(2);
  });

  it('work after the command as before it, and are the same in help, completion and docs/commands.md', async () => {
    const before = await sb.run(['--org', 'org-acme', 'spaces', 'list', '--json']);
    const after = await sb.run(['spaces', 'list', '--json', '--org', 'org-acme']);
    expect(after.exitCode).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
    const bad = await sb.run(['spaces', 'list', '--timeout', 'soon']);
    expect(bad.exitCode).toBe(2);

    const longs = GLOBALS.map((g) => g.replace(/^-h, /, '').split(' ')[0]);
    const bash = (await sb.run(['completion', 'bash'])).stdout;
    const flagsOf = (path: string) => new RegExp(`^_docsctl_flags\\['${path}'\\]='([^']*)'`, 'm').exec(bash)?.[1].split(' ');
    for (const path of ['docsctl', 'docsctl spaces', 'docsctl spaces list', 'docsctl serve'])
      expect(flagsOf(path), path).toEqual(expect.arrayContaining(longs));
    const docs = readFileSync(join(root, 'docs/commands.md'), 'utf8');
    const globalsDoc = docs.slice(docs.indexOf('## Global flags'), docs.indexOf('## Shared flags'));
    for (const g of GLOBALS) expect(globalsDoc, g).toContain(`| \`${g}\` |`);
  });
});

describe('typos', () => {
  it('a mistyped command suggests from its group and names the group’s help', async () => {
    const cases: [string[], string, string][] = [
      [['spaces', 'lst'], "unknown command 'lst' for 'docsctl spaces'. Did you mean list?", 'see docsctl spaces --help'],
      [['sites', 'sectons'], "unknown command 'sectons' for 'docsctl sites'. Did you mean sections?", 'see docsctl sites --help'],
      [['sites', 'sections', 'lst'], "unknown command 'lst' for 'docsctl sites sections'. Did you mean list?", 'see docsctl sites sections --help'],
      [['change-requests', 'merg', 'sp-welcome', '1'], "unknown command 'merg' for 'docsctl cr'. Did you mean merge?", 'see docsctl cr --help'],
      [['spacs', 'list'], "unknown command 'spacs' for 'docsctl'. Did you mean spaces?", 'see docsctl --help'],
    ];
    for (const [args, message, hint] of cases) {
      const r = await sb.run(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toBe(`error: ${message}\nhint: ${hint}`);
    }
    const json = await sb.run(['spaces', 'lst', '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ message: "unknown command 'lst' for 'docsctl spaces'. Did you mean list?", exitCode: 2 });
  });

  it('a mistyped flag suggests the flag: the command’s own, a shared one or a global one', async () => {
    const cases: [string[], string][] = [
      [['spaces', 'list', '--lmit', '3'], "unknown option '--lmit' for 'docsctl spaces list'. Did you mean --limit?"],
      [['spaces', 'list', '--parnet=col-handbook'], "unknown option '--parnet' for 'docsctl spaces list'. Did you mean --parent?"],
      [['spaces', 'ls', '--jsn'], "unknown option '--jsn' for 'docsctl spaces list'. Did you mean --json?"],
      [['spaces', 'list', '--verbos'], "unknown option '--verbos' for 'docsctl spaces list'. Did you mean --verbose?"],
      [['--verbos', 'spaces', 'list'], "unknown option '--verbos' for 'docsctl'. Did you mean --verbose?"],
      [['spaces', 'list', '--no-inptu'], "unknown option '--no-inptu' for 'docsctl spaces list'. Did you mean --no-input?"],
    ];
    for (const [args, message] of cases) {
      const r = await sb.run(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`error: ${message}\n`);
    }
    const r = await sb.run(['spaces', 'list', '--lmit', '3']);
    expect(r.stderr).toContain('hint: see docsctl spaces list --help');
    // Nothing close: no guess.
    const far = await sb.run(['spaces', 'list', '--zzzzzz']);
    expect(far.stderr).toBe("error: unknown option '--zzzzzz' for 'docsctl spaces list'\nhint: see docsctl spaces list --help");
  });

  it('a command with nothing close lists the commands there are', async () => {
    const r = await sb.run(['spaces', 'zzzz']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "error: unknown command 'zzzz' for 'docsctl spaces'\nhint: the commands of docsctl spaces: list, get, create, update, delete, restore, duplicate, move, transfer, links, permissions; see docsctl spaces --help",
    );
  });

  it('other usage errors name the help of the command typed', async () => {
    const r = await sb.run(['spaces', 'get', 'sp-welcome', 'extra']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('hint: see docsctl spaces get --help');
  });
});
