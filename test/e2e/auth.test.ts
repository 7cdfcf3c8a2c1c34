import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsctl } from '../helpers/cli.js';
import { useSandbox } from '../helpers/inprocess.js';
import { HAS_TMUX, Terminal } from '../helpers/terminal.js';

const sb = useSandbox();

/** docsctl with only the config dir: no DOCSCTL_* auth in the environment. */
const bare = (args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
  sb.docsctl(args, { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home, ...env }, input === undefined ? {} : { input });

describe('auth', () => {
  it('logs in with a token on stdin, verifies it, and saves a 0600 profile', async () => {
    const r = await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], {}, `${sb.token('admin')}\n`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`logged in to ${sb.server.url} as Ada Admin (profile default, organization org-acme)`);
    const file = join(sb.home, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({
      currentProfile: 'default',
      profiles: { default: { apiUrl: sb.server.url, token: sb.token('admin'), org: 'org-acme', user: 'Ada Admin' } },
    });

    const status = await bare(['auth', 'status', '--json']);
    expect(status.exitCode).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toEqual([
      {
        profile: 'default',
        current: true,
        apiUrl: sb.server.url,
        organization: 'org-acme',
        user: 'Ada Admin',
        userId: 'u-admin',
        state: 'verified',
        tokenSource: 'profile',
        token: `****${sb.token('admin').slice(-4)}`,
        configPath: file,
      },
    ]);
    expect(status.stdout).not.toContain(sb.token('admin'));

    // the saved profile is used by other commands
    const list = await bare(['collections', 'list', '--fields', 'id']);
    expect(list.stdout).toBe('col-handbook');

    const tok = await bare(['auth', 'token']);
    expect(tok.stdout).toBe(sb.token('admin'));

    const out = await bare(['auth', 'logout']);
    expect(out.exitCode).toBe(0);
    const after = await bare(['auth', 'status']);
    expect(after.exitCode).toBe(3);
    expect(after.stderr).toContain('not authenticated');
  });

  it('refuses a bad token without saving anything', async () => {
    const r = await bare(['auth', 'login', '--api-url', sb.server.url, '--with-token'], {}, 'sbx_wrong\n');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('invalid or revoked token');
    const status = await bare(['auth', 'status']);
    expect(status.exitCode).toBe(3);
  });

  it('uses the stdin token even when DOCSCTL_TOKEN is set, and never waits on an empty stdin', async () => {
    const r = await bare(
      ['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'],
      { DOCSCTL_TOKEN: 'sbx_env-token' },
      `${sb.token('read')}\n`,
    );
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('as Rex Reader');

    const empty = await bare(['auth', 'login', '--api-url', sb.server.url, '--with-token'], {}, '');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('--with-token: stdin was empty');

    const noTty = await bare(['auth', 'login', '--api-url', sb.server.url]);
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toContain('no token given');
  });

  it('needs --org when the user is in several organizations, and checks it', async () => {
    const r = await bare(['auth', 'login', '--api-url', sb.server.url, '--with-token'], {}, sb.token('admin'));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--org: is required: you belong to several organizations');
    expect(r.stderr).toContain('org-acme, org-globex');
    const wrong = await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-nope', '--with-token'], {}, sb.token('admin'));
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('--org: org-nope is not one of your organizations');
    // one organization only: picked without asking
    const one = await bare(['auth', 'login', '--api-url', sb.server.url, '--with-token'], {}, sb.token('read'));
    expect(one.exitCode).toBe(0);
    expect(one.stderr).toContain('organization org-acme');
  });

  it('keeps named profiles apart; the environment and --org override them', async () => {
    await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], {}, sb.token('admin'));
    const o = await bare(['--profile', 'globex', 'auth', 'login', '--api-url', sb.server.url, '--org', 'org-globex', '--with-token'], {}, sb.token('outsider'));
    expect(o.exitCode).toBe(0);
    // the last login is current
    expect((await bare(['orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-globex');
    expect((await bare(['--profile', 'default', 'orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-acme');
    expect((await bare(['orgs', 'get', '--fields', 'id'], { DOCSCTL_PROFILE: 'default' })).stdout).toBe('id\torg-acme');
    expect((await bare(['--profile', 'default', '--org', 'org-globex', 'orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-globex');
    const envTok = await bare(['--profile', 'globex', 'auth', 'status', '--json'], { DOCSCTL_TOKEN: sb.token('read') });
    const rows = JSON.parse(envTok.stdout);
    expect(rows.find((r: { current: boolean }) => r.current)).toMatchObject({
      profile: 'globex',
      tokenSource: 'environment',
      userId: 'u-read',
      state: 'verified',
    });
  });

  describe('profiles', () => {
    /** Two saved profiles: default (org-acme, Ada) and globex (org-globex, the outsider), globex current. */
    async function twoProfiles() {
      expect((await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], {}, sb.token('admin'))).exitCode).toBe(0);
      expect(
        (await bare(['--profile', 'globex', 'auth', 'login', '--api-url', sb.server.url, '--org', 'org-globex', '--with-token'], {}, sb.token('outsider')))
          .exitCode,
      ).toBe(0);
    }
    const current = () => JSON.parse(readFileSync(join(sb.home, 'config.json'), 'utf8')).currentProfile;

    it('--profile or DOCSCTL_PROFILE naming no profile is a usage error listing the ones there are, even with the environment set', async () => {
      await twoProfiles();
      const flag = await bare(['--profile', 'nope', 'orgs', 'get']);
      expect(flag.exitCode).toBe(2);
      expect(flag.stdout).toBe('');
      expect(flag.stderr).toBe(
        'error: --profile: no profile is named "nope"; the profiles are: default, globex\n' +
          'hint: docsctl auth status lists them; docsctl --profile nope auth login saves a new one',
      );
      // The environment says it all (URL, token, organization): the name is still checked, nothing is sent.
      const env = { DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('admin'), DOCSCTL_ORG: 'org-acme' };
      const withEnv = await bare(['--profile', 'nope', 'collections', 'list'], env);
      expect(withEnv.exitCode).toBe(2);
      expect(withEnv.stdout).toBe('');
      const byVar = await bare(['collections', 'list'], { ...env, DOCSCTL_PROFILE: 'staging' });
      expect(byVar.exitCode).toBe(2);
      expect(byVar.stderr).toContain('error: DOCSCTL_PROFILE: no profile is named "staging"; the profiles are: default, globex');
      expect(byVar.stderr).toContain('or unset DOCSCTL_PROFILE');
      for (const args of [
        ['auth', 'status'],
        ['auth', 'token'],
        ['auth', 'logout'],
      ]) {
        const r = await bare(['--profile', 'nope', ...args]);
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toContain('no profile is named "nope"; the profiles are: default, globex');
      }
      // No profile saved at all: it says so, and where it looked.
      rmSync(join(sb.home, 'config.json'));
      const none = await bare(['--profile', 'nope', 'orgs', 'get']);
      expect(none.exitCode).toBe(2);
      expect(none.stderr).toContain(`--profile: no profile is named "nope"; no profile is saved (${join(sb.home, 'config.json')})`);
      // auth login is how a profile is made: it may name a new one.
      const login = await bare(['--profile', 'nope', 'auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], {}, sb.token('read'));
      expect(login.exitCode, login.stderr).toBe(0);
      expect((await bare(['--profile', 'nope', 'orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-acme');
    });

    it('auth switch NAME makes it the current profile; an unknown name, or none off a terminal, lists them', async () => {
      await twoProfiles();
      expect(current()).toBe('globex');
      const r = await bare(['auth', 'switch', 'default']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`switched to profile default (${sb.server.url} · org-acme · Ada Admin)`);
      expect(current()).toBe('default');
      expect((await bare(['orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-acme');
      expect((await bare(['auth', 'switch', 'default'])).stderr).toBe('profile default is already the current one');
      const json = await bare(['auth', 'switch', 'globex', '--json']);
      expect(JSON.parse(json.stdout)).toEqual({ profile: 'globex', apiUrl: sb.server.url, organization: 'org-globex', user: 'Olga Outsider' });
      expect((await bare(['orgs', 'get', '--fields', 'id'])).stdout).toBe('id\torg-globex');
      // What still wins over the switch in this shell is named.
      const noted = await bare(['auth', 'switch', 'default'], { DOCSCTL_PROFILE: 'globex', DOCSCTL_ORG: 'org-globex' });
      expect(noted.stderr).toContain('note: DOCSCTL_PROFILE=globex is set in the environment and wins over the current profile');
      expect(noted.stderr).toContain('note: DOCSCTL_ORG is set in the environment and overrides the profile');

      const unknown = await bare(['auth', 'switch', 'nope']);
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('error: auth switch: no profile is named "nope"; the profiles are: default, globex');
      expect(current()).toBe('default');
      const noName = await bare(['auth', 'switch']);
      expect(noName.exitCode).toBe(2);
      expect(noName.stdout).toBe('');
      expect(noName.stderr).toBe(
        'error: auth switch: name the profile to use: default, globex\nhint: e.g. docsctl auth switch globex (a picker needs a terminal)',
      );
      rmSync(join(sb.home, 'config.json'));
      const nothing = await bare(['auth', 'switch']);
      expect(nothing.exitCode).toBe(2);
      expect(nothing.stderr).toContain('error: no profile is saved');
    });

    it('auth switch without NAME on a terminal picks from the saved profiles', async () => {
      if (!HAS_TMUX) return;
      await twoProfiles();
      const t = Terminal.start(['auth', 'switch'], { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home });
      try {
        const screen = await t.waitFor(/❯ default/);
        expect(screen).toContain('globex (current)');
        expect(screen).toContain(`${sb.server.url} · org-acme · Ada Admin`);
        t.press('Down');
        expect(await t.waitFor(/❯ globex/)).toContain(`${sb.server.url} · org-globex · Olga Outsider`);
        t.press('Up');
        await t.waitFor(/❯ default/);
        t.press('Enter');
        expect(await t.exitCode()).toBe(0);
        expect(t.screen()).toContain('switched to profile default');
      } finally {
        t.close();
      }
      expect(current()).toBe('default');
    });

    it('auth status lists every profile, marking the current one, in TSV, JSON and a table', async () => {
      await twoProfiles();
      const tsv = await bare(['auth', 'status']);
      expect(tsv.exitCode, tsv.stderr).toBe(0);
      const tail = (role: string) => sb.token(role).slice(-4);
      expect(tsv.stdout.split('\n')).toEqual([
        `default\t\t${sb.server.url}\torg-acme\tAda Admin\tnot checked\tprofile\t****${tail('admin')}`,
        `globex\t*\t${sb.server.url}\torg-globex\tOlga Outsider\tverified\tprofile\t****${tail('outsider')}`,
      ]);
      expect(tsv.stdout + tsv.stderr).not.toContain(sb.token('admin'));
      expect(tsv.stdout + tsv.stderr).not.toContain(sb.token('outsider'));
      const json = JSON.parse((await bare(['auth', 'status', '--json'])).stdout);
      expect(json.map((r: { profile: string; current: boolean }) => [r.profile, r.current])).toEqual([
        ['default', false],
        ['globex', true],
      ]);
      // A logged-out profile is listed as such; --profile picks which one is current.
      await bare(['--profile', 'default', 'auth', 'logout']);
      const after = await bare(['--profile', 'globex', 'auth', 'status', '--fields', 'profile,state']);
      expect(after.stdout).toBe('default\tno token\nglobex\tverified');
      const table = await bare(['auth', 'status'], { DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1', COLUMNS: '200' });
      expect(table.exitCode).toBe(0);
      const lines = table.stdout.split('\n');
      expect(lines[0]).toMatch(/^profile\s+current\s+apiUrl\s+organization\s+user\s+state\s+tokenSource\s+token$/i);
      expect(lines.find((l) => l.startsWith('globex'))).toMatch(/^globex\s+\*\s+/);
      expect(lines.find((l) => l.startsWith('default'))).not.toContain('*');
      // The environment says it all: the current profile is still the one marked, with the environment's values.
      const overridden = JSON.parse(
        (await bare(['auth', 'status', '--json'], { DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('read'), DOCSCTL_ORG: 'org-acme' })).stdout,
      );
      expect(overridden.filter((r: { current: boolean }) => r.current)).toEqual([
        expect.objectContaining({ profile: 'globex', organization: 'org-acme', tokenSource: 'environment', userId: 'u-read' }),
      ]);
      // The environment alone (no saved profile in use): one row, "(environment)".
      rmSync(join(sb.home, 'config.json'));
      const env = await bare(['auth', 'status', '--json'], { DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('read'), DOCSCTL_ORG: 'org-acme' });
      expect(JSON.parse(env.stdout)).toEqual([
        expect.objectContaining({ profile: null, current: true, tokenSource: 'environment', userId: 'u-read', user: 'Rex Reader' }),
      ]);
      expect((await bare(['auth', 'status'], { DOCSCTL_API_URL: sb.server.url, DOCSCTL_TOKEN: sb.token('read'), DOCSCTL_ORG: 'org-acme' })).stdout).toMatch(
        /^\(environment\)\t\*\t/,
      );
    });

    it('auth status when the current profile is logged out names the others', async () => {
      await twoProfiles();
      await bare(['auth', 'logout']);
      const r = await bare(['auth', 'status']);
      expect(r.exitCode).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('error: not authenticated (profile globex)\nhint: run docsctl auth login, or use another profile: docsctl auth switch default');
    });
  });

  it('a corrupt config file gets a clear message naming the file', async () => {
    writeFileSync(join(sb.home, 'config.json'), '{ not json');
    const r = await bare(['collections', 'list']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: cannot read ${join(sb.home, 'config.json')}`);
    expect(r.stderr).toContain('hint: fix or remove the file, then run docsctl auth login');
    expect(r.stderr).not.toMatch(/\n\s+at |looks like a bug/);
    expect(readFileSync(join(sb.home, 'config.json'), 'utf8')).toBe('{ not json');
  });

  it('--verbose traces requests on stderr with the token masked', async () => {
    const r = await sb.run(['collections', 'list', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^\\* GET ${sb.server.url}/v1/orgs/org-acme/collections\\?limit=30 → 200 \\(\\d+ ms\\)$`));
    expect(r.stderr).not.toContain(sb.token('admin'));
    const d = await sb.run(['collections', 'list'], { env: { DOCSCTL_DEBUG: '1' } });
    expect(d.stderr).toContain('* GET ');
  });

  it('shows the exit codes', async () => {
    const r = await bare(['help', 'exit-codes']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('6  conflict (409)');
  });

  it('prints its version with --version or -V, alone or with global options', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    for (const args of [['--version'], ['-V'], ['--no-color', '--version']]) {
      // The process entry answers the first two itself (src/entry.ts): run as a process.
      const r = await docsctl(args, { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home });
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout).toBe(version);
    }
  });
});
