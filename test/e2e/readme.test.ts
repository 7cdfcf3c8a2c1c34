/**
 * The README stays true for a new user:
 * - its shell blocks run as written against `docsctl serve`: an HTML comment before each block says
 *   how (`<!-- readme-test: serve -->` starts the sandbox, `run` blocks run in order in one shell, as
 *   a reader pasting them into a terminal would, `skip (why)` is not run; a block without one fails
 *   the test). What the test changes, and only that: the sandbox gets `--port 0 --json` (a free port,
 *   whose URL then replaces `http://127.0.0.1:4700`), and the page the blocks serve to import gets a
 *   free port for its 4801. The blocks need no network: tests never leave the machine;
 * - its links (and those of docs/) point at files and headings inside the repository;
 * - `node bin/docsctl.js` works right after `npm ci` (the `prepare` script builds), and says what to
 *   run when dist/ is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, userShell } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const README = join(ROOT, 'README.md');
const WRITTEN_URL = 'http://127.0.0.1:4700';
/** The port of the page that the README's blocks serve themselves, to import it. */
const SITE_PORT = '4801';

interface Block {
  line: number;
  how: 'serve' | 'run' | 'skip' | undefined;
  text: string;
}

/** The ```sh blocks of a Markdown text, with the readme-test comment before each. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) {
      // Any other fence: skip to its end.
      if (/^```/.test(lines[i])) while (++i < lines.length && !/^```\s*$/.test(lines[i]));
      continue;
    }
    const marker = /^<!-- readme-test: (serve|run|skip)\b.*-->$/.exec(lines[i - 1] ?? '');
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i])) body.push(lines[i]);
    blocks.push({ line: start + 1, how: marker?.[1] as Block['how'], text: body.join('\n') });
  }
  return blocks;
}

describe('README.md', () => {
  const blocks = shellBlocks(readFileSync(README, 'utf8'));
  let shell: ReturnType<typeof userShell>;
  let sandbox: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    shell = userShell('docsctl-readme-');
    const serve = blocks.filter((b) => b.how === 'serve');
    expect(serve, 'one block starts the sandbox').toHaveLength(1);
    const command = serve[0].text
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, ''))
      .filter((l) => l.trim() !== '');
    expect(command, 'the sandbox block is one command').toHaveLength(1);
    sandbox = spawn('bash', ['-c', `exec ${command[0]} --port 0 --json`], {
      env: shell.env,
      cwd: shell.work,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    const first = await new Promise<string>((done, fail) => {
      createInterface({ input: sandbox!.stdout! }).once('line', done);
      sandbox!.once('exit', (code) => fail(new Error(`the README's sandbox exited with ${code}`)));
    });
    url = JSON.parse(first).url;
  });

  afterAll(async () => {
    if (sandbox?.pid) process.kill(-sandbox.pid, 'SIGTERM');
    if (shell) rmSync(shell.home, { recursive: true, force: true });
  });

  it('says of every shell block whether it runs', () => {
    expect(blocks.length).toBeGreaterThan(4);
    for (const b of blocks) expect(b.how, `README.md:${b.line}: a shell block needs <!-- readme-test: run|serve|skip (why) --> before it`).toBeDefined();
  });

  it('runs its shell blocks as written against the sandbox, in order, in one shell', async () => {
    const run = blocks.filter((b) => b.how === 'run');
    expect(run.length).toBeGreaterThanOrEqual(4);
    const text = run.map((b) => b.text).join('\n');
    expect(text, 'the blocks import a page they serve on loopback').toContain(`http://127.0.0.1:${SITE_PORT}/`);
    expect(text, 'the blocks never leave the machine').not.toMatch(/https?:\/\/(?!127\.0\.0\.1[:/])/);
    const script = ['set -euo pipefail', ...run.map((b) => `echo ">>> README.md:${b.line}" >&2\n${b.text}`)]
      .join('\n')
      .replaceAll(WRITTEN_URL, url)
      .replaceAll(SITE_PORT, String(await freePort()));
    const r = await execa('bash', ['-c', script], { env: shell.env, extendEnv: false, cwd: shell.work, reject: false, timeout: 90_000, stdin: 'ignore' });
    expect({ exitCode: r.exitCode, stderr: r.stderr }).toMatchObject({ exitCode: 0 });
    expect(r.stdout).toContain('sp-welcome exists');
    expect(r.stderr).not.toMatch(/^error:/m);
    // What it did is there.
    const get = async (path: string): Promise<any> => (await fetch(url + path, { headers: { authorization: 'Bearer dev-token' } })).json();
    const spaces = await get('/v1/orgs/org-acme/spaces?limit=1000');
    const widget = spaces.items.find((s: { title: string }) => s.title === 'Widget');
    expect(widget, 'the Widget space').toBeDefined();
    expect((await get(`/v1/spaces/${widget.id}/content/pages`)).pages.map((p: { title: string }) => p.title)).toContain('Widget docs');
    const spec = await get('/v1/orgs/org-acme/openapi/docsctl-api');
    expect(spec.processingState).toBe('complete');
    expect(spec.lastVersion).toBeTruthy();
    expect(spaces.items.map((s: { title: string }) => s.title)).toContain('Getting started');
  });

  it('links only to files and headings inside the repository', () => {
    const files = [
      README,
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(ROOT, 'docs', f)),
    ];
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target)) continue;
        const [path, anchor] = target.split('#');
        const to = path === '' ? file : resolve(dirname(file), path);
        const where = `${relative(ROOT, file)}: ${target}`;
        if (relative(ROOT, to).startsWith('..')) problems.push(`${where} points outside the repository`);
        else if (!existsSync(to)) problems.push(`${where}: no such file`);
        else if (anchor && to.endsWith('.md') && !headingSlugs(readFileSync(to, 'utf8')).has(anchor)) problems.push(`${where}: no such heading`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the docs', () => {
  it('install docsctl from a clone or a packed tarball, never by its name from the registry (it is not published)', () => {
    const files = [
      README,
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(ROOT, 'docs', f)),
    ];
    const found: string[] = [];
    for (const file of files) {
      for (const [block] of readFileSync(file, 'utf8').matchAll(/^ *```[\s\S]*?^ *```/gm)) {
        // The words of each `npm install` command (up to a comment or the next command): none is the bare name.
        for (const [, words] of block.matchAll(/\bnpm (?:install|i|add)\b([^#;&|\n]*)/g)) {
          if (words.split(/\s+/).some((w) => /^docsctl(@.*)?$/.test(w))) found.push(`${relative(ROOT, file)}: npm install${words}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

/** GitHub's anchors of a Markdown file's headings. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  for (const [, title] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    let slug = title
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    for (let n = 1; slugs.has(slug); n++) slug = `${slug.replace(/-\d+$/, '')}-${n}`;
    slugs.add(slug);
  }
  return slugs;
}

describe('node bin/docsctl.js', () => {
  let pkg: string;
  beforeAll(() => {
    pkg = mkdtempSync(join(tmpdir(), 'docsctl-install-'));
    for (const part of ['bin', 'scripts', 'src', 'package.json', 'tsconfig.json']) cpSync(join(ROOT, part), join(pkg, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  });
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  it('says what to run when dist/ is missing (npm ci --ignore-scripts, npm run clean)', async () => {
    const r = await execa('node', [join(pkg, 'bin/docsctl.js'), 'spaces', 'list'], { reject: false, stdin: 'ignore' });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: docsctl is not built: ${join(pkg, 'dist/cli.cjs')} is missing\nhint: run npm run build in ${pkg} (npm ci and npm install build it too)`,
    );
  });

  it('works right after npm ci: the prepare script builds dist/', async () => {
    const { scripts, version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    expect(scripts.prepare, 'package.json has a prepare script (npm ci runs it)').toBeDefined();
    const prepare = await execa('sh', ['-c', scripts.prepare], {
      cwd: pkg,
      reject: false,
      stdin: 'ignore',
      env: { PATH: process.env.PATH ?? '' },
      extendEnv: false,
    });
    expect(prepare.stderr).toBe('');
    expect(prepare.exitCode).toBe(0);
    const r = await execa('node', [join(pkg, 'bin/docsctl.js'), '--version'], { reject: false, stdin: 'ignore' });
    expect(r).toMatchObject({ exitCode: 0, stdout: version });
    const help = await execa('node', [join(pkg, 'bin/docsctl.js'), 'api', '--help'], { reject: false, stdin: 'ignore' });
    expect(help.stdout).toContain('--paginate');
  });
});
