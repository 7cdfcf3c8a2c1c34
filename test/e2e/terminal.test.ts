/**
 * docsctl at a real terminal (a tmux pane): prompts for missing arguments, confirmations that refuse
 * or go ahead, a spinner that ends cleanly; and the same commands without a terminal never ask.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/cli.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();
let term: Terminal | undefined;
afterEach(() => term?.close());

function open(args: string[], as = 'admin', extra: Record<string, string> = {}, columns?: number): Terminal {
  term = Terminal.start(
    args,
    {
      HOME: sb.home,
      DOCSCTL_CONFIG_DIR: sb.home,
      DOCSCTL_API_URL: sb.server.url,
      DOCSCTL_TOKEN: sb.token(as),
      DOCSCTL_ORG: sb.server.organizationId,
      DOCSCTL_MAX_RETRIES: '0',
      ...extra,
    },
    columns,
  );
  return term;
}

describe.skipIf(!HAS_TMUX)('at a terminal', () => {
  it('spaces get without a space offers a list to pick from', async () => {
    for (const title of ['Alpha guide', 'Beta notes']) {
      expect((await sb.request('POST', `/v1/orgs/${sb.server.organizationId}/spaces`, { title })).status).toBe(201);
    }
    const t = open(['spaces', 'get']);
    const screen = await t.waitFor(/Space/);
    for (const title of ['Welcome', 'Alpha guide', 'Beta notes']) expect(screen).toContain(title);
    t.press('Down');
    const moved = await t.waitFor(/❯ (Welcome|Alpha guide|Beta notes)/);
    const chosen = /❯ (?:\S+ )?(Welcome|Alpha guide|Beta notes)/.exec(moved)![1];
    t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(new RegExp(`title\\s+${chosen}`));
  });

  it('a long list becomes a search box that filters as you type', async () => {
    for (let i = 1; i <= 14; i++) {
      expect((await sb.request('POST', `/v1/orgs/${sb.server.organizationId}/spaces`, { title: `Guide ${i}` })).status).toBe(201);
    }
    expect((await sb.request('POST', `/v1/orgs/${sb.server.organizationId}/spaces`, { title: 'Zebra handbook' })).status).toBe(201);
    const t = open(['spaces', 'get', '--fields', 'title']);
    await t.waitFor(/Space/);
    t.type('zebra');
    await t.waitFor(/❯ Zebra handbook/);
    expect(t.screen()).not.toContain('Guide 3');
    t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toMatch(/^title\s+Zebra handbook$/m);
  });

  it('members set-role without a role offers the roles; lowering asks for confirmation, and no changes nothing', async () => {
    const t = open(['members', 'set-role', 'u-edit']);
    await t.waitFor(/Role/);
    t.press('Down', 'Down', 'Down', 'Down', 'Down'); // admin → … → read
    await t.waitFor(/❯ read/);
    t.press('Enter');
    const asked = await t.waitFor(/Lower member "Ed Editor" \(u-edit\) from edit to read\?/);
    expect(asked).toContain('(y/N)');
    t.type('n');
    t.press('Enter');
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toContain('cancelled: nothing was changed');
    expect((await sb.request('GET', `/v1/orgs/${sb.server.organizationId}/members/u-edit`)).body.role).toBe('edit');
  });

  it('a destructive command goes ahead only when confirmed', async () => {
    const t = open(['spaces', 'delete', 'sp-welcome']);
    await t.waitFor(/\(y\/N\)/);
    t.type('y');
    t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(404);
  });

  it('Ctrl-C at a prompt cancels with exit 130 and changes nothing', async () => {
    const t = open(['spaces', 'delete', 'sp-welcome']);
    await t.waitFor(/\(y\/N\)/);
    t.press('C-c');
    expect(await t.exitCode()).toBe(130);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(200);
  });

  describe('a long import', () => {
    let site: Server;
    let url = '';
    beforeAll(async () => {
      site = createServer((_req, res) => {
        setTimeout(() => {
          res.setHeader('content-type', 'text/html');
          res.end('<html><head><title>Slow page</title></head><body><h1>Slow page</h1><p>Hello.</p></body></html>');
        }, 1200);
      });
      await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((r) => site.close(() => r())));

    it('shows a spinner while it waits, and leaves only the result when done', async () => {
      const t = open(['content', 'import', 'sp-welcome', url]);
      await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] importing http:\/\/127\.0\.0\.1/);
      expect(await t.exitCode()).toBe(0);
      const screen = t.screen();
      expect(screen).toMatch(/imported \d+ of \d+ resources/);
      expect(screen).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    });

    it('in a terminal narrower than its line, the spinner is cut to the width: no rows left behind', async () => {
      const t = open(['content', 'import', 'sp-welcome', `${url}?${'long-query-'.repeat(8)}`], 'admin', {}, 40);
      await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] importing http.*…/);
      expect(
        t
          .screen()
          .split('\n')
          .filter((l) => l.includes('importing')),
      ).toHaveLength(1);
      expect(await t.exitCode()).toBe(0);
      const history = t.history();
      expect(history).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      expect(history).not.toContain('importing');
    });

    it('Ctrl-C while it spins: the spinner line goes, exit 130', async () => {
      const t = open(['content', 'import', 'sp-welcome', url]);
      await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] importing/);
      t.press('C-c');
      expect(await t.exitCode()).toBe(130);
      expect(t.history()).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|importing/);
      expect(t.cursorVisible()).toBe(true);
    });
  });
});

describe('without a terminal nothing is asked', () => {
  it('a missing argument is a usage error naming it', async () => {
    const r = await sb.run(['spaces', 'get']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('missing argument <space>');
  });

  it('CI set at a terminal still never prompts', async () => {
    if (!HAS_TMUX) return;
    const t = open(['members', 'set-role', 'u-edit'], 'admin', { CI: '1' });
    expect(await t.exitCode()).toBe(2);
    expect(t.screen()).toContain('missing argument <role>');
  });

  it('a destructive command without --yes refuses and changes nothing', async () => {
    const r = await sb.run(['spaces', 'delete', 'sp-welcome']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/refusing without confirmation/);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(200);
  });
});

describe.skipIf(!HAS_TMUX)('issue 15: titles asked for, comments written in the editor, confirmations naming title and id', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'docsctl-editor-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A fake editor: a script that does `body` to the file it is given ($1), and records its name. */
  function editor(name: string, body: string): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\necho "$1" > ${JSON.stringify(join(dir, `${name}.file`))}\n${body}\n`, { mode: 0o755 });
    return path;
  }

  it('spaces create without --title asks for one (a blank answer is refused), then creates the space', async () => {
    const t = open(['spaces', 'create', '--emoji', '📘', '--json']);
    await t.waitFor(/Title/);
    t.press('Enter');
    await t.waitFor(/Title must not be blank/);
    t.type('Field guide');
    t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain('"title": "Field guide"');
    const spaces = (await sb.request('GET', `/v1/orgs/${sb.server.organizationId}/spaces`)).body.items;
    expect(spaces.map((s: { title: string }) => s.title)).toContain('Field guide');
  });

  it('cr create with a blank --subject asks for the subject', async () => {
    const t = open(['cr', 'create', 'sp-welcome', '--subject', ' ']);
    await t.waitFor(/Subject/);
    t.type('Rewrite the quickstart');
    t.press('Enter');
    expect(await t.exitCode()).toBe(0);
    const crs = (await sb.request('GET', '/v1/spaces/sp-welcome/change-requests?status=draft')).body.items;
    expect(crs.map((c: { subject: string }) => c.subject)).toEqual(['Rewrite the quickstart']);
  });

  it('comments post without a body opens $EDITOR on a temporary file and posts what was saved; the file is removed', async () => {
    const fake = editor('write', `printf 'Written in **the editor**\\n\\n' > "$1"`);
    const t = open(['comments', 'post', 'sp-welcome', '--json'], 'admin', { EDITOR: fake, VISUAL: '' });
    expect(await t.exitCode()).toBe(0);
    expect(t.screen()).toContain('Writing the comment in');
    const comments = (await sb.request('GET', '/v1/spaces/sp-welcome/comments?format=markdown')).body.items;
    expect(comments.map((c: { body: { markdown: string } }) => c.body.markdown)).toEqual(['Written in **the editor**']);
    const file = readFileSync(join(dir, 'write.file'), 'utf8').trim();
    expect(file).toMatch(/COMMENT\.md$/);
    expect(existsSync(file)).toBe(false);
  });

  it('VISUAL comes before EDITOR; comments reply saved empty cancels: exit 130, nothing posted', async () => {
    const c = (await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: 'first' } })).body;
    const never = editor('never', 'exit 3');
    const empty = editor('empty', ': > "$1"');
    const t = open(['comments', 'reply', 'sp-welcome', c.id], 'admin', { VISUAL: empty, EDITOR: never });
    expect(await t.exitCode()).toBe(130);
    expect(t.screen()).toContain('cancelled: the reply is empty, nothing was sent');
    expect((await sb.request('GET', `/v1/spaces/sp-welcome/comments/${c.id}/replies`)).body.items).toEqual([]);
    expect(existsSync(join(dir, 'never.file'))).toBe(false);
  });

  it('an editor that fails is an error (exit 1), nothing posted', async () => {
    const t = open(['comments', 'post', 'sp-welcome'], 'admin', { EDITOR: editor('fails', 'exit 3') });
    expect(await t.exitCode()).toBe(1);
    expect(t.screen()).toContain('exited with status 3: nothing was sent');
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/comments')).body.items).toEqual([]);
  });

  it('a confirmation names the resource by title and id', async () => {
    const t = open(['spaces', 'delete', 'sp-welcome']);
    await t.waitFor(/Delete space "Welcome" \(sp-welcome\)\? It can be restored for 7 days\. \(y\/N\)/);
    t.type('n');
    t.press('Enter');
    expect(await t.exitCode()).toBe(130);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).status).toBe(200);
  });
});
