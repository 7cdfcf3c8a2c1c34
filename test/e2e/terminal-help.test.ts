/**
 * The terminal and help, as gh does them (issue 23): help of a bare program or group on stdout with
 * exit 0, what common guesses of a command mean, colour forced by FORCE_COLOR / CLICOLOR_FORCE, tables
 * that drop their least useful columns before a title becomes unreadable.
 */
import { describe, expect, it } from 'vitest';
import type { ManifestNode } from '../../src/cli/manifest.js';
import { sourceManifest, useSandbox } from '../helpers/inprocess.js';

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
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`error: unknown command '${args.at(-1)}' for '${['docsctl', ...args.slice(args[0] === 'help' ? 1 : 0, -1)].join(' ')}'. Did you mean ${meant}?`);
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
