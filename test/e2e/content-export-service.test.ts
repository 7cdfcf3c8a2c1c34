/**
 * `docsctl content export` against a server of the test's own that answers as the real service
 * does where the sandbox cannot: files downloaded from their own URL (streamed to disk), group and
 * link pages, documents with blocks Markdown cannot carry (kept as JSON beside the page), a 429
 * with Retry-After, a download that fails (the export resumes: what it has is not fetched again).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { serveJson } from '../helpers/cli.js';
import { docsctlInProcess } from '../helpers/inprocess.js';

const BIG = randomBytes(3 * 1024 * 1024 + 7);
const LOGO = Buffer.from('logo bytes');
const text = (s: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
const para = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });

let server: Server;
let base = '';
let home = '';
const hits = new Map<string, number>();
/** Knobs of the next requests. */
const knobs = { tooMany: 0, failBig: 0 };

function answer(path: string): { status: number; body?: unknown; headers?: Record<string, string>; bytes?: Buffer } {
  if (path === '/v1/spaces/sp1/content/pages') {
    if (knobs.tooMany > 0) {
      knobs.tooMany--;
      return { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 429, message: 'slow down' } } };
    }
    return {
      status: 200,
      body: {
        pages: [
          { object: 'page', id: 'p1', title: 'Home', kind: 'sheet', type: 'document', slug: 'home', path: 'home', pages: [] },
          {
            object: 'page',
            id: 'g1',
            title: 'Reference',
            kind: 'group',
            type: 'group',
            slug: 'reference',
            path: 'reference',
            pages: [
              { object: 'page', id: 'p2', title: 'API', kind: 'sheet', type: 'document', slug: 'api', path: 'reference/api', icon: 'code', pages: [] },
              { object: 'page', id: 'l1', title: 'Status', kind: 'link', type: 'link', target: { kind: 'url', url: 'https://status.example.com' } },
            ],
          },
        ],
      },
    };
  }
  if (path.startsWith('/v1/spaces/sp1/content/files')) {
    const file = (id: string, name: string, bytes: Buffer) => ({
      object: 'file',
      id,
      name,
      contentType: 'application/octet-stream',
      size: bytes.length,
      downloadURL: `${base}/files/${name}`,
    });
    return { status: 200, body: { items: [file('f1', 'logo.png', LOGO), file('f2', 'big.bin', BIG)] } };
  }
  if (path === '/v1/spaces/sp1/content/page/p1')
    return {
      status: 200,
      body: {
        object: 'page',
        id: 'p1',
        title: 'Home',
        kind: 'sheet',
        type: 'document',
        path: 'home',
        description: 'Start here',
        document: {
          object: 'document',
          data: {},
          nodes: [
            para(text('See the '), { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: 'p2' } }, nodes: [text('API')] }, text('.')),
            { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f2' } } },
          ],
        },
      },
    };
  if (path === '/v1/spaces/sp1/content/page/p2')
    return {
      status: 200,
      body: {
        object: 'page',
        id: 'p2',
        title: 'API',
        kind: 'sheet',
        type: 'document',
        path: 'reference/api',
        icon: 'code',
        document: {
          object: 'document',
          data: {},
          nodes: [
            para(
              text('Below, a diagram (see '),
              { object: 'inline', type: 'link', data: { ref: { kind: 'anchor', page: 'p1', anchor: 'start' } }, nodes: [text('home')] },
              text(', '),
              { object: 'inline', type: 'link', data: { ref: { kind: 'file', file: 'f1', space: 'sp1' } }, nodes: [text('the logo')] },
              text(').'),
            ),
            { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } } },
            { object: 'block', type: 'integration', isVoid: true, data: { integration: 'mermaid', block: 'diagram', props: { source: 'a-->b' } } },
          ],
        },
      },
    };
  if (path === '/files/logo.png') return { status: 200, bytes: LOGO };
  if (path === '/files/big.bin') {
    if (knobs.failBig > 0) {
      knobs.failBig--;
      return { status: 500, body: { error: { code: 500, message: 'storage down' } } };
    }
    return { status: 200, bytes: BIG };
  }
  return { status: 404, body: { error: { code: 404, message: `no ${path}` } } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const a = answer(path);
    if (a.bytes) {
      res.writeHead(a.status, { 'content-type': 'application/octet-stream', 'content-length': String(a.bytes.length) });
      // In pieces, as a large file comes.
      for (let i = 0; i < a.bytes.length; i += 256 * 1024) res.write(a.bytes.subarray(i, i + 256 * 1024));
      res.end();
      return;
    }
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  home = mkdtempSync(join(tmpdir(), 'docsctl-export-home-'));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => {
  hits.clear();
  knobs.tooMany = 0;
  knobs.failBig = 0;
});

const run = (args: string[], retries = '0') =>
  docsctlInProcess(args, { HOME: home, DOCSCTL_CONFIG_DIR: home, DOCSCTL_API_URL: base, DOCSCTL_TOKEN: 'test-token-123', DOCSCTL_MAX_RETRIES: retries });

describe('content export against a service of its own', () => {
  it('streams files from their URL, writes groups and link pages in SUMMARY.md, keeps the document a page’s Markdown cannot carry, honours 429', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docsctl-export-'));
    try {
      knobs.tooMany = 1;
      const r = await run(['content', 'export', 'sp1', '--out', out], '2');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(hits.get('/v1/spaces/sp1/content/pages')).toBe(2);
      expect(readFileSync(join(out, '.gitbook/assets/big.bin')).equals(BIG)).toBe(true);
      expect(readFileSync(join(out, '.gitbook/assets/logo.png')).equals(LOGO)).toBe(true);
      expect(readFileSync(join(out, 'SUMMARY.md'), 'utf8')).toBe(
        '# Table of contents\n\n* [Home](README.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [Status](https://status.example.com)\n',
      );
      expect(readFileSync(join(out, 'README.md'), 'utf8')).toBe(
        '---\ndescription: Start here\n---\n\n# Home\n\nSee the [API](reference/api.md).\n\n{% file src=".gitbook/assets/big.bin" %}\n{% endfile %}\n',
      );
      expect(readFileSync(join(out, 'reference/api.md'), 'utf8')).toBe(
        '---\nicon: code\n---\n\n# API\n\nBelow, a diagram (see [home](../README.md#start), [the logo](../.gitbook/assets/logo.png)).\n\n' +
          '{% file src="../.gitbook/assets/logo.png" %}\n{% endfile %}\n',
      );
      const kept = JSON.parse(readFileSync(join(out, '.gitbook/documents/reference/api.json'), 'utf8'));
      expect(kept).toMatchObject({
        object: 'document',
        nodes: [{ type: 'paragraph' }, { type: 'file' }, { type: 'integration', data: { props: { source: 'a-->b' } } }],
      });
      expect(r.stderr).toContain(
        '1 page kept its document JSON (the Markdown cannot carry all of it):\n  reference/api.md → .gitbook/documents/reference/api.json: integration',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('a kept document names the space’s pages and files by path: a sandbox seeded from the folder links them to its own', { timeout: 60_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'docsctl-export-'));
    try {
      const r = await run(['content', 'export', 'sp1', '--out', out]);
      expect(r.exitCode, r.stderr).toBe(0);
      const kept = JSON.parse(readFileSync(join(out, '.gitbook/documents/reference/api.json'), 'utf8'));
      const links = kept.nodes[0].nodes.filter((n: { object: string }) => n.object === 'inline');
      expect(links.map((l: { data: unknown }) => l.data)).toEqual([
        { ref: { kind: 'anchor', page: 'README.md', anchor: 'start' } },
        { ref: { kind: 'file', file: '.gitbook/assets/logo.png' } },
      ]);
      expect(kept.nodes[1].data).toEqual({ ref: { kind: 'file', file: '.gitbook/assets/logo.png' } });

      // A sandbox started from the folder, and one from a backup holding it: the page's references are
      // to the pages and files the sandbox seeded.
      const backup = mkdtempSync(join(tmpdir(), 'docsctl-backup-'));
      cpSync(out, join(backup, 'docs'), { recursive: true });
      writeFileSync(
        join(backup, 'manifest.json'),
        JSON.stringify({ docsctl: 1, organization: 'org-x', orgFile: { path: 'org.yaml', sha256: '' }, spaces: [] }),
      );
      onTestFinished(() => rmSync(backup, { recursive: true, force: true }));
      for (const [seed, title] of [
        [out, basename(out)],
        [backup, 'docs'],
      ]) {
        const { info, stop } = await serveJson(['--seed', seed], { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home });
        try {
          const api = async (path: string) => {
            const res = await fetch(`${info.url}/v1${path}`, { headers: { authorization: `Bearer ${info.token}` } });
            expect(res.status, path).toBe(200);
            return res.json() as Promise<any>;
          };
          const space = (await api('/orgs/org-acme/spaces')).items.find((s: { title: string }) => s.title === title).id;
          const { pages } = await api(`/spaces/${space}/content/pages`);
          const [homePage, apiPage] = [pages[0], pages[1].pages[0]];
          expect([homePage.title, apiPage.title]).toEqual(['Home', 'API']);
          const logo = (await api(`/spaces/${space}/content/files`)).items.find((f: { name: string }) => f.name === 'logo.png');
          const doc = (await api(`/spaces/${space}/content/page/${apiPage.id}`)).document;
          const refs = doc.nodes.flatMap((b: { data?: { ref?: unknown }; nodes?: { data?: { ref?: unknown } }[] }) =>
            [b, ...(b.nodes ?? [])].flatMap((n) => (n.data?.ref ? [n.data.ref] : [])),
          );
          expect(refs, seed).toEqual([
            { kind: 'anchor', page: homePage.id, anchor: 'start' },
            { kind: 'file', file: logo.id },
            { kind: 'file', file: logo.id },
          ]);
        } finally {
          await stop();
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('an interrupted export resumes: a rerun fetches only what it did not have', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docsctl-export-'));
    try {
      knobs.failBig = 1;
      const failed = await run(['content', 'export', 'sp1', '--out', out, '--concurrency', '1']);
      expect(failed.exitCode).toBe(1);
      expect(failed.stderr).toContain('storage down');
      expect(existsSync(join(out, '.gitbook/assets/big.bin'))).toBe(false);
      const state = JSON.parse(readFileSync(join(out, '.docsctl-export.json'), 'utf8'));
      expect(state).toMatchObject({ space: 'sp1', complete: false });
      expect(Object.keys(state.files)).toContain('.gitbook/assets/logo.png');

      hits.clear();
      const again = await run(['content', 'export', 'sp1', '--out', out, '--json']);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(hits.get('/files/logo.png')).toBeUndefined();
      expect(hits.get('/files/big.bin')).toBe(1);
      expect(JSON.parse(again.stdout)).toMatchObject({ written: ['.gitbook/assets/big.bin'], stale: [], removed: [] });
      expect(readFileSync(join(out, '.gitbook/assets/big.bin')).equals(BIG)).toBe(true);
      expect(JSON.parse(readFileSync(join(out, '.docsctl-export.json'), 'utf8'))).toMatchObject({ complete: true });

      // Complete: nothing downloaded again, nothing written.
      hits.clear();
      const third = await run(['content', 'export', 'sp1', '--out', out]);
      expect(third.stderr).toContain('wrote 0 files');
      expect(hits.get('/files/big.bin')).toBeUndefined();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('--format json writes each page’s document at its path, and the tree', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docsctl-export-'));
    try {
      const r = await run(['content', 'export', 'sp1', '--out', out, '--format', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(out, 'README.json'), 'utf8'))).toMatchObject({
        id: 'p1',
        description: 'Start here',
        document: { object: 'document' },
      });
      expect(JSON.parse(readFileSync(join(out, 'reference/api.json'), 'utf8'))).toMatchObject({ id: 'p2', icon: 'code' });
      expect(JSON.parse(readFileSync(join(out, 'SUMMARY.json'), 'utf8'))).toEqual([
        { id: 'p1', title: 'Home', type: 'document', file: 'README.json' },
        {
          id: 'g1',
          title: 'Reference',
          type: 'group',
          pages: [
            { id: 'p2', title: 'API', type: 'document', file: 'reference/api.json' },
            { id: 'l1', title: 'Status', type: 'link', target: { kind: 'url', url: 'https://status.example.com' } },
          ],
        },
      ]);
      expect(existsSync(join(out, 'SUMMARY.md'))).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
