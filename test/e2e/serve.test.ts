import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, docsctl } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'docsctl-serve-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };

async function serve(args: string[]) {
  const child = execa('node', [BIN, 'serve', '--memory', '--port', '0', ...args], { env, extendEnv: false, reject: false });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, line };
}

describe('docsctl serve --memory', () => {
  it('prints one JSON line with the url, the admin token, the organization, every user and its pid; SIGTERM stops it cleanly', async () => {
    const { child, line } = await serve(['--json', '--token', 'dev-token-123']);
    const info = JSON.parse(line);
    expect(info).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      token: 'dev-token-123',
      organizationId: 'org-acme',
      pid: child.pid,
    });
    expect(info.users.map((u: { role: string | null }) => u.role)).toEqual(['admin', 'create', 'review', 'edit', 'comment', 'read', null, 'outsider']);
    expect(new Set(info.users.map((u: { token: string }) => u.token)).size).toBe(8);
    const r = await docsctl(['orgs', 'list', '--fields', 'id,title'], { ...env, DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: 'dev-token-123' });
    expect(r.stdout).toBe('org-acme\tAcme Docs\norg-globex\tGlobex');
    child.kill('SIGTERM');
    const done = await child;
    expect(done.exitCode).toBe(0);
  });

  it('prints an export line to paste, without --json', async () => {
    const child = execa('node', [BIN, 'serve', '--memory', '--port', '0'], { env, extendEnv: false, reject: false });
    const lines: string[] = [];
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (l) => {
        lines.push(l);
        if (l.startsWith('export ')) resolve();
      });
    });
    expect(lines[0]).toMatch(/^docsctl sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines).toContain(`pid:           ${child.pid}`);
    expect(lines.at(-1)).toMatch(/^export DOCSCTL_API_URL=http:\/\/127\.0\.0\.1:\d+ DOCSCTL_TOKEN=sbx_\S+ DOCSCTL_ORG=org-acme$/);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('loads a seed fixture, and refuses a malformed one naming the entry', async () => {
    const seed = {
      organizations: [{ id: 'o1', title: 'One' }],
      users: [{ id: 'u1', displayName: 'Una', email: 'una@one.test', token: 'token-u1-0001' }],
      members: [{ organization: 'o1', user: 'u1', role: 'admin' }],
      spaces: [{ id: 's1', organization: 'o1', title: 'Seeded' }],
    };
    const good = join(home, 'seed.json');
    writeFileSync(good, JSON.stringify(seed));
    const { child, line } = await serve(['--json', '--seed', good]);
    const info = JSON.parse(line);
    expect(info).toMatchObject({ token: 'token-u1-0001', organizationId: 'o1' });
    const r = await docsctl(['spaces', 'list', '--fields', 'id,title'], {
      ...env,
      DOCSCTL_API_URL: info.url,
      DOCSCTL_TOKEN: 'token-u1-0001',
      DOCSCTL_ORG: 'o1',
    });
    expect(r.stdout).toBe('s1\tSeeded');
    child.kill('SIGTERM');
    await child;

    const bad = join(home, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...seed, members: [{ organization: 'o1', user: 'u-nobody', role: 'admin' }] }));
    const refused = await docsctl(['serve', '--memory', '--port', '0', '--seed', bad], env);
    expect(refused.exitCode).toBe(2);
    // The file, the line:column of the entry, and the rule.
    expect(refused.stderr).toMatch(new RegExp(`--seed: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: members\\[0\\]\\.user: no user u-nobody`));
    writeFileSync(bad, JSON.stringify({ ...seed, users: [{ id: 'u1', displayName: 'Una', email: 'not-an-email', token: 'token-u1-0001' }] }));
    const badEmail = await docsctl(['serve', '--memory', '--port', '0', '--seed', bad], env);
    expect(badEmail.exitCode).toBe(2);
    expect(badEmail.stderr).toContain('users.0.email');
  });

  it('validates its own flags', async () => {
    const r = await docsctl(['serve', '--memory', '--port', '70000'], env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--port: must be a whole number from 0 to 65535');
  });
});
