/**
 * The scripting contract of issue 15, driven as a script drives docsctl: real shell pipes with
 * `set -o pipefail` and `head`, jq through `--jq`, `--fields`, and tables that fit the terminal.
 * A small server of this file's own stands in for a service that fails half-way through a list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, docsctl } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();

/** The environment `sb.run` uses, for commands run through a shell. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: sb.home,
    DOCSCTL_CONFIG_DIR: sb.home,
    DOCSCTL_API_URL: sb.server.url,
    DOCSCTL_TOKEN: sb.token('admin'),
    DOCSCTL_ORG: sb.server.organizationId,
    DOCSCTL_MAX_RETRIES: '0',
    ...extra,
  };
}

/** A shell pipeline with `set -o pipefail`; `docsctl` in it is the built binary. */
async function pipeline(script: string, extra: Record<string, string> = {}) {
  const r = await execa('bash', ['-c', `set -o pipefail\ndocsctl() { node ${JSON.stringify(BIN)} "$@"; }\n${script}`], {
    env: env(extra),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode ?? -1 };
}

/** Many spaces, straight into the sandbox (so that a list has pages). */
async function manySpaces(n: number, title = (i: number) => `Space ${i}`) {
  for (let i = 0; i < n; i++) {
    const r = await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: title(i) });
    expect(r.status).toBe(201);
  }
}

/** Display width of a line (an ellipsis is one column, most emoji two). */
const width = (line: string) => [...line].reduce((n, ch) => n + (/\p{Extended_Pictographic}/u.test(ch) ? 2 : 1), 0);

describe('pipes', () => {
  it('a closed stdout ends a command quietly with exit 0, and stops paging', async () => {
    await manySpaces(1100);
    for (let i = 0; i < 5; i++)
      expect((await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: `Change ${i}` }, 'edit')).status).toBe(201);
    const requests: string[] = [];
    const handle = sb.server.app.handle;
    sb.server.app.handle = (req) => {
      if (req.url.startsWith('/v1/orgs/org-acme/spaces')) requests.push(req.url);
      return handle(req);
    };
    try {
      for (let round = 0; round < 5; round++) {
        requests.length = 0;
        const json = await pipeline('docsctl spaces list --all --json | head -c 10');
        expect(json, 'spaces list --all --json | head -c 10').toMatchObject({ exitCode: 0, stderr: '' });
        expect(json.stdout).toBe('[\n  {\n    ');
        // 1101 spaces are two pages of 1000: the reader left during the first, so the second is never asked for.
        expect(requests.length).toBe(1);
        const tsv = await pipeline('docsctl cr list --status all | head -3 && docsctl spaces list --all | head -3');
        expect(tsv.exitCode).toBe(0);
        expect(tsv.stderr).toBe('');
        expect(tsv.stdout.split('\n')).toHaveLength(6);
      }
    } finally {
      sb.server.app.handle = handle;
    }
    const help = await pipeline('docsctl --help | head -1; docsctl spaces list --help | head -1');
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
  });
});

describe('stdout holds valid JSON or nothing', () => {
  let failing: http.Server;
  let url: string;
  let requests = 0;
  beforeAll(async () => {
    // Page one answers; page two fails; a third path answers malformed JSON.
    failing = http.createServer((req, res) => {
      requests++;
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page');
      if (page === 'two') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 500, message: 'page two broke' } }));
        return;
      }
      const items = [
        { object: 'space', id: 'sp-a', title: 'A' },
        { object: 'space', id: 'sp-b', title: 'B' },
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items, count: 4, next: { page: 'two' } }));
    });
    await new Promise<void>((done) => failing.listen(0, '127.0.0.1', () => done()));
    url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => failing.close(() => done())));

  it('prints nothing when the first page never arrives', async () => {
    const r = await sb.run(['spaces', 'list', '--json'], { env: { DOCSCTL_API_URL: 'http://127.0.0.1:1' } });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('');
    const paged = await sb.run(['spaces', 'list', '--all', '--json'], { env: { DOCSCTL_API_URL: 'http://127.0.0.1:1' } });
    expect(paged.stdout).toBe('');
  });

  it('closes the array when a later page fails: stdout still parses, the error is on stderr with its exit code', async () => {
    const r = await sb.run(['spaces', 'list', '--all', '--json'], { env: { DOCSCTL_API_URL: url } });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).map((s: { id: string }) => s.id)).toEqual(['sp-a', 'sp-b']);
    expect(r.stderr).toContain('page two broke');
    const piped = await pipeline(`docsctl spaces list --all --json | jq -r '.[].id'`, { DOCSCTL_API_URL: url });
    expect(piped.exitCode).toBe(1); // docsctl's, through pipefail; jq itself parsed the output
    expect(piped.stdout).toBe('sp-a\nsp-b');
  });

  it('--jq runs once on the whole list (a failure half-way prints nothing), and a bad expression is exit 2 before anything is sent', async () => {
    const r = await sb.run(['spaces', 'list', '--all', '--jq', '.[].title'], { env: { DOCSCTL_API_URL: url } });
    expect(r.stdout).toBe('');
    expect(r.exitCode).toBe(1);
    requests = 0;
    const bad = await sb.run(['spaces', 'list', '--jq', '.[] | bad('], { env: { DOCSCTL_API_URL: url } });
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stderr).error.message).toMatch(/^--jq: jq: error: syntax error/);
    expect(bad.stderr).toContain('compile error');
    expect(requests).toBe(0);
  });
});

describe('--jq', () => {
  it('runs jq on the JSON of any command: strings raw, other values as JSON; a runtime error is exit 1', async () => {
    expect((await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '.title'])).stdout).toBe('Welcome');
    expect((await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '{id, n: .comments}'])).stdout).toBe('{\n  "id": "sp-welcome",\n  "n": 0\n}');
    const list = await sb.run(['members', 'list', '--all', '--jq', '.[] | select(.role == "admin") | .user.email']);
    expect(list.stdout).toBe('admin@acme.test');
    const runtime = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '.title | keys']);
    expect(runtime.exitCode).toBe(1);
    expect(JSON.parse(runtime.stderr).error.message).toContain('--jq: jq: error');
    expect(runtime.stderr).toContain('has no keys');
    // With --fields, jq sees the fields picked.
    expect((await sb.run(['spaces', 'list', '--fields', 'id,title', '--jq', '.[0] | keys | join(",")'])).stdout).toBe('id,title');
  });
});

describe('--fields', () => {
  it('names what the command shows: the same names and values in TSV and JSON; an unknown name is exit 2 listing them, nothing sent', async () => {
    const tsv = await sb.run(['members', 'list', '--role', 'guest', '--fields', 'id,role,email']);
    expect(tsv.stdout).toBe('u-guest\tguest\tguest@acme.test');
    const json = await sb.json(['members', 'list', '--role', 'guest', '--fields', 'id,role,email']);
    expect(json).toEqual([{ id: 'u-guest', role: 'guest', email: 'guest@acme.test' }]);

    const before = sb.server.store.exportState();
    const unknown = await sb.run(['spaces', 'create', '--title', 'Never', '--fields', 'id,nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--fields: no field "nope" here; available: id, title, emoji, visibility');
    expect(sb.server.store.exportState()).toBe(before);

    // A list takes its columns and the object's other fields (listed by --help).
    expect((await sb.run(['spaces', 'list', '--fields', 'id,emoji,url'])).stdout).toBe(`sp-welcome\t👋\t${sb.server.url}/app/s/sp-welcome`);
    const help = await sb.run(['spaces', 'list', '--help']);
    expect(help.stdout).toContain('Columns, in order (TSV rows; names for --fields): id, title, visibility, parent, updatedAt');
    expect(help.stdout).toMatch(/More fields for --fields: emoji, organization, .*url/);
  });

  it('shows a comment’s author as its user id and a site’s url, as tables do', async () => {
    await sb.run(['comments', 'post', 'sp-welcome', '-m', 'Hello'], { as: 'comment' });
    const posted = await sb.json(['comments', 'list', 'sp-welcome', '--fields', 'postedBy,body']);
    expect(posted).toEqual([{ postedBy: 'u-comment', body: 'Hello' }]);
    const site = await sb.json(['sites', 'create', '--title', 'Docs site', '--fields', 'id,url']);
    expect(site.url).toMatch(/^http/);
  });
});

describe('tables fit the terminal', () => {
  /** At most 50 characters (a space's title). */
  const LONG = 'A long title that will not fit a narrow terminal';
  /** At most 100 (a change request's subject). */
  const LONGER = `${LONG}, and a subject that goes on and on until the end`;

  it('at 80 columns every row of every list stays on one line; long cells are cut with …, ids never; times are short', async () => {
    await manySpaces(3, () => LONG);
    await sb.run(['cr', 'create', 'sp-welcome', '--subject', LONGER]);
    const ids = Object.keys(Object.fromEntries(sb.server.store.data.spaces));
    for (const args of [
      ['spaces', 'list'],
      ['cr', 'list', '--status', 'all'],
      ['members', 'list'],
      ['collections', 'list'],
      ['teams', 'list'],
      ['orgs', 'list'],
    ]) {
      const r = await sb.run(args, { env: { DOCSCTL_FORCE_TTY: '80', NO_COLOR: '1' } });
      expect(r.exitCode, args.join(' ')).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines.length, args.join(' ')).toBeGreaterThan(1);
      for (const line of lines) expect(width(line), `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
    }
    const spaces = await sb.run(['spaces', 'list'], { env: { DOCSCTL_FORCE_TTY: '80', NO_COLOR: '1' } });
    expect(spaces.stdout).toMatch(/A long title[^\n]*…/);
    for (const id of ids) expect(spaces.stdout).toContain(id);
    expect(spaces.stdout).toMatch(/\bnow\b|\d+[mhd] ago/);
    expect(spaces.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    // TSV and JSON keep the full title and the full ISO time.
    const tsv = await sb.run(['spaces', 'list']);
    expect(tsv.stdout).toContain(LONG);
    expect(tsv.stdout).toMatch(/\t\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });

  it.skipIf(!HAS_TMUX)('in a real terminal (120 columns), a table fits it too', async () => {
    for (let i = 0; i < 2; i++) await sb.run(['cr', 'create', 'sp-welcome', '--subject', LONGER]);
    const term = Terminal.start(['cr', 'list', '--status', 'all'], env({ NO_COLOR: '1' }));
    try {
      expect(await term.exitCode()).toBe(0);
      const screen = (await term.waitFor(/\[exit 0\]/)).split('\n').filter((l) => l.trim() && !l.startsWith('[exit'));
      expect(screen[0]).toMatch(/^id\s+number\s+status\s+subject/);
      for (const line of screen) expect(width(line.trimEnd())).toBeLessThanOrEqual(120);
      expect(screen.some((l) => l.includes('…'))).toBe(true);
    } finally {
      term.close();
    }
  });

  it('DOCSCTL_FORCE_TTY gives the terminal output on a pipe (a number is the width); FORCE_COLOR does not, it adds colour to it', async () => {
    const plain = await sb.run(['spaces', 'list']);
    expect(plain.stdout).not.toMatch(/^id\s+title/);
    const forced = await docsctl(['spaces', 'list'], { ...env(), DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1' });
    expect(forced.stdout).toMatch(/^id\s+title\s+visibility\s+parent\s+updatedAt/);
    const narrow = await docsctl(['spaces', 'list'], { ...env(), DOCSCTL_FORCE_TTY: '30', NO_COLOR: '1' });
    // At 30 columns the least useful columns are left out (stderr says which) before the title is cut.
    expect(narrow.stdout).toBe('id          title\nsp-welcome  Welcome');
    expect(narrow.stderr).toBe('note: columns visibility, parent, updatedAt hidden to fit 30 columns (see --fields, --json)');
    const coloured = await docsctl(['spaces', 'list'], { ...env(), DOCSCTL_FORCE_TTY: '1', FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\x1b[');
    expect(coloured.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toBe(forced.stdout);
    for (const value of ['1', '0']) {
      const r = await docsctl(['spaces', 'list'], { ...env(), FORCE_COLOR: value });
      expect(r.stdout, `FORCE_COLOR=${value}`).toBe(plain.stdout);
      expect(r.stdout).not.toContain('\x1b');
    }
  });

  it('FORCE_COLOR=1 (as CI systems export it for other tools) leaves what docsctl writes into a real pipe byte for byte the same', async () => {
    for (const command of ['docsctl spaces list', 'docsctl spaces get sp-welcome', 'docsctl spaces list --json', 'docsctl tree']) {
      // `&& echo` marks the end: the last line break counts, and pipefail says docsctl succeeded.
      const script = `${command} | cat && echo '<end>'`;
      const bare = await pipeline(script);
      expect(bare.exitCode, command).toBe(0);
      expect(bare.stdout).toMatch(/\n<end>$/);
      const forced = await pipeline(script, { FORCE_COLOR: '1' });
      expect(forced.exitCode, command).toBe(0);
      expect(forced.stdout, command).toBe(bare.stdout);
      expect(forced.stdout).not.toContain('\x1b');
    }
    expect((await pipeline('docsctl spaces list | cat', { FORCE_COLOR: '1' })).stdout).toMatch(/^sp-welcome\tWelcome\t/);
  });
});
