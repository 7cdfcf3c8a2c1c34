/**
 * `auth login` at a terminal (issue 23): a token the service refuses is asked for again, saying what
 * to check, a bounded number of times; nothing is saved until one is accepted. Typed in tmux.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsctl, useSandbox } from '../helpers/cli.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();

/** A terminal running `docsctl auth login` with nothing but the sandbox's URL in the environment. */
async function login(): Promise<Terminal> {
  const t = Terminal.start(['auth', 'login'], { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home, DOCSCTL_API_URL: sb.server.url });
  await t.waitFor(/API URL/);
  t.press('Enter');
  await t.waitFor(/Token/);
  return t;
}

const count = (text: string, re: RegExp) => text.match(new RegExp(re.source, 'g'))?.length ?? 0;

describe.skipIf(!HAS_TMUX)('auth login at a terminal', () => {
  it('a refused token is asked for again, saying what to check; the next one is saved', async () => {
    const t = await login();
    try {
      t.type('sbx_not-a-token');
      t.press('Enter');
      const screen = await t.waitFor(/2 more tries\)/);
      expect(screen.replace(/\n/g, '')).toContain(`the token was refused by ${sb.server.url}: invalid or revoked token (401): check it`);
      await t.waitFor(/Token[\s\S]*Token/);
      t.type(sb.token('admin'));
      t.press('Enter');
      // The admin belongs to two organizations: one is picked.
      await t.waitFor(/Default organization/);
      t.press('Enter');
      expect(await t.exitCode()).toBe(0);
      expect(t.screen()).toContain(`logged in to ${sb.server.url} as Ada Admin`);
      expect(t.screen()).not.toContain('run docsctl auth login');
    } finally {
      t.close();
    }
    const config = JSON.parse(readFileSync(join(sb.home, 'config.json'), 'utf8'));
    expect(config.profiles.default).toMatchObject({ apiUrl: sb.server.url, token: sb.token('admin'), org: 'org-acme' });
  });

  it('after 3 refused tokens it gives up with exit 3, naming what to check; nothing is saved', async () => {
    const t = await login();
    try {
      for (let i = 1; i <= 3; i++) {
        await t.waitFor(new RegExp(`(Token[\\s\\S]*){${i}}`));
        t.type(`sbx_wrong-${i}`);
        t.press('Enter');
        if (i < 3) await t.waitFor(new RegExp(`${3 - i} more tr(y|ies)\\)`));
      }
      expect(await t.exitCode()).toBe(3);
      const screen = t.screen().replace(/\n/g, '');
      expect(screen).toContain(`error: the token was refused by ${sb.server.url}: invalid or revoked token (401), 3 times; nothing was saved`);
      expect(screen).toContain(`hint: check the token (whole, not expired or revoked) and that ${sb.server.url} is the service that issued it`);
      expect(count(t.screen(), /more tr(y|ies)\)/)).toBe(2);
      for (let i = 1; i <= 3; i++) expect(screen).not.toContain(`sbx_wrong-${i}`);
    } finally {
      t.close();
    }
    expect(existsSync(join(sb.home, 'config.json'))).toBe(false);
  });
});

describe('auth login --with-token', () => {
  it('a refused token: exit 3, the service\'s words and what to check, not "run docsctl auth login"', async () => {
    const r = await docsctl(
      ['auth', 'login', '--api-url', sb.server.url, '--with-token'],
      { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home },
      { input: 'sbx_wrong\n' },
    );
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(
      `error: the token was refused by ${sb.server.url}: invalid or revoked token (401); nothing was saved\n` +
        `hint: check the token (whole, not expired or revoked) and that ${sb.server.url} is the service that issued it`,
    );
    expect(existsSync(join(sb.home, 'config.json'))).toBe(false);
  });
});
