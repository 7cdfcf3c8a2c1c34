/**
 * `docsctl content export` against the sandbox, in process: the layout and the Markdown compared
 * with hand-written expected files (test/fixtures/content-export/corpus), incremental reruns,
 * --prune, --check, --cr, --format json, resuming an interrupted export, and refusals.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs, putContent, type FileInit, type PageInit } from '../helpers/content.js';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const tempDir = useTempDirs('export');

const CORPUS = join(import.meta.dirname, '../fixtures/content-export/corpus');

/** The corpus's pages, in the sandbox's Markdown (every block the sandbox holds). */
const PAGES: PageInit[] = [
  {
    title: 'Welcome',
    slug: 'welcome',
    description: 'Where it starts: here',
    emoji: '👋',
    markdown: [
      '# Welcome',
      '',
      'Plain text with **bold**, *italic*, ~~struck~~, `code`, **bold *and italic*** and a hard\\',
      'break.',
      '',
      'Links: [install](/guide/install), [its requirements](/guide/install#requirements), [the logo](file:fl-logo), [an external site](https://example.com/docs?q=1) and [a section here](#more).',
      '',
      '# Section',
      '',
      '## More',
      '',
      '### Third level',
      '',
      '#### Fourth level',
      '',
    ].join('\n'),
  },
  {
    title: 'Guide',
    slug: 'guide',
    markdown: [
      '# Guide',
      '',
      '- one',
      '- two',
      '  - nested',
      '',
      '1. first',
      '2. second',
      '',
      'Then:',
      '',
      '4. fourth',
      '5. fifth',
      '',
      '- [ ] to do',
      '- [x] done',
      '',
      '> A quote',
      '>',
      '> - with a list',
      '',
      '***',
      '',
      '```js',
      'const a = 1;',
      '```',
      '',
      '```',
      'no language',
      '```',
      '',
      '| Name | Count | Note |',
      '| ---- | ----: | :--: |',
      '| a | 1 | **x** |',
      '| b | 2 | |',
      '',
      '![The logo](file:fl-logo)',
      '',
    ].join('\n'),
    pages: [
      {
        title: 'Install',
        slug: 'install',
        hidden: true,
        markdown: '# Install\n\n## Requirements\n\nBack to the [welcome page](/welcome), or [the guide](./).\n\nSee [an anchor of the guide](../guide#top).\n',
      },
    ],
  },
  { title: 'Changelog (2024)', slug: 'changelog-2024', markdown: '# Changelog (2024)\n\nThe [old logo](file:fl-old).\n' },
];
const FILES: FileInit[] = [
  { id: 'fl-logo', name: 'logo.png', contentType: 'image/png', data: Buffer.from('PNG-1') },
  { id: 'fl-old', name: 'logo.png', contentType: 'image/png', data: Buffer.from('PNG-2 older') },
];

/** Every file under `dir` (but the export's state file), with its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (f === '.docsctl-export.json' || !statSync(join(dir, f)).isFile()) continue;
    out[f] = readFileSync(join(dir, f), 'utf8');
  }
  return out;
}

describe('content export', () => {
  it('writes the corpus as the hand-written expected files, byte for byte', async () => {
    putContent(sb.server.store, 'sp-welcome', PAGES, FILES);
    const out = tempDir();
    const r = await sb.run(['content', 'export', 'sp-welcome', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(tree(out)).toEqual(tree(CORPUS));
    expect(r.stderr).toContain('4 pages, 2 files; wrote 8 files, 0 unchanged');
    expect(r.stderr).not.toContain('document JSON');
    // Off a terminal, no progress: no control characters on stderr.
    expect(r.stderr).not.toMatch(/[\r\u001b]/);

    // The built binary, in a process, to another folder: the same files.
    const built = tempDir();
    const p = await sb.process(['content', 'export', 'sp-welcome', '--out', built]);
    expect(p.exitCode, p.stderr).toBe(0);
    expect(tree(built)).toEqual(tree(CORPUS));
  });

  it('a rerun writes only what changed, says so, and --prune removes pages gone', async () => {
    const ids = putContent(sb.server.store, 'sp-welcome', PAGES, FILES);
    expect(ids.size).toBe(4);
    const out = tempDir();
    expect((await sb.run(['content', 'export', 'sp-welcome', '--out', out])).exitCode).toBe(0);
    const again = await sb.json(['content', 'export', 'sp-welcome', '--out', out]);
    expect(again).toMatchObject({ written: [], unchanged: 8, removed: [], stale: [] });

    // One page changed, one gone: only the changed one is written; the gone one is reported, then pruned.
    const changed = structuredClone(PAGES.slice(0, 2));
    changed[1].pages![0].markdown = '# Install\n\nNew text.\n';
    putContent(sb.server.store, 'sp-welcome', changed, FILES);
    const third = await sb.run(['content', 'export', 'sp-welcome', '--out', out]);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.stderr).toContain('wrote 2 files');
    expect(third.stderr).toContain('  + SUMMARY.md\n  + guide/install.md');
    expect(third.stderr).toContain('1 file no longer in the content, left in place (--prune removes them):\n  ? changelog-2024.md');
    expect(existsSync(join(out, 'changelog-2024.md'))).toBe(true);
    expect(readFileSync(join(out, 'guide/install.md'), 'utf8')).toBe('---\nhidden: true\n---\n\n# Install\n\nNew text.\n');

    const pruned = await sb.json(['content', 'export', 'sp-welcome', '--out', out, '--prune']);
    expect(pruned).toMatchObject({ written: [], removed: ['changelog-2024.md'], stale: [] });
    expect(existsSync(join(out, 'changelog-2024.md'))).toBe(false);
  });

  it('--check writes nothing and exits 1 listing the differences; 0 when the folder is the space', async () => {
    putContent(sb.server.store, 'sp-welcome', PAGES, FILES);
    const out = tempDir();
    const empty = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check']);
    expect(empty.exitCode).toBe(1);
    expect(readdirSync(out)).toEqual([]);
    expect(empty.stderr).toContain('differs from sp-welcome: 8 differences');
    expect(empty.stderr).toContain('  + README.md');

    expect((await sb.run(['content', 'export', 'sp-welcome', '--out', out])).exitCode).toBe(0);
    const same = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check']);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stderr).toContain('is up to date with sp-welcome (4 pages, 2 files)');

    // Edited by hand, a file gone, an asset's bytes changed, a page gone from the space.
    writeFileSync(join(out, 'README.md'), 'edited\n');
    unlinkSync(join(out, 'guide/install.md'));
    writeFileSync(join(out, '.gitbook/assets/logo.png'), 'PNG-X');
    putContent(sb.server.store, 'sp-welcome', PAGES.slice(0, 2), FILES);
    const before = tree(out);
    const diff = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check']);
    expect(diff.exitCode).toBe(1);
    for (const line of ['  ~ .gitbook/assets/logo.png', '  + guide/install.md', '  ~ README.md', '  ~ SUMMARY.md', '  - changelog-2024.md'])
      expect(diff.stderr).toContain(line);
    // With --json, the differences on stdout for a script, and still exit 1.
    const json = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check', '--json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).differences.sort()).toEqual(
      ['~ .gitbook/assets/logo.png', '+ guide/install.md', '~ README.md', '~ SUMMARY.md', '- changelog-2024.md'].sort(),
    );
    expect(tree(out)).toEqual(before);
  });

  it('--check lists files the export never wrote; a rerun reports them, --prune removes them; dot-folders and other exports are not content', async () => {
    putContent(sb.server.store, 'sp-welcome', PAGES, FILES);
    const out = tempDir();
    expect((await sb.run(['content', 'export', 'sp-welcome', '--out', out])).exitCode).toBe(0);
    const put = (path: string, text = 'x') => {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), text);
    };
    const STRAY = ['.gitbook/assets/stray.png', '.gitbook/documents/stray.json', 'guide/stray.md', 'notes.md'];
    const IGNORED = [
      '.git/HEAD',
      '.github/workflows/ci.yml',
      '.gitignore',
      'other/.docsctl-export.json',
      'other/README.md',
      'guide/stray.md.1a2b3c4d.docsctl-part',
    ];
    for (const p of [...STRAY, ...IGNORED]) put(p);

    const check = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check', '--json']);
    expect(check.exitCode, check.stderr).toBe(1);
    expect(JSON.parse(check.stdout).differences).toEqual(STRAY.map((p) => `- ${p}`));
    for (const p of STRAY) expect(check.stderr).toContain(`  - ${p}\n`);
    expect(check.stderr).toContain('differs from sp-welcome: 4 differences');

    const rerun = await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ written: [], removed: [], stale: [], extra: STRAY });
    expect(rerun.stderr).toContain(
      `4 files in the folder the export did not write, left in place (--prune removes them):\n${STRAY.map((p) => `  ? ${p}`).join('\n')}`,
    );
    for (const p of STRAY) expect(existsSync(join(out, p)), p).toBe(true);

    const pruned = await sb.json(['content', 'export', 'sp-welcome', '--out', out, '--prune']);
    expect(pruned).toMatchObject({ written: [], removed: STRAY, extra: [] });
    for (const p of STRAY) expect(existsSync(join(out, p)), p).toBe(false);
    for (const p of IGNORED.filter((p) => !p.endsWith('.docsctl-part'))) expect(existsSync(join(out, p)), p).toBe(true);
    expect(existsSync(join(out, '.gitbook/documents'))).toBe(false);
    expect((await sb.run(['content', 'export', 'sp-welcome', '--out', out, '--check'])).exitCode).toBe(0);

    // A folder that held no export of this space: --prune lists what it did not write, removes nothing.
    const fresh = tempDir();
    writeFileSync(join(fresh, 'package.json'), '{}');
    const first = await sb.run(['content', 'export', 'sp-welcome', '--out', fresh, '--prune', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ removed: [], extra: ['package.json'] });
    expect(first.stderr).toContain('the folder held no export of this content before: a rerun with --prune removes them');
    expect(existsSync(join(fresh, 'package.json'))).toBe(true);
  });

  it('--cr exports a change request’s content; a folder of another space or change request is refused, nothing written', async () => {
    putContent(sb.server.store, 'sp-welcome', PAGES, FILES);
    const created = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'Review' });
    expect(created.status).toBe(201);
    const out = tempDir();
    const r = await sb.run(['content', 'export', 'sp-welcome', '--cr', String(created.body.number), '--out', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(tree(out)).toEqual(tree(CORPUS));
    expect(JSON.parse(r.stdout)).toMatchObject({ space: 'sp-welcome', changeRequest: String(created.body.number), pages: 4, assets: 2 });

    const other = await sb.run(['content', 'export', 'sp-welcome', '--out', out]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain(`holds the export of change request ${created.body.number} of space sp-welcome`);
    writeFileSync(join(out, 'a-file'), 'x');
    const notFolder = await sb.run(['content', 'export', 'sp-welcome', '--out', join(out, 'a-file')]);
    expect(notFolder.exitCode).toBe(2);
    expect(notFolder.stderr).toContain('is not a folder');
    const missing = await sb.run(['content', 'export', 'sp-welcome']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('--out DIR is required');
  });
});
