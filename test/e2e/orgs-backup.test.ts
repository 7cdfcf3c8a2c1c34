/**
 * `docsctl orgs backup` against the sandbox, in process: the organization file, each space's
 * content in its key's folder, the manifest; a rerun skipping what did not change; --spaces;
 * --check; a backup of another organization refused.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { serveJson } from '../helpers/cli.js';
import { useTempDirs, putContent } from '../helpers/content.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const tempDir = useTempDirs('backup');

describe('orgs backup', () => {
  it('writes org.yaml as orgs export does, every space’s export in its key’s folder, and a manifest; a rerun skips what did not change', async () => {
    putContent(
      sb.server.store,
      'sp-welcome',
      [{ title: 'Home', slug: 'home', markdown: '# Home\n\nHello.\n' }],
      [{ id: 'fl-1', name: 'a.txt', contentType: 'text/plain', data: Buffer.from('A') }],
    );
    const out = tempDir();
    const r = await sb.run(['orgs', 'backup', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'org.yaml'), 'utf8')).toBe((await sb.run(['orgs', 'export'])).stdout + '\n');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const welcome = manifest.spaces.find((s: { id: string }) => s.id === 'sp-welcome');
    const space = (await sb.request('GET', '/v1/spaces/sp-welcome')).body;
    expect(welcome).toMatchObject({ id: 'sp-welcome', title: 'Welcome', revision: space.revision, files: 4, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readFileSync(join(out, welcome.folder, 'README.md'), 'utf8')).toBe('# Home\n\nHello.\n');
    expect(readFileSync(join(out, welcome.folder, '.gitbook/assets/a.txt'), 'utf8')).toBe('A');
    expect(manifest).toMatchObject({ docsctl: 1, organization: sb.server.organizationId, orgFile: { path: 'org.yaml' } });
    expect(readdirSync(out).sort()).toEqual([...manifest.spaces.map((s: { folder: string }) => s.folder), 'manifest.json', 'org.yaml'].sort());
    expect(welcome.folder).toBe(welcome.key);

    // The built binary, in a process: the same backup is up to date.
    const checked = await sb.process(['orgs', 'backup', '--out', out, '--check']);
    expect(checked.exitCode, checked.stderr).toBe(0);

    const again = await sb.run(['orgs', 'backup', '--out', out]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(manifest.spaces).toHaveLength(1);
    expect(again.stderr).toContain('1 space unchanged since the last backup (same revision, files intact): skipped');

    // A file damaged on disk: that space is exported again (and only what differs written).
    writeFileSync(join(out, welcome.folder, 'README.md'), 'damaged\n');
    const repaired = await sb.run(['orgs', 'backup', '--out', out]);
    expect(repaired.stderr).toContain(`${welcome.key}: ${join(out, welcome.folder)}: 1 page, 1 file; wrote 1 file`);
    expect(readFileSync(join(out, welcome.folder, 'README.md'), 'utf8')).toBe('# Home\n\nHello.\n');
  });

  it('--spaces chooses spaces by key; --check exits 1 listing differences, 0 when the backup is the organization', async () => {
    putContent(sb.server.store, 'sp-welcome', [{ title: 'Home', slug: 'home' }]);
    const out = tempDir();
    const key = JSON.parse((await sb.run(['orgs', 'export', '--format', 'json'])).stdout).spaces.find((s: { id: string }) => s.id === 'sp-welcome').key;
    const r = await sb.run(['orgs', 'backup', '--out', out, '--spaces', key]);
    expect(r.exitCode, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.spaces.map((s: { id: string }) => s.id)).toEqual(['sp-welcome']);

    const ok = await sb.run(['orgs', 'backup', '--out', out, '--spaces', key, '--check']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('is up to date with organization');

    putContent(sb.server.store, 'sp-welcome', [{ title: 'Home', slug: 'home', markdown: '# Home\n\nChanged.\n' }]);
    const diff = await sb.run(['orgs', 'backup', '--out', out, '--spaces', key, '--check']);
    expect(diff.exitCode).toBe(1);
    expect(diff.stderr).toContain(`  ~ ${key}/`);
    expect(diff.stderr).toContain('  ~ README.md');
    expect(readFileSync(join(out, key, 'README.md'), 'utf8')).toBe('# Home\n');

    const unknown = await sb.run(['orgs', 'backup', '--out', out, '--spaces', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--spaces: no space "nope" in organization');
  });

  it('--check lists what the backup did not write, in a space’s folder and at its top; a rerun reports it, --prune removes it', async () => {
    putContent(sb.server.store, 'sp-welcome', [{ title: 'Home', slug: 'home', markdown: '# Home\n\nHello.\n' }]);
    const out = tempDir();
    expect((await sb.run(['orgs', 'backup', '--out', out])).exitCode).toBe(0);
    const { folder } = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).spaces.find((s: { id: string }) => s.id === 'sp-welcome');
    const put = (path: string) => {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), 'x');
    };
    for (const p of [`${folder}/stray.md`, `${folder}/.gitbook/assets/stray.png`, 'notes.txt', 'old/README.md', '.git/HEAD', `${folder}/.github/x.yml`]) put(p);

    const check = await sb.run(['orgs', 'backup', '--out', out, '--check']);
    expect(check.exitCode).toBe(1);
    for (const line of [`  ~ ${folder}/\n`, '  - .gitbook/assets/stray.png\n', '  - stray.md\n', '  - notes.txt\n', '  - old/\n'])
      expect(check.stderr).toContain(line);
    expect(check.stderr).not.toContain('.git/');
    expect(check.stderr).not.toContain('.github');

    // A rerun exports the space again (its folder is not as the manifest says) and reports what it did not write.
    const rerun = await sb.run(['orgs', 'backup', '--out', out]);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toContain('skipped');
    expect(rerun.stderr).toContain(
      '2 files in the folder the export did not write, left in place (--prune removes them):\n  ? .gitbook/assets/stray.png\n  ? stray.md',
    );
    expect(rerun.stderr).toContain(`2 entries in ${out} not the backup's, left in place (--prune removes them):\n  ? notes.txt\n  ? old/`);

    const pruned = await sb.run(['orgs', 'backup', '--out', out, '--prune']);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    for (const p of [`${folder}/stray.md`, `${folder}/.gitbook/assets/stray.png`, 'notes.txt', 'old']) expect(existsSync(join(out, p)), p).toBe(false);
    for (const p of ['.git/HEAD', `${folder}/.github/x.yml`]) expect(existsSync(join(out, p)), p).toBe(true);
    const ok = await sb.run(['orgs', 'backup', '--out', out, '--check']);
    expect(ok.exitCode, ok.stderr).toBe(0);
  });

  it('writes the document of each OpenAPI specification made from one, named in org.yaml as its file:; it plans clean and seeds a sandbox', async () => {
    const out = tempDir();
    const spec = join(tempDir(), 'pets.yaml');
    writeFileSync(spec, 'openapi: 3.0.0\ninfo: {title: Pets, version: "1"}\npaths: {}\n');
    expect((await sb.run(['openapi', 'put', 'pets', '--file', spec])).exitCode).toBe(0);
    // orgs export alone cannot name its document: it says so.
    const exported = await sb.run(['orgs', 'export']);
    expect(exported.exitCode).toBe(0);
    expect(exported.stderr).toContain('openapi pets: made from a document, written without url or file: give each its file:');
    const r = await sb.run(['orgs', 'backup', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`wrote ${join(out, 'openapi/pets.yaml')}`);
    const orgFile = parse(readFileSync(join(out, 'org.yaml'), 'utf8'));
    expect(orgFile.openapi).toEqual([{ slug: 'pets', file: 'openapi/pets.yaml', visibility: 'private' }]);
    expect(parse(readFileSync(join(out, 'openapi/pets.yaml'), 'utf8'))).toEqual({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.openapi).toEqual([{ slug: 'pets', path: 'openapi/pets.yaml', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // The file it wrote is the organization: no change to plan.
    const plan = await sb.run(['orgs', 'plan', '-f', join(out, 'org.yaml'), '--detailed-exitcode']);
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);

    // A new version of the document: --check names the file; a stray document is not the backup's.
    writeFileSync(spec, 'openapi: 3.0.0\ninfo: {title: Pets, version: "2"}\npaths: {}\n');
    expect((await sb.run(['openapi', 'put', 'pets', '--file', spec])).exitCode).toBe(0);
    writeFileSync(join(out, 'openapi/old.yaml'), 'x');
    const check = await sb.run(['orgs', 'backup', '--out', out, '--check']);
    expect(check.exitCode).toBe(1);
    expect(check.stderr).toContain('  ~ openapi/pets.yaml\n');
    expect(check.stderr).toContain('  - openapi/old.yaml\n');
    expect((await sb.run(['orgs', 'backup', '--out', out, '--prune'])).exitCode).toBe(0);
    expect(existsSync(join(out, 'openapi/old.yaml'))).toBe(false);
    expect(parse(readFileSync(join(out, 'openapi/pets.yaml'), 'utf8')).info.version).toBe('2');

    // A sandbox started from the backup (the built binary) holds the specification, from its document.
    const home = tempDir();
    const { info, stop } = await serveJson(['--seed', out], { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home });
    try {
      const res = await fetch(`${info.url}/v1/orgs/${info.organizationId}/openapi/pets/versions/latest/content`, {
        headers: { authorization: `Bearer ${info.token}` },
      });
      expect(res.status).toBe(200);
      expect(Object.values(((await res.json()) as { filesystem: Record<string, { info: { version: string } }> }).filesystem)[0]!.info.version).toBe('2');
    } finally {
      await stop();
    }
  });

  it('refuses a folder holding another organization’s backup, writing nothing', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'manifest.json'), JSON.stringify({ docsctl: 1, organization: 'org-other', orgFile: { path: 'org.yaml', sha256: '' }, spaces: [] }));
    const r = await sb.run(['orgs', 'backup', '--out', out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('holds the backup of organization org-other');
    expect(existsSync(join(out, 'org.yaml'))).toBe(false);
  });
});
