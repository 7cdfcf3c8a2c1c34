import { statSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsctl, useSandbox } from '../helpers/cli.js';

const sb = useSandbox();

/** docsctl with only the config dir: no DOCSCTL_* auth in the environment. */
const bare = (args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
  docsctl(args, { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home, ...env }, input === undefined ? {} : { input });

describe('auth', () => {
  it('logs in with a token on stdin, verifies it, and saves a 0600 profile', async () => {
    const r = await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], {}, `${sb.token('admin')}\n`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`logged in to ${sb.server.url} as Ada Admin (profile default, organization org-acme)`);
    const file = join(sb.home, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({ currentProfile: 'default', profiles: { default: { apiUrl: sb.server.url, token: sb.token('admin'), org: 'org-acme', user: 'Ada Admin' } } });

    const status = await bare(['auth', 'status', '--json']);
    expect(status.exitCode).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({ profile: 'default', apiUrl: sb.server.url, organization: 'org-acme', tokenSource: 'profile', user: { id: 'u-admin' } });
    expect(s.token).toBe(`****${sb.token('admin').slice(-4)}`);
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
    const r = await bare(['auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'], { DOCSCTL_TOKEN: 'sbx_env-token' }, `${sb.token('read')}\n`);
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
    expect(JSON.parse(envTok.stdout)).toMatchObject({ tokenSource: 'environment', user: { id: 'u-read' } });
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
      const r = await bare(args);
      expect(r.exitCode, args.join(' ')).toBe(0);
      expect(r.stdout).toBe(version);
    }
  });
});
