/**
 * Content as files, both ways: a sandbox's content backed up (`orgs backup`), a sandbox started from
 * that backup (`serve --seed DIR`, a process), backed up again: every space's files are the same,
 * byte for byte (`diff -r`, the export's state files aside: they name ids of the sandbox they came from).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveJson } from '../helpers/cli.js';
import { useTempDirs, putContent } from '../helpers/content.js';
import { docsctlInProcess, useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();
const tempDir = useTempDirs('roundtrip');

/** Every file under `dir` but the state files and the manifest, with its bytes (base64). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (/(^|\/)\.docsctl-export\.json$/.test(f) || f === 'manifest.json' || f === 'org.yaml' || !statSync(join(dir, f)).isFile()) continue;
    out[f] = readFileSync(join(dir, f)).toString(f.endsWith('.png') || f.endsWith('.bin') ? 'base64' : 'utf8');
  }
  return out;
}

const BLOCKS = [
  '# Blocks',
  '',
  'Text with **bold**, *italic*, `code` and a [link to install](/guide/install#requirements).',
  '',
  '{% hint style="warning" %}',
  'Careful.',
  '{% endhint %}',
  '',
  '{% tabs %}',
  '{% tab title="npm" %}',
  '```sh',
  'npm i x',
  '```',
  '{% endtab %}',
  '',
  '{% tab title="yarn" %}',
  'yarn add x',
  '{% endtab %}',
  '{% endtabs %}',
  '',
  '<details>',
  '',
  '<summary>More</summary>',
  '',
  'Hidden text.',
  '',
  '</details>',
  '',
  '{% embed url="https://www.youtube.com/watch?v=1" %}',
  '',
  '{% code title="app.js" lineNumbers="true" %}',
  '```js',
  'let a = 1;',
  '```',
  '{% endcode %}',
  '',
  '$$',
  'E = mc^2',
  '$$',
  '',
  '| Key | Value |',
  '| - | -: |',
  '| a | 1 |',
  '',
  '![The logo](file:fl-logo)',
  '',
].join('\n');

describe('content as files, round trip', () => {
  it('sandbox → orgs backup → serve --seed DIR → orgs backup: the same files', { timeout: 120_000 }, async () => {
    putContent(
      sb.server.store,
      'sp-welcome',
      [
        { title: 'Welcome', slug: 'welcome', description: 'Where it starts: here', emoji: '👋', markdown: '# Welcome\n\nHello. See the [guide](/guide).\n' },
        {
          title: 'Guide',
          slug: 'guide',
          markdown: '# Guide\n\n- one\n- two\n\n> quoted\n',
          pages: [
            { title: 'Install', slug: 'install', hidden: true, markdown: '# Install\n\n## Requirements\n\nNode 20. Back [home](/welcome).\n' },
            { title: 'Blocks', slug: 'blocks', markdown: BLOCKS },
          ],
        },
        { title: 'Changelog (2024)', slug: 'changelog-2024', markdown: '# Changelog (2024)\n\nThe [old logo](file:fl-old).\n' },
      ],
      [
        { id: 'fl-logo', name: 'logo.png', contentType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]) },
        { id: 'fl-old', name: 'logo.png', contentType: 'image/png', data: Buffer.from('older logo') },
      ],
    );
    const first = tempDir();
    const r1 = await sb.run(['orgs', 'backup', '--out', first]);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(r1.stderr).not.toContain('document JSON');

    const home = tempDir();
    const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };
    const { info, stop } = await serveJson(['--seed', first], env);
    try {
      const second = tempDir();
      const r2 = await docsctlInProcess(['orgs', 'backup', '--out', second, '--org', 'org-acme'], {
        ...env,
        DOCSCTL_API_URL: info.url,
        DOCSCTL_TOKEN: info.token,
        DOCSCTL_MAX_RETRIES: '0',
      });
      expect(r2.exitCode, r2.stderr).toBe(0);
      const a = tree(first);
      // The first backup holds what the sandbox had: GitBook's blocks in their syntax, links relative, both files.
      expect(Object.keys(a).sort()).toEqual(
        [
          '.gitbook.yaml',
          'README.md',
          'SUMMARY.md',
          'changelog-2024.md',
          'guide/README.md',
          'guide/blocks.md',
          'guide/install.md',
          '.gitbook/assets/logo (1).png',
          '.gitbook/assets/logo.png',
        ]
          .map((f) => `welcome/${f}`)
          .sort(),
      );
      expect(a['welcome/guide/blocks.md']).toContain('[link to install](install.md#requirements)');
      expect(a['welcome/guide/blocks.md']).toContain('{% hint style="warning" %}\nCareful.\n{% endhint %}');
      expect(a['welcome/guide/blocks.md']).toContain('{% code title="app.js" lineNumbers="true" %}\n```js\nlet a = 1;\n```\n{% endcode %}');
      expect(tree(second)).toEqual(a);
    } finally {
      await stop();
    }
  });
});
