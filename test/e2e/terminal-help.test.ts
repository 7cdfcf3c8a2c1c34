/**
 * The terminal and help, as gh does them (issue 23): help of a bare program or group on stdout with
 * exit 0, what common guesses of a command mean, colour forced by FORCE_COLOR / CLICOLOR_FORCE (colour
 * only: on a pipe, TSV and JSON stay as they are; only DOCSCTL_FORCE_TTY asks for tables there), tables
 * that drop their least useful columns before a title becomes unreadable.
 */
import { describe, expect, it } from 'vitest';
import type { ManifestNode } from '../../src/cli/manifest.js';
import { sourceManifest, useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();

describe('help of a bare program or group', () => {
  it('goes to stdout with exit 0, for docsctl and every group, in process and from the built binary', async () => {
    const groups: string[][] = [[]];
    const walk = (nodes: readonly ManifestNode[], path: string[]) => {
      for (const n of nodes) {
        if (n.kind === 'group') {
          groups.push([...path, n.name]);
          walk(n.commands, [...path, n.name]);
        }
      }
    };
    walk((await sourceManifest()).entries, []);
    expect(groups.length).toBeGreaterThan(15);
    for (const path of groups) {
      const r = await sb.run(path);
      expect(r.exitCode, path.join(' ')).toBe(0);
      expect(r.stderr, path.join(' ')).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^Usage: ${['docsctl', ...path].join(' ')} <command> \\[flags\\]\n`));
      // The same text as --help.
      expect(r.stdout).toBe((await sb.run([...path, '--help'])).stdout);
    }
    for (const path of [[], ['spaces'], ['sites', 'sections']]) {
      const r = await sb.process(path);
      expect(r.exitCode, path.join(' ')).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^Usage: docsctl /);
    }
  });
});

describe('a command that does not exist', () => {
  it('names what does what other tools call status, version, doctor, login…, exit 2; each suggestion exists', async () => {
    const cases: [string[], string][] = [
      [['status'], 'docsctl auth status'],
      [['whoami'], 'docsctl auth status'],
      [['doctor'], 'docsctl auth status'],
      [['stauts'], 'docsctl auth status'],
      [['login'], 'docsctl auth login'],
      [['logout'], 'docsctl auth logout'],
      [['version'], 'docsctl --version'],
      [['help', 'status'], 'docsctl auth status'],
      [['cr', 'show'], 'docsctl cr get'],
      [['sites', 'new'], 'docsctl sites create'],
      [['spaces', 'mv'], 'docsctl spaces move'],
      [['orgs', 'info'], 'docsctl orgs get'],
      [['sites', 'sections', 'new'], 'docsctl sites sections add'],
    ];
    for (const [args, meant] of cases) {
      const r = await sb.run(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(
        `error: unknown command '${args.at(-1)}' for '${['docsctl', ...args.slice(args[0] === 'help' ? 1 : 0, -1)].join(' ')}'. Did you mean ${meant}?`,
      );
      const exists = await sb.run([...meant.split(' ').slice(1), '--help']);
      expect(exists.exitCode, meant).toBe(0);
    }
    // A verb is offered only where the group has the command: members has no create.
    const none = await sb.run(['members', 'new']);
    expect(none.stderr).not.toContain('Did you mean docsctl members');
    // A near name still wins: `spacs` is spaces.
    expect((await sb.run(['spacs'])).stderr).toContain('Did you mean spaces?');
  });
});

/** SGR sequences (colours) in text. */
const SGR = /\x1b\[[0-9;]*m/;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('colour', () => {
  it('DOCSCTL_FORCE_TTY gives the terminal output in colour; NO_COLOR, CLICOLOR=0 and --no-color take it away', async () => {
    const forced = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120' } });
    expect(forced.stdout).toMatch(SGR);
    expect(plain(forced.stdout)).toMatch(/^id\s+title\s+visibility/);
    for (const off of [{ NO_COLOR: '1' }, { CLICOLOR: '0' }, { NO_COLOR: '1', CLICOLOR_FORCE: '1' }]) {
      const r = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120', ...off } });
      expect(r.stdout, JSON.stringify(off)).not.toMatch(SGR);
      expect(r.stdout).toBe(plain(forced.stdout));
    }
    expect((await sb.run(['spaces', 'list', '--no-color'], { env: { DOCSCTL_FORCE_TTY: '120', CLICOLOR_FORCE: '1' } })).stdout).not.toMatch(SGR);
    // An empty NO_COLOR says nothing (no-color.org).
    expect((await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120', NO_COLOR: '' } })).stdout).toMatch(SGR);
  });

  it('FORCE_COLOR and CLICOLOR_FORCE force colour only: with DOCSCTL_FORCE_TTY coloured tables; alone, TSV and JSON stay uncoloured data on a pipe, as gh', async () => {
    for (const force of [{ FORCE_COLOR: '1' }, { CLICOLOR_FORCE: '1' }]) {
      const table = await sb.run(['spaces', 'list'], { env: { ...force, DOCSCTL_FORCE_TTY: '120' } });
      expect(table.stdout, JSON.stringify(force)).toMatch(SGR);
      expect(plain(table.stdout)).toMatch(/^id\s+title\s+visibility/);
      const get = await sb.run(['spaces', 'get', 'sp-welcome'], { env: { ...force, DOCSCTL_FORCE_TTY: '120' } });
      expect(get.stdout).toMatch(SGR);
      expect(plain(get.stdout)).toMatch(/^id\s+sp-welcome$/m);
    }
    // On a pipe, without DOCSCTL_FORCE_TTY: byte for byte what docsctl prints without them (CI systems
    // export FORCE_COLOR for other tools' logs; a script reading the TSV must not see it change).
    const outputs = [
      ['spaces', 'list'],
      ['spaces', 'list', '--fields', 'id,title'],
      ['spaces', 'get', 'sp-welcome'],
      ['spaces', 'list', '--json'],
      ['spaces', 'get', 'sp-welcome', '--json'],
      ['spaces', 'get', 'sp-welcome', '--jq', '.title'],
      ['tree'],
    ];
    for (const args of outputs) {
      const bare = await sb.run(args);
      expect(bare.exitCode, args.join(' ')).toBe(0);
      for (const force of [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '3' }, { FORCE_COLOR: 'true' }, { FORCE_COLOR: '1', NO_COLOR: '1' }, { CLICOLOR_FORCE: '1' }]) {
        const r = await sb.run(args, { env: force });
        expect(r.stdout, `${args.join(' ')} ${JSON.stringify(force)}`).toBe(bare.stdout);
        expect(r.stdout).not.toMatch(SGR);
        expect(r.stderr).toBe(bare.stderr);
      }
    }
    expect((await sb.run(['spaces', 'list'], { env: { FORCE_COLOR: '1' } })).stdout).toMatch(/^sp-welcome\tWelcome\t/);
    // NO_COLOR wins over the forcing variables where DOCSCTL_FORCE_TTY asks for the terminal's output.
    for (const force of [{ FORCE_COLOR: '1' }, { CLICOLOR_FORCE: '1' }, { CLICOLOR_FORCE: '0' }])
      expect((await sb.run(['spaces', 'list'], { env: { ...force, DOCSCTL_FORCE_TTY: '120', NO_COLOR: '1' } })).stdout).not.toMatch(SGR);
    // FORCE_COLOR=0 (or false) turns colour off, as in chalk and Node: the terminal's table, uncoloured.
    const table = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120' } });
    expect(table.stdout).toMatch(SGR);
    for (const off of ['0', 'false']) {
      const r = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120', FORCE_COLOR: off } });
      expect(r.stdout, off).not.toMatch(SGR);
      expect(r.stdout).toBe(plain(table.stdout));
    }
  });

  it.skipIf(!HAS_TMUX)('in a real terminal: colour by default, none with NO_COLOR, colour again with CLICOLOR_FORCE or FORCE_COLOR', async () => {
    const env = { ...sb.env(), PATH: process.env.PATH ?? '' } as Record<string, string>;
    const screens: Record<string, string> = {};
    for (const [name, extra] of [
      ['default', {}],
      ['no', { NO_COLOR: '1' }],
      ['forced', { NO_COLOR: '1', CLICOLOR_FORCE: '1' }],
      // (Not with NO_COLOR: Node itself warns on stderr when both NO_COLOR and FORCE_COLOR are set.)
      ['forcedByFORCE_COLOR', { CLICOLOR: '0', FORCE_COLOR: '1' }],
      ['offByFORCE_COLOR', { FORCE_COLOR: '0' }],
    ] as const) {
      const term = Terminal.start(['spaces', 'list'], { ...env, ...extra });
      try {
        expect(await term.exitCode()).toBe(0);
        screens[name] = term.coloured();
      } finally {
        term.close();
      }
    }
    expect(screens.default).toMatch(SGR);
    expect(screens.no).not.toMatch(SGR);
    expect(screens.forced).toMatch(SGR);
    expect(plain(screens.forced)).toBe(plain(screens.default));
    expect(screens.forcedByFORCE_COLOR).toMatch(SGR);
    expect(plain(screens.forcedByFORCE_COLOR)).toBe(plain(screens.default));
    expect(screens.offByFORCE_COLOR).not.toMatch(SGR);
    expect(screens.offByFORCE_COLOR).toBe(plain(screens.default));
  });
});

describe('tables that do not fit the terminal', () => {
  /** 50 characters, a space title's longest. */
  const LONG = 'A long title that will not fit a narrow terminal!!';
  const width = (line: string) => [...line].length;

  /** A collection (a 20-character id) holding three spaces with long titles. */
  async function longTitles(): Promise<{ collection: string; spaces: string[] }> {
    const collection = (await sb.run(['collections', 'create', '--title', 'Guides', '--jq', '.id'])).stdout;
    const spaces: string[] = [];
    for (let i = 0; i < 3; i++)
      spaces.push((await sb.run(['spaces', 'create', '--title', `${LONG.slice(0, 48)} ${i}`, '--parent', collection, '--jq', '.id'])).stdout);
    return { collection, spaces };
  }

  it('at 80 columns spaces list leaves out updatedAt (saying so on stderr) and keeps titles readable; at 120 it shows everything', async () => {
    const { collection, spaces } = await longTitles();
    expect(collection).toHaveLength(20);
    const narrow = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '80', NO_COLOR: '1' } });
    expect(narrow.exitCode).toBe(0);
    const lines = narrow.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+title\s+visibility\s+parent$/);
    for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(80);
    for (const id of spaces) {
      const row = lines.find((l) => l.startsWith(id))!;
      // The whole id, the parent's whole id, and at least 20 characters of the title.
      expect(row).toContain(collection);
      const title = /^\S+\s{2}(.+?…)/.exec(row)![1];
      expect(width(title), row).toBeGreaterThanOrEqual(20);
    }
    expect(narrow.stderr).toBe('note: column updatedAt hidden to fit 80 columns (see --fields, --json)');

    const wide = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '120', NO_COLOR: '1' } });
    expect(wide.stderr).toBe('');
    expect(wide.stdout.split('\n')[0]).toMatch(/^id\s+title\s+visibility\s+parent\s+updatedAt$/);
    expect(wide.stdout).toContain(`${LONG.slice(0, 48)} 0`);
    for (const line of wide.stdout.split('\n')) expect(width(line)).toBeLessThanOrEqual(120);
  });

  it("cr list at 80 columns leaves out another object's id (the space) before the subject goes below 20 characters; --fields chosen stay", async () => {
    const space = (await sb.run(['spaces', 'create', '--title', 'Reviews', '--jq', '.id'])).stdout;
    const subject = `${LONG}, and a subject that goes on until its end`;
    for (let i = 0; i < 2; i++) await sb.run(['cr', 'create', space, '--subject', subject]);
    const r = await sb.run(['cr', 'list', '--status', 'all'], { env: { DOCSCTL_FORCE_TTY: '80', NO_COLOR: '1' } });
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+number\s+status\s+subject\s+createdBy\s+updatedAt$/);
    expect(r.stderr).toBe('note: column space hidden to fit 80 columns (see --fields, --json)');
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(80);
    const cut = / {2}(A long title[^…]*…) {2}u-admin /.exec(lines[1])![1];
    expect(width(cut)).toBeGreaterThanOrEqual(20);
    // Narrower, the time goes too (the rightmost of the least useful first), and the subject keeps 20.
    const narrower = await sb.run(['cr', 'list', '--status', 'all'], { env: { DOCSCTL_FORCE_TTY: '70', NO_COLOR: '1' } });
    expect(narrower.stderr).toBe('note: columns updatedAt, space hidden to fit 70 columns (see --fields, --json)');
    expect(width(/ {2}(A long title[^…]*…)/.exec(narrower.stdout.split('\n')[1])![1])).toBeGreaterThanOrEqual(20);
    // Columns named with --fields are all shown (cut to fit), with no note.
    const picked = await sb.run(['cr', 'list', '--status', 'all', '--fields', 'number,subject,space,updatedAt'], {
      env: { DOCSCTL_FORCE_TTY: '50', NO_COLOR: '1' },
    });
    expect(picked.stderr).toBe('');
    expect(picked.stdout.split('\n')[0]).toMatch(/^number\s+subject\s+space\s+updatedAt$/);
    for (const line of picked.stdout.split('\n')) expect(width(line)).toBeLessThanOrEqual(50);
  });

  it.skipIf(!HAS_TMUX)('in a real terminal of 80 and of 120 columns', async () => {
    await longTitles();
    const env = { ...sb.env(), PATH: process.env.PATH ?? '', NO_COLOR: '1' } as Record<string, string>;
    for (const columns of [80, 120]) {
      const term = Terminal.start(['spaces', 'list'], env, columns);
      try {
        expect(await term.exitCode()).toBe(0);
        const screen = term
          .screen()
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('[exit'));
        // The note (stderr) comes first, then the table from its header on.
        const table = screen.slice(screen.findIndex((l) => l.startsWith('id ')));
        for (const line of table) expect(width(line.trimEnd()), `${columns}: ${line}`).toBeLessThanOrEqual(columns);
        if (columns === 80) {
          expect(table[0]).toMatch(/^id\s+title\s+visibility\s+parent\s*$/);
          expect(screen.some((l) => l.startsWith('note: column updatedAt hidden to fit 80 columns'))).toBe(true);
        } else {
          expect(table[0]).toMatch(/^id\s+title\s+visibility\s+parent\s+updatedAt\s*$/);
          expect(screen.some((l) => l.startsWith('note:'))).toBe(false);
        }
      } finally {
        term.close();
      }
    }
  });
});
