/**
 * The entry compiles the CLI bundle with V8's code cache (src/entry.ts): a cache made by the build is
 * used as is; a missing one, or one V8 refuses (another Node, other flags, damaged), is made again at
 * exit, and the command works either way. Run on a copy of the built package in a temporary dir.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const sb = useSandbox();
let pkg: string;
let cacheFile: string;

beforeAll(() => {
  pkg = mkdtempSync(join(tmpdir(), 'docsctl-cache-'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  const main = /main-[0-9a-f]+\.cjs/.exec(readFileSync(join(ROOT, 'dist/cli.cjs'), 'utf8'))?.[0];
  expect(main, 'dist/cli.cjs names its bundle').toBeDefined();
  for (const f of ['cli.cjs', 'manifest.json', 'help.json', main!, `${main}.cache`]) cpSync(join(ROOT, 'dist', f), join(pkg, 'dist', f));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  cacheFile = join(pkg, 'dist', `${main}.cache`);
});
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

async function spacesGet(extraEnv: Record<string, string> = {}) {
  const r = await execa('node', [join(pkg, 'bin/docsctl.js'), 'spaces', 'get', 'sp-welcome', '--json'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: sb.home,
      DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url,
      DOCSCTL_TOKEN: sb.token('admin'),
      ...extraEnv,
    },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout).id).toBe('sp-welcome');
}

describe('the code cache of the CLI bundle', () => {
  it("is the build's, used and left as it is", async () => {
    const before = readFileSync(cacheFile);
    const mtime = statSync(cacheFile).mtimeMs;
    await spacesGet();
    expect(statSync(cacheFile).mtimeMs).toBe(mtime);
    expect(readFileSync(cacheFile).equals(before)).toBe(true);
  });

  it('is made at exit when missing, and then used', async () => {
    rmSync(cacheFile);
    await spacesGet();
    const made = statSync(cacheFile);
    expect(made.size).toBeGreaterThan(10_000);
    await spacesGet();
    expect(statSync(cacheFile).mtimeMs).toBe(made.mtimeMs);
    expect(readdirSync(join(pkg, 'dist')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('is made again when V8 refuses it (damaged, or made under other flags), and the command still works', async () => {
    const garbage = Buffer.alloc(statSync(cacheFile).size, 7);
    writeFileSync(cacheFile, garbage);
    await spacesGet();
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
    // Made under other V8 flags: refused by a normal run, which makes it again.
    await spacesGet({ NODE_OPTIONS: '--max-semi-space-size=2' });
    const flagged = readFileSync(cacheFile);
    await spacesGet();
    expect(readFileSync(cacheFile).equals(flagged)).toBe(false);
  });
});

describe('help written to a pipe', () => {
  it('is answered from dist/help.json without the CLI bundle: --help, help NAMES and aliases', async () => {
    // A package with the entry and the help texts only: anything that needs the CLI proper fails.
    const bare = mkdtempSync(join(tmpdir(), 'docsctl-help-'));
    try {
      cpSync(join(ROOT, 'bin'), join(bare, 'bin'), { recursive: true });
      for (const f of ['cli.cjs', 'help.json']) cpSync(join(ROOT, 'dist', f), join(bare, 'dist', f));
      const run = (args: string[]) =>
        execa('node', [join(bare, 'bin/docsctl.js'), ...args], {
          env: { PATH: process.env.PATH ?? '', HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home },
          extendEnv: false,
          reject: false,
          stdin: 'ignore',
        });
      const cases: [string[], string[]][] = [
        [['--help'], ['--help']],
        [['help'], ['--help']],
        [
          ['spaces', 'list', '--help'],
          ['spaces', 'list', '--help'],
        ],
        [
          ['help', 'spaces', 'create'],
          ['spaces', 'create', '--help'],
        ],
        [
          ['help', 'spaces'],
          ['spaces', '--help'],
        ],
        [
          ['spaces', 'ls', '-h'],
          ['spaces', 'list', '--help'],
        ],
        [
          ['help', 'change-requests', 'ls'],
          ['cr', 'list', '--help'],
        ],
      ];
      for (const [args, same] of cases) {
        const r = await run(args);
        expect(r.exitCode, args.join(' ')).toBe(0);
        expect(r.stderr, args.join(' ')).toBe('');
        expect(r.stdout, args.join(' ')).toBe((await sb.run(same)).stdout);
      }
      // Not prerendered: it needs the CLI, which this package lacks.
      expect((await run(['help', 'nothing'])).exitCode).not.toBe(0);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
