/**
 * `docsctl serve --seed DIR` with a space folder in Git Sync's layout (test/fixtures/gitsync-space:
 * every GitBook block, nested pages, a group, link pages, a page kept as document JSON, two files
 * of which one binary): the sandbox holds its structure and content, read back through the API.
 */
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsctl, serveJson, type ServeInfo } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/gitsync-space');
const home = mkdtempSync(join(tmpdir(), 'docsctl-seed-folder-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };

type Page = { id: string; title: string; type: string; path?: string; pages?: Page[]; markdown?: string; document?: unknown; [k: string]: unknown };

describe('docsctl serve --seed SPACE-FOLDER', () => {
  let sandbox: Awaited<ReturnType<typeof serveJson>>;
  let info: ServeInfo;
  const api = async (path: string) => {
    const res = await fetch(`${info.url}/v1${path}`, { headers: { authorization: `Bearer ${info.token}` } });
    expect(res.status, path).toBe(200);
    return res.json() as Promise<any>;
  };
  let space: string;

  beforeAll(async () => {
    sandbox = await serveJson(['--seed', FIXTURE], env);
    info = sandbox.info;
    const spaces = await api('/orgs/org-acme/spaces');
    space = spaces.items.find((s: { title: string }) => s.title === 'gitsync-space').id;
  }, 60_000);
  afterAll(() => sandbox.stop());

  it('gives the pages in SUMMARY.md order, nested, with a group and link pages, their titles and front matter', async () => {
    const { pages } = (await api(`/spaces/${space}/content/pages`)) as { pages: Page[] };
    const outline = (list: Page[], depth = 0): string[] =>
      list.flatMap((p) => [`${'  '.repeat(depth)}${p.type} ${p.title} ${p.path ?? ''}`, ...outline(p.pages ?? [], depth + 1)]);
    expect(outline(pages)).toEqual([
      'document Welcome welcome',
      'document Guide guide',
      '  document Install guide/install',
      '  document Blocks guide/blocks',
      'group Reference reference',
      '  document API reference/api',
      '  document Changelog reference/changelog',
      '  link Install, again ',
      '  link GitBook ',
    ]);
    const links = pages[2].pages!.slice(2);
    expect(links[0].target).toEqual({ kind: 'page', page: pages[1].pages![0].id });
    expect(links[1]).toMatchObject({ target: { kind: 'url', url: 'https://www.gitbook.com' }, href: 'https://www.gitbook.com' });
    expect(pages[0]).toMatchObject({ description: 'Where it starts', emoji: '👋' });
    expect(pages[1].pages![0]).toMatchObject({ icon: 'download', hidden: true });
    // The body without its title; headings one level up (## is the body's first level).
    expect(pages[1].pages![0].markdown).toBe(
      '# Requirements\n\nNode 20.\n\n## Steps\n\n1. Download the [notes](../.gitbook/assets/notes%20v1.txt).\n2. Run it.\n',
    );
  });

  it('reads each page as a document: GitBook blocks, relative links as page, anchor and file references', async () => {
    const { pages } = (await api(`/spaces/${space}/content/pages`)) as { pages: Page[] };
    const files = (await api(`/spaces/${space}/content/files`)).items as { id: string; name: string }[];
    const fileId = (name: string) => files.find((f) => f.name === name)!.id;
    const blocks = await api(`/spaces/${space}/content/page/${pages[1].pages![1].id}`);
    expect(blocks.document.nodes.map((n: { type: string }) => n.type)).toEqual([
      'hint',
      'tabs',
      'expandable',
      'embed',
      'file',
      'content-ref',
      'code',
      'images',
      'math',
      'stepper',
      'table',
    ]);
    const node = (type: string) => blocks.document.nodes.find((n: { type: string }) => n.type === type);
    expect(node('file').data.ref).toEqual({ kind: 'file', file: fileId('notes v1.txt') });
    expect(node('content-ref').data.ref).toEqual({ kind: 'page', page: pages[1].pages![0].id });
    expect(node('code').data).toEqual({ syntax: 'js', title: 'app.js', lineNumbers: true });
    expect(node('images').nodes[0].data.ref).toEqual({ kind: 'file', file: fileId('logo.png') });
    const welcome = await api(`/spaces/${space}/content/page/${pages[0].id}`);
    const link = welcome.document.nodes[0].nodes.find((n: { object: string }) => n.object === 'inline');
    expect(link.data.ref).toEqual({ kind: 'anchor', page: pages[1].pages![0].id, anchor: 'requirements' });
    // Markdown answers keep Git Sync's syntax.
    const md = await api(`/spaces/${space}/content/page/${pages[1].pages![1].id}?format=markdown`);
    expect(md.markdown).toContain('{% hint style="info" %}\nA hint with **bold** text.\n{% endhint %}');
    // A page with a document JSON: that document, written as Markdown.
    const changelog = await api(`/spaces/${space}/content/page/${pages[2].pages![1].id}?format=markdown`);
    expect(changelog.markdown).toBe('# Releases\n\n{% hint style="success" %}\n\n_From the document JSON._\n\n{% endhint %}\n');
  });

  it('holds the files with their exact bytes', async () => {
    const files = (await api(`/spaces/${space}/content/files`)).items as { name: string; downloadURL: string; size: number; contentType: string }[];
    expect(files.map((f) => f.name).sort()).toEqual(['logo.png', 'notes v1.txt']);
    for (const f of files) {
      const bytes = Buffer.from(await (await fetch(f.downloadURL)).arrayBuffer());
      expect(bytes.equals(readFileSync(join(FIXTURE, '.gitbook/assets', f.name))), f.name).toBe(true);
    }
    expect(files.find((f) => f.name === 'logo.png')!.contentType).toBe('image/png');
  });
});

describe('docsctl serve --seed reads a table of contents as Git Sync does', () => {
  it('a link whose % is no escape (100%-sure.md) names that file as written', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'docsctl-seed-pct-')), 'space');
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Odd](100%-sure.md)\n* [Spaced](a%20b.md)\n');
    writeFileSync(join(dir, '100%-sure.md'), '# Odd\n\nSure.\n');
    writeFileSync(join(dir, 'a b.md'), '# Spaced\n');
    const { info, stop } = await serveJson(['--seed', dir], env);
    try {
      const get = async (path: string) => (await (await fetch(`${info.url}/v1${path}`, { headers: { authorization: `Bearer ${info.token}` } })).json()) as any;
      const space = (await get('/orgs/org-acme/spaces')).items.find((s: { title: string }) => s.title === 'space').id;
      const pages = (await get(`/spaces/${space}/content/pages`)).pages as Page[];
      expect(pages.map((p) => p.title)).toEqual(['Welcome', 'Odd', 'Spaced']);
      expect((await get(`/spaces/${space}/content/page/${pages[1]!.id}?format=markdown`)).markdown).toContain('Sure.');
    } finally {
      await stop();
    }
  });
});

describe('docsctl serve --seed refuses an unsafe or malformed folder, naming the file', () => {
  it('refuses a symbolic link, and a SUMMARY.md line that is no item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docsctl-seed-bad-'));
    cpSync(FIXTURE, join(dir, 'space'), { recursive: true });
    symlinkSync('/etc/passwd', join(dir, 'space/.gitbook/assets/passwd'));
    const linked = await docsctl(['serve', '--memory', '--port', '0', '--seed', join(dir, 'space')], env);
    expect(linked.exitCode).toBe(2);
    expect(linked.stderr).toContain(`--seed: ${join(dir, 'space/.gitbook/assets/passwd')}: a symbolic link`);
    const other = join(dir, 'other');
    cpSync(FIXTURE, other, { recursive: true });
    writeFileSync(join(other, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\nnot an item\n');
    const malformed = await docsctl(['serve', '--memory', '--port', '0', '--seed', other], env);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain(`--seed: ${join(other, 'SUMMARY.md')}:4: not an item of the table of contents`);
    const empty = mkdtempSync(join(tmpdir(), 'docsctl-seed-empty-'));
    const neither = await docsctl(['serve', '--memory', '--port', '0', '--seed', empty], env);
    expect(neither.exitCode).toBe(2);
    expect(neither.stderr).toContain("neither a backup (manifest.json) nor a space in Git Sync's layout");
  });
});
