/**
 * The CLI pointed at a hostile server (issue 22): text from the service never reaches the terminal
 * raw. A title holding ESC, BEL, CSI and OSC sequences (any edit-role member can set one) is shown
 * escaped (`^[`, `^G`) in tables, TSV rows, key/value views, `tree` and error messages, on a terminal
 * and in a pipe, while the colours docsctl adds itself still work; `--json` keeps it JSON-escaped and
 * `--jq` prints it as jq -r does, escaped only on a terminal. And `--jq` is bounded: an expression
 * that runs forever or eats memory stops at its bound with exit 1, saying which bound and how to
 * raise it (docs/security.md, "The terminal and --jq").
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();

/** ESC-coloured text, BEL, an OSC 8 hyperlink, a C1 CSI that clears the screen, a tab and a line break. */
const EVIL = 'Ev\x1b[31mRED\x07\x1b]8;;http://x.test\x07L\x1b]8;;\x07\x9b2J\tT\nN';
/** The same, as docsctl shows it on one line (a cell): controls in caret notation, the tab and line break as spaces. */
const SHOWN = 'Ev^[[31mRED^G^[]8;;http://x.test^GL^[]8;;^G^[2J T N';

/** Control characters other than tab and line feed (C0, DEL, C1). */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** `text` without the colour sequences docsctl writes itself (SGR: ESC [ … m). */
const withoutColours = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

let spaceId = '';
async function evilSpace(): Promise<string> {
  const r = await sb.request('POST', `/v1/orgs/${sb.server.organizationId}/spaces`, { title: EVIL });
  expect(r.status).toBe(201);
  return r.body.id;
}

describe('text from the service on a terminal and in a pipe', () => {
  it('a list as TSV: controls escaped, one record per line, tab-separated', async () => {
    spaceId = await evilSpace();
    const r = await sb.run(['spaces', 'list', '--fields', 'id,title']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(CONTROLS);
    const rows = r.stdout.split('\n');
    expect(rows).toContain(`${spaceId}\t${SHOWN}`);
    for (const row of rows) expect(row.split('\t')).toHaveLength(2);
  });

  it("a table on a (forced) terminal: controls escaped, docsctl's own colours kept", async () => {
    spaceId = await evilSpace();
    const r = await sb.run(['spaces', 'list', '--fields', 'id,title'], { env: { DOCSCTL_FORCE_TTY: '200', NO_COLOR: '1' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(r.stdout).toMatch(new RegExp(`^${spaceId}\\s+${escapeRe(SHOWN)}$`, 'm'));
    // In colour (DOCSCTL_FORCE_TTY without NO_COLOR, FORCE_COLOR with it), from the built binary.
    const coloured = await sb.process(['spaces', 'list', '--fields', 'id,title'], { env: { DOCSCTL_FORCE_TTY: '200', FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(/^(\x1b\[[0-9;]*m)+id/); // the header
    expect(withoutColours(coloured.stdout)).toBe(r.stdout);
  });

  it('get: key/value lines on a terminal and in a pipe', async () => {
    spaceId = await evilSpace();
    const tty = await sb.process(['spaces', 'get', spaceId], { env: { DOCSCTL_FORCE_TTY: '200', FORCE_COLOR: '1' } });
    expect(tty.stdout).toMatch(/^(\x1b\[[0-9;]*m)+id/m); // keys in colour
    expect(tty.exitCode).toBe(0);
    expect(withoutColours(tty.stdout)).not.toMatch(CONTROLS);
    expect(withoutColours(tty.stdout)).toMatch(new RegExp(`^title\\s+${escapeRe(SHOWN)}$`, 'm'));
    const piped = await sb.run(['spaces', 'get', spaceId]);
    expect(piped.stdout).not.toMatch(CONTROLS);
    expect(piped.stdout.split('\n')).toContain(`title\t${SHOWN}`);
    // FORCE_COLOR alone (no DOCSCTL_FORCE_TTY) is colour only: in a pipe, the same TSV lines.
    expect((await sb.run(['spaces', 'get', spaceId], { env: { FORCE_COLOR: '1' } })).stdout).toBe(piped.stdout);
  });

  it('tree: on a terminal (with its colours) and in a pipe', async () => {
    spaceId = await evilSpace();
    const coloured = await sb.process(['tree'], { env: { DOCSCTL_FORCE_TTY: '200', FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(/\x1b\[[0-9;]*m/);
    const piped = await sb.run(['tree']);
    expect((await sb.run(['tree'], { env: { FORCE_COLOR: '1' } })).stdout).toBe(piped.stdout);
    for (const r of [coloured, await sb.run(['tree'], { env: { DOCSCTL_FORCE_TTY: '200' } }), piped]) {
      expect(r.exitCode).toBe(0);
      expect(withoutColours(r.stdout)).not.toMatch(CONTROLS);
      expect(withoutColours(r.stdout)).toContain('Ev^[[31mRED^G^[]8;;http://x.test^GL^[]8;;^G^[2J');
      expect(r.stdout).toContain(spaceId);
    }
  });

  it('--json keeps the title JSON-escaped (the C1 control too); --jq prints it raw in a pipe, as jq -r, and escaped on a terminal', async () => {
    spaceId = await evilSpace();
    const json = await sb.run(['spaces', 'get', spaceId, '--json']);
    expect(json.stdout).not.toMatch(CONTROLS);
    expect(json.stdout).toContain('"Ev\\u001b[31mRED\\u0007\\u001b]8;;http://x.test\\u0007L\\u001b]8;;\\u0007\\u009b2J\\tT\\nN"');
    expect(JSON.parse(json.stdout).title).toBe(EVIL);
    const list = await sb.run(['spaces', 'list', '--json']);
    expect(list.stdout).not.toMatch(CONTROLS);
    expect(JSON.parse(list.stdout).map((s: { title: string }) => s.title)).toContain(EVIL);

    const raw = await sb.run(['spaces', 'get', spaceId, '--jq', '.title']);
    expect(raw.stdout).toBe(EVIL);
    const tty = await sb.run(['spaces', 'get', spaceId, '--jq', '.title'], { env: { DOCSCTL_FORCE_TTY: '1' } });
    expect(tty.stdout).toBe('Ev^[[31mRED^G^[]8;;http://x.test^GL^[]8;;^G^[2J\tT\nN');
    // FORCE_COLOR does not make a pipe a terminal: the data stays as it is, and JSON stays JSON.
    expect((await sb.run(['spaces', 'get', spaceId, '--jq', '.title'], { env: { FORCE_COLOR: '1' } })).stdout).toBe(EVIL);
    expect((await sb.run(['spaces', 'get', spaceId, '--json'], { env: { FORCE_COLOR: '1' } })).stdout).toBe(json.stdout);
  });
});

describe.skipIf(!HAS_TMUX)('at a real terminal (tmux)', () => {
  let term: Terminal | undefined;
  afterEach(() => term?.close());
  const open = (args: string[]) =>
    (term = Terminal.start(args, {
      HOME: sb.home,
      DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url,
      DOCSCTL_TOKEN: sb.token('admin'),
      DOCSCTL_ORG: sb.server.organizationId,
      DOCSCTL_MAX_RETRIES: '0',
    }));

  it('a picker and a confirmation show the title escaped: the screen is not cleared, nothing is retitled', async () => {
    spaceId = await evilSpace();
    const t = open(['spaces', 'get']);
    // Raw, ESC [31m would be taken (red) and CSI 2J would clear the screen: the text shows instead.
    await t.waitFor(/Ev\^\[\[31mRED\^G\^\[\]8;;http:\/\/x\.test\^GL\^\[\]8;;\^G\^\[2J T N/);
    t.press('C-c');
    expect(await t.exitCode()).toBe(130);

    const d = open(['spaces', 'delete', spaceId]);
    const screen = await d.waitFor(/Delete space/);
    expect(screen).toContain('^[2J');
    d.press('Enter'); // no, the default
    expect(await d.exitCode()).toBe(130);
  });
});

describe('messages from a hostile server', () => {
  let server: http.Server;
  let url = '';
  const said = 'no such space \x1b]0;owned\x07\x1b[2J\x1b[1;1H\x9b31mgone';
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: said } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('an error message is escaped; with --json it stays JSON-escaped', async () => {
    const r = await sb.run(['spaces', 'get', 'sp-x'], { env: { DOCSCTL_API_URL: url } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).not.toMatch(CONTROLS);
    expect(r.stderr).toContain('no such space ^[]0;owned^G^[[2J^[[1;1H^[31mgone');
    const json = await sb.run(['spaces', 'get', 'sp-x', '--json'], { env: { DOCSCTL_API_URL: url } });
    expect(json.exitCode).toBe(4);
    expect(json.stderr).not.toMatch(CONTROLS);
    expect(JSON.parse(json.stderr).error.message).toContain(said);
  });

  it('--verbose trace lines and the stack of an unexpected error are escaped too', async () => {
    const r = await sb.run(['spaces', 'get', 'sp-x', '--verbose'], { env: { DOCSCTL_API_URL: url } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).not.toMatch(CONTROLS);
  });
});

describe('--jq is bounded', () => {
  const fast = { DOCSCTL_JQ_TIMEOUT: '1' };
  /** With --jq an error is the JSON envelope on stderr, as with --json: its message and hint as lines. */
  const said = (r: { stderr: string }) => {
    const { error } = JSON.parse(r.stderr) as { error: { message: string; hint: string | null } };
    return `error: ${error.message}${error.hint ? `\nhint: ${error.hint}` : ''}`;
  };
  for (const expression of ['repeat(1)', 'def f: f; f', 'range(1e8)']) {
    it(`${expression} stops at the time bound: exit 1 naming it`, async () => {
      const started = Date.now();
      const r = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', expression], { env: fast });
      expect(r.exitCode).toBe(1);
      expect(said(r)).toMatch(/^error: --jq: jq did not finish within 1 s/);
      expect(said(r)).toContain('DOCSCTL_JQ_TIMEOUT');
      expect(r.stderr).not.toContain('bug in docsctl');
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  }

  it("running out of memory inside jq is the memory bound, in jq's words, never a bug in docsctl", async () => {
    const r = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', 'def f: [f]; f'], { env: { DOCSCTL_JQ_MAX_MEMORY: '64', DOCSCTL_JQ_TIMEOUT: '120' } });
    expect(r.exitCode).toBe(1);
    expect(said(r)).toMatch(/^error: --jq: jq: error: cannot allocate memory/);
    expect(said(r)).toContain('64 MiB');
    expect(said(r)).toContain('DOCSCTL_JQ_MAX_MEMORY');
    expect(r.stderr).not.toContain('bug in docsctl');
    expect(r.stderr).not.toContain('Aborted');
  });

  it("an answer too large for the thread's heap is the memory bound too", async () => {
    // 70 MB of JSON (docsctl reads it: DOCSCTL_MAX_RESPONSE_BYTES raised), more than the thread's heap
    // holds with a 32 MiB bound (32 + 32 MiB for Node's own use).
    const body = JSON.stringify({ items: Array.from({ length: 500_000 }, (_, i) => ({ id: `x${i}`, text: 'y'.repeat(120) })) });
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await sb.run(['api', '/v1/big', '--jq', '.items | length'], {
        env: { DOCSCTL_API_URL: url, DOCSCTL_MAX_RESPONSE_BYTES: '100000000', DOCSCTL_JQ_MAX_MEMORY: '32', DOCSCTL_JQ_TIMEOUT: '120' },
      });
      expect(r.exitCode).toBe(1);
      expect(said(r)).toMatch(/^error: --jq: jq ran out of memory \(jq may use 32 MiB: DOCSCTL_JQ_MAX_MEMORY\)/);
      expect(r.stderr).not.toContain('bug in docsctl');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('a bound that cannot be used is exit 2 naming the variable, nothing sent', async () => {
    for (const [name, value] of [
      ['DOCSCTL_JQ_TIMEOUT', 'soon'],
      ['DOCSCTL_JQ_TIMEOUT', '0'],
      ['DOCSCTL_JQ_MAX_MEMORY', '1'],
      ['DOCSCTL_JQ_MAX_MEMORY', 'lots'],
    ]) {
      const r = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '.title'], { env: { [name]: value } });
      expect(r.exitCode, `${name}=${value}`).toBe(2);
      expect(said(r)).toMatch(new RegExp(`^error: ${name}: `));
      expect(r.stdout).toBe('');
    }
    // Without --jq the jq settings are not read.
    expect((await sb.run(['spaces', 'get', 'sp-welcome', '--fields', 'title'], { env: { DOCSCTL_JQ_TIMEOUT: 'soon' } })).exitCode).toBe(0);
  });

  it("within the bounds jq works as before, a runtime error in jq's words (exit 1), a syntax error exit 2; every page of a list through one jq", async () => {
    expect((await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '.title'])).stdout).toBe('Welcome');
    const runtime = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', '.title | keys']);
    expect(runtime.exitCode).toBe(1);
    expect(said(runtime)).toBe('error: --jq: jq: error (at /dev/stdin:0): string ("Welcome") has no keys');
    const bad = await sb.run(['spaces', 'get', 'sp-welcome', '--jq', 'repeat(']);
    expect(bad.exitCode).toBe(2);
    expect(said(bad)).toContain('syntax error');
    for (let i = 0; i < 5; i++) await sb.request('POST', `/v1/orgs/${sb.server.organizationId}/spaces`, { title: `Paged ${i}` });
    const paged = await sb.run(['api', `/v1/orgs/${sb.server.organizationId}/spaces?limit=2`, '--paginate', '--jq', '.[].title']);
    expect(paged.exitCode).toBe(0);
    expect(paged.stdout.split('\n').filter((t) => t.startsWith('Paged '))).toHaveLength(5);
  });

  it('the built binary finds its jq worker', async () => {
    const ok = await sb.process(['spaces', 'get', 'sp-welcome', '--jq', '.title']);
    expect(ok.stdout).toBe('Welcome');
    const r = await sb.process(['spaces', 'get', 'sp-welcome', '--jq', 'def f: f; f'], { env: fast });
    expect(r.exitCode).toBe(1);
    expect(said(r)).toContain('DOCSCTL_JQ_TIMEOUT');
  });
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
