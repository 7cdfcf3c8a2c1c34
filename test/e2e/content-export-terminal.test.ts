/**
 * `content export` and `orgs backup` at a real terminal (a tmux pane), as a user meets them: the
 * progress shows on stderr while the export runs (none off a terminal), the screen is left with the
 * summary alone; Ctrl-C mid-export exits 130, leaves the terminal clean and nothing half-written in
 * place (only `*.docsctl-part`), and a rerun downloads only what was missing.
 *
 * The service is the test's own (files downloaded from their URLs, each answer held back a while, or
 * held until the test lets it go), and, for `orgs backup`, the sandbox behind a proxy that slows it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, docsctl, useSandbox } from '../helpers/cli.js';
import { putContent, useTempDirs } from '../helpers/content.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
/** What a terminal shows when control sequences are printed instead of obeyed (or half of one is). */
const GARBAGE = /\u001b|\[2K|\[\?25[hl]|\^\[/;
const FILES = Array.from({ length: 10 }, (_, i) => ({ id: `f${i + 1}`, name: `asset-${i + 1}.bin`, bytes: randomBytes(2048 + i) }));
const TOTAL = 2 + FILES.length; // pages and files, as the progress counts them

let server: Server;
let base = '';
/** Paths asked for since the last reset. */
const hits: string[] = [];
/** How long each download is held back (ms); `hold`: downloads of these files wait until `release()`. */
const knobs = { latency: 0, hold: new Set<string>() };
const held: (() => void)[] = [];
const release = () => {
  for (const go of held.splice(0)) go();
};

const text = (s: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const page = (id: string, title: string, path: string) => ({ object: 'page', id, title, kind: 'sheet', type: 'document', slug: path, path, pages: [] });

function answer(path: string, res: ServerResponse): void {
  const json = (body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (path === '/v1/spaces/sp1/content/pages') return json({ pages: [page('p1', 'Home', 'home'), page('p2', 'Guide', 'guide')] });
  if (path === '/v1/spaces/sp1/content/files')
    return json({
      items: FILES.map((f) => ({
        object: 'file',
        id: f.id,
        name: f.name,
        contentType: 'application/octet-stream',
        size: f.bytes.length,
        downloadURL: `${base}/files/${f.name}`,
      })),
    });
  const p = /^\/v1\/spaces\/sp1\/content\/page\/(p[12])$/.exec(path);
  if (p) {
    const [id, title] = p[1] === 'p1' ? ['p1', 'Home'] : ['p2', 'Guide'];
    return json({
      ...page(id, title, title.toLowerCase()),
      document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text(`${title} text.`)] }] },
    });
  }
  const file = FILES.find((f) => path === `/files/${f.name}`);
  if (file) {
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes.length) });
      res.end(file.bytes);
    };
    if (knobs.hold.has(file.name)) held.push(send);
    else setTimeout(send, knobs.latency);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 404, message: `no ${path}` } }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    answer(path, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  release();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const sb = useSandbox();
const tempDir = useTempDirs('export-term');
let term: Terminal | undefined;
beforeEach(() => {
  hits.length = 0;
  knobs.latency = 0;
  knobs.hold.clear();
});
afterEach(() => {
  term?.close();
  term = undefined;
  release();
});

const serviceEnv = () => ({
  HOME: sb.home,
  DOCSCTL_CONFIG_DIR: sb.home,
  DOCSCTL_API_URL: base,
  DOCSCTL_TOKEN: 'test-token-123',
  DOCSCTL_MAX_RETRIES: '0',
  LANG: 'C.UTF-8',
});

function open(args: string[], env: Record<string, string> = serviceEnv(), columns = 120): Terminal {
  term?.close();
  term = Terminal.start(args, env, columns);
  return term;
}

const downloads = () => hits.filter((h) => h.startsWith('/files/')).map((h) => h.slice('/files/'.length));
/** The files under `dir`, from it, with `/`. */
const filesIn = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(join(dir, f)).isFile()).map((f) => f.split('\\').join('/'));

describe.skipIf(!HAS_TMUX)('content export at a terminal', () => {
  it('shows its progress while it runs, then leaves the summary alone on the screen', async () => {
    knobs.latency = 250;
    const out = tempDir();
    const t = open(['content', 'export', 'sp1', '--out', out, '--concurrency', '2']);
    const during = await t.waitFor(new RegExp(`${SPINNER.source} exporting sp1: \\d+/${TOTAL} pages and files`));
    const shown = Number(new RegExp(`(\\d+)/${TOTAL}`).exec(during)![1]);
    expect(shown).toBeLessThan(TOTAL);
    // It counts up as the files come.
    await t.waitFor(new RegExp(`exporting sp1: (?!${shown}/)\\d+/${TOTAL} pages`));
    expect(await t.exitCode()).toBe(0);

    const screen = t.screen();
    expect(screen).toContain(`${out}: 2 pages, ${FILES.length} files; wrote ${TOTAL + 2} files, 0 unchanged`);
    expect(screen).not.toMatch(SPINNER);
    expect(screen).not.toContain('exporting');
    expect(t.history()).not.toMatch(GARBAGE);
    // The summary begins its line: no fragment of a progress line before it.
    expect(screen.split('\n')[0]).toBe(`${out}: 2 pages, ${FILES.length} files; wrote ${TOTAL + 2} files, 0 unchanged`);
    expect(t.cursorVisible()).toBe(true);
    for (const f of FILES) expect(readFileSync(join(out, '.gitbook/assets', f.name)).equals(f.bytes)).toBe(true);
  });

  it('in a terminal narrower than its progress line, leaves no fragment of it', async () => {
    knobs.latency = 150;
    const out = tempDir();
    const t = open(['content', 'export', 'sp1', '--out', out, '--concurrency', '2'], serviceEnv(), 30);
    const during = await t.waitFor(new RegExp(`${SPINNER.source} .*\\d+/${TOTAL}`));
    expect(await t.exitCode()).toBe(0);
    const history = t.history();
    expect(history).not.toMatch(SPINNER);
    expect(history).not.toContain('pages and files');
    expect(history).not.toMatch(GARBAGE);
    // While it ran: the count, which fits, on one row; not the words, which would not.
    expect(during).toMatch(new RegExp(`^${SPINNER.source} \\d+/${TOTAL} sp1( · \\d+s)?$`, 'm'));
  });

  it('off a terminal, the same export writes no progress: its stderr is the summary', async () => {
    knobs.latency = 100;
    const out = tempDir();
    const r = await docsctl(['content', 'export', 'sp1', '--out', out, '--concurrency', '2'], serviceEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/[\r\u001b]/);
    expect(r.stderr).not.toContain('exporting');
    expect(r.stderr.split('\n')[0]).toBe(`${out}: 2 pages, ${FILES.length} files; wrote ${TOTAL + 2} files, 0 unchanged`);
  });

  it('Ctrl-C mid-export exits 130, leaves the terminal clean and nothing half-written; a rerun downloads only what was missing', async () => {
    // The first 5 files come; the others are held until Ctrl-C.
    const late = FILES.slice(5).map((f) => f.name);
    for (const name of late) knobs.hold.add(name);
    const out = tempDir();
    const t = open(['content', 'export', 'sp1', '--out', out, '--concurrency', '2']);
    await t.waitFor(new RegExp(`exporting sp1: ${2 + 5}/${TOTAL} pages and files`));
    // Both downloads of the pool are under way (a part file each) when the user gives up.
    await expect.poll(() => held.length).toBe(2);
    t.press('C-c');
    expect(await t.exitCode()).toBe(130);

    const screen = t.screen();
    expect(screen).not.toMatch(SPINNER);
    expect(screen).not.toContain('pages and files');
    expect(t.history()).not.toMatch(GARBAGE);
    expect(t.cursorVisible()).toBe(true);
    // What it says: interrupted, and that a rerun resumes.
    expect(screen).toMatch(/interrupted/);
    expect(screen).toMatch(/run it again/);

    // In place: whole files only; what is being written is a part file (the rerun removes them).
    const after = filesIn(out);
    const inPlace = after.filter((f) => !f.endsWith('.docsctl-part'));
    for (const f of FILES) {
      const path = `.gitbook/assets/${f.name}`;
      if (inPlace.includes(path)) expect(readFileSync(join(out, path)).equals(f.bytes), path).toBe(true);
    }
    for (const name of late) expect(inPlace).not.toContain(`.gitbook/assets/${name}`);
    const state = JSON.parse(readFileSync(join(out, '.docsctl-export.json'), 'utf8'));
    expect(state.complete).toBe(false);
    const recorded = FILES.filter((f) => `.gitbook/assets/${f.name}` in state.files).map((f) => f.name);
    expect(recorded).toEqual(FILES.slice(0, 5).map((f) => f.name));

    // The rerun, at the terminal: only the 5 missing files are downloaded, and its summary says so.
    knobs.hold.clear();
    release();
    hits.length = 0;
    const again = open(['content', 'export', 'sp1', '--out', out, '--concurrency', '2']);
    expect(await again.exitCode()).toBe(0);
    expect(downloads().sort()).toEqual([...late].sort());
    const summary = again.screen();
    expect(summary).toContain(`${out}: 2 pages, ${FILES.length} files; wrote ${late.length} files, ${TOTAL + 2 - late.length} unchanged`);
    for (const name of late) expect(summary).toContain(`  + .gitbook/assets/${name}`);
    expect(filesIn(out).filter((f) => f.endsWith('.docsctl-part'))).toEqual([]);
    for (const f of FILES) expect(readFileSync(join(out, '.gitbook/assets', f.name)).equals(f.bytes)).toBe(true);
    expect(JSON.parse(readFileSync(join(out, '.docsctl-export.json'), 'utf8')).complete).toBe(true);
  });
});

describe('content export interrupted off a terminal (SIGINT from a script or CI)', () => {
  it('says what was kept and how to go on, exits 130, and leaves only whole files in place', async () => {
    const late = FILES.slice(5).map((f) => f.name);
    for (const name of late) knobs.hold.add(name);
    const out = tempDir();
    const child = execa('node', [BIN, 'content', 'export', 'sp1', '--out', out, '--concurrency', '2'], {
      env: { PATH: process.env.PATH ?? '', ...serviceEnv() },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    await expect.poll(() => held.length, { timeout: 20_000 }).toBe(2);
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toBe(`interrupted: ${out} keeps the files written so far; run it again: it downloads only what it does not have yet`);
    const inPlace = filesIn(out).filter((f) => !f.endsWith('.docsctl-part'));
    for (const name of late) expect(inPlace).not.toContain(`.gitbook/assets/${name}`);
  });
});

describe.skipIf(!HAS_TMUX)('orgs backup at a terminal', () => {
  /** A proxy to the sandbox that holds each page read back `latency` ms: a slow service. */
  let proxy: Server;
  let proxyUrl = '';
  const latency = 120;
  beforeAll(async () => {
    proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
      const target = new URL(sb.server.url);
      const forward = () => {
        const up = request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        req.pipe(up);
      };
      if (/\/content\/page\//.test(req.url ?? '')) setTimeout(forward, latency);
      else forward();
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
  });

  const backupEnv = () => ({ ...sb.env(), DOCSCTL_API_URL: proxyUrl, LANG: 'C.UTF-8' }) as Record<string, string>;
  const content = () => {
    const pages = Array.from({ length: 8 }, (_, i) => ({ title: `Page ${i + 1}`, slug: `page-${i + 1}`, markdown: `# Page ${i + 1}\n\nText ${i + 1}.\n` }));
    putContent(sb.server.store, 'sp-welcome', pages, [{ id: 'logo', name: 'logo.png', contentType: 'image/png', data: Buffer.from('logo') }]);
  };

  it('shows each space’s progress while it runs, then the summary alone', async () => {
    content();
    const out = tempDir();
    const t = open(['orgs', 'backup', '--out', out, '--concurrency', '1'], backupEnv());
    await t.waitFor(new RegExp(`${SPINNER.source} exporting \\S+: \\d+/9 pages and files`));
    expect(await t.exitCode(), t.screen()).toBe(0);
    const screen = t.screen();
    expect(screen).toMatch(/: 8 pages, 1 file; wrote 11 files, 0 unchanged/);
    expect(screen).not.toMatch(SPINNER);
    expect(screen).not.toContain('pages and files');
    expect(t.history()).not.toMatch(GARBAGE);
    expect(t.cursorVisible()).toBe(true);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  });

  it('Ctrl-C mid-backup exits 130 naming the space; the rerun writes only what the space’s folder lacks', async () => {
    content();
    const out = tempDir();
    const t = open(['orgs', 'backup', '--out', out, '--concurrency', '1'], backupEnv());
    const during = await t.waitFor(/exporting (\S+): [3-6]\/9 pages and files/);
    const key = /exporting (\S+):/.exec(during)![1];
    t.press('C-c');
    expect(await t.exitCode()).toBe(130);
    const screen = t.screen();
    expect(screen).toContain(`${key}: interrupted: ${join(out, key)} keeps the files written so far; run it again`);
    expect(screen).not.toMatch(SPINNER);
    expect(t.history()).not.toMatch(GARBAGE);
    expect(t.cursorVisible()).toBe(true);

    const again = open(['orgs', 'backup', '--out', out, '--concurrency', '1'], backupEnv());
    expect(await again.exitCode(), again.screen()).toBe(0);
    const summary = /: 8 pages, 1 file; wrote (\d+) files, (\d+) unchanged/.exec(again.screen());
    expect(summary, again.screen()).not.toBeNull();
    const [written, unchanged] = [Number(summary![1]), Number(summary![2])];
    expect(written + unchanged).toBe(11);
    // What the first run wrote before Ctrl-C (at least .gitbook.yaml, SUMMARY.md and 2 pages) is not written again.
    expect(unchanged).toBeGreaterThanOrEqual(4);
    expect(written).toBeGreaterThan(0);
  });
});
