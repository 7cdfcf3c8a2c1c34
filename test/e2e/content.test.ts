import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess, useSandbox } from '../helpers/inprocess.js';
import { checkAnswer } from '../helpers/official.js';

const sb = useSandbox();

/** A PNG signature and IHDR chunk of a 3x2 image. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]),
]);

const html = (title: string, body: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title><meta name="description" content="About ${title}"></head>` +
  `<body><nav><a href="/">Home</a></nav><main>${body}</main></body></html>`;

/** A small website: nested pages, an image, and one link to a page that does not exist. */
const SITE: Record<string, { type: string; body: string | Buffer }> = {
  '/': {
    type: 'text/html',
    body: html(
      'Acme Docs',
      `<h1>Acme Docs</h1><p><img src="/img/logo.png" alt="Logo"></p>
      <p>Read the <a href="/guide/">guide</a>, then <a href="/guide/install.html">install</a> it.</p>
      <p>The <a href="/api/">API</a> lets you deploy from scripts.</p>`,
    ),
  },
  '/guide/': {
    type: 'text/html',
    body: html(
      'Guide',
      `<h1>Guide</h1><p>Everything about using Acme. Start with <a href="install.html">the installation</a>.</p>
      <p>See also <a href="/guide/missing">a page that is gone</a> and <a href="https://example.com/">the vendor</a>.</p>`,
    ),
  },
  '/guide/install.html': {
    type: 'text/html',
    body: html(
      'Install',
      `<h1>Install</h1><p>How to install Acme.</p><h2>Requirements</h2><p>Node 20 or later.</p>
      <h2>Windows</h2><p>Use the installer; install it for all users.</p><p>Back <a href="/">home</a>.</p>`,
    ),
  },
  '/api/': {
    type: 'text/html',
    body: html('API', `<h1>API</h1><p>Endpoints to deploy and configure; the install is covered in the guide.</p>`),
  },
  '/img/logo.png': { type: 'image/png', body: PNG },
};

let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const page = SITE[req.url ?? ''];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const revisionOf = async (space = 'sp-welcome') => (await sb.request('GET', `/v1/spaces/${space}`)).body.revision as string;

async function importSite() {
  const r = await sb.run(['content', 'import', 'sp-welcome', `${siteUrl}/`, '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return { result: JSON.parse(r.stdout), stderr: r.stderr };
}

describe('content import', () => {
  it('imports a website as nested pages and files, as a new revision of the space', async () => {
    const before = await revisionOf();
    const { result, stderr } = await importSite();
    // 4 pages and the image; the missing page was found but not imported.
    expect(result).toEqual({ revision: expect.any(String), importedResources: 5, totalResources: 6 });
    expect(stderr.split('\n')[0]).toBe(`imported 5 of 6 resources found into space sp-welcome (revision ${result.revision})`);
    expect(await revisionOf()).toBe(result.revision);

    const content = await sb.json(['content', 'show', 'sp-welcome']);
    expect(content).toMatchObject({ object: 'revision', id: result.revision, parents: [before], type: 'edits' });
    expect(content.git.message).toBe(`Import from ${siteUrl}/`);

    const pages = await sb.json(['content', 'pages', 'sp-welcome']);
    expect(pages.map((p: { path: string; title: string }) => [p.path, p.title])).toEqual([
      ['acme-docs', 'Acme Docs'],
      ['guide', 'Guide'],
      ['guide/install', 'Install'],
      ['api', 'API'],
    ]);
    expect(pages[0]).not.toHaveProperty('pages');
    expect(pages[1]).toMatchObject({ object: 'page', type: 'document', slug: 'guide', description: 'About Guide' });

    const tsv = await sb.run(['content', 'pages', 'sp-welcome']);
    expect(tsv.stdout.split('\n').map((l) => l.split('\t').slice(1))).toEqual([
      ['acme-docs', 'Acme Docs', 'false'],
      ['guide', 'Guide', 'false'],
      ['guide/install', 'Install', 'false'],
      ['api', 'API', 'false'],
    ]);
  });

  it('stores the image as a file, served as a data: URL, with its backlinks', async () => {
    await importSite();
    const files = await sb.json(['content', 'files', 'sp-welcome']);
    expect(files).toEqual([
      expect.objectContaining({ object: 'file', name: 'logo.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 3, height: 2 } }),
    ]);
    const file = await sb.json(['content', 'file', 'sp-welcome', 'logo.png']);
    expect(file.id).toBe(files[0].id);
    expect(Buffer.from(file.downloadURL.replace(/^data:image\/png;base64,/, ''), 'base64').equals(PNG)).toBe(true);

    const back = await sb.run(['content', 'backlinks', 'sp-welcome', '--file', file.id]);
    expect(back.exitCode).toBe(0);
    const pages = await sb.json(['content', 'pages', 'sp-welcome']);
    expect(back.stdout).toBe(`/acme-docs\tpage\t${pages[0].id}\tsp-welcome\t${await revisionOf()}`);
  });

  it('reports the link to the page that was not there as broken', async () => {
    await importSite();
    const broken = await sb.run(['content', 'links', 'sp-welcome', '--broken']);
    expect(broken.exitCode).toBe(0);
    expect(broken.stdout).toBe('broken\t/guide/missing\t/guide');
    const all = await sb.json(['content', 'links', 'sp-welcome']);
    expect(broken.stderr).toBe(`${all.length} links, 1 broken; showing 1 broken`);
    expect(all.map((l: { status: string }) => l.status).sort()).toEqual(['broken', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    const vendor = all.find((l: { targetReference: { url?: string } }) => l.targetReference.url === 'https://example.com/');
    expect(vendor).toMatchObject({
      status: 'ok',
      relation: 'reference',
      targetReference: { kind: 'url' },
      locationReferences: [{ kind: 'page', space: 'sp-welcome' }],
    });

    // The same list through the API, with its stats.
    const api = await sb.request('GET', '/v1/spaces/sp-welcome/links?status=broken');
    expect(api.body).toMatchObject({ count: 1, stats: { total: all.length, broken: { total: 1, changeRequest: 0 } } });

    const guideLinks = await sb.json(['content', 'links', 'sp-welcome', '--page-id', 'guide']);
    expect(guideLinks.map((l: { status: string }) => l.status)).toEqual(['ok', 'broken', 'ok']);
  });

  it('finds backlinks of a page given by path', async () => {
    await importSite();
    const r = await sb.run(['content', 'backlinks', 'sp-welcome', '--page-id', 'guide/install']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['/acme-docs', '/guide']);
    const both = await sb.run(['content', 'backlinks', 'sp-welcome']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('pass exactly one of --page-id or --file');
  });

  it('refuses a URL that is not http(s) before sending, and the server refuses it too', async () => {
    const before = await revisionOf();
    const r = await sb.run(['content', 'import', 'sp-welcome', 'ftp://127.0.0.1/docs']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('<url>: must be an absolute http:// or https:// URL');
    const api = await sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: 'file:///etc/passwd', source: 'website' });
    expect(api).toEqual({ status: 400, body: { error: { code: 400, message: 'url: must be an absolute http:// or https:// URL' } } });
    const source = await sb.request('POST', '/v1/spaces/sp-welcome/content/import', { url: siteUrl, source: 'git' });
    expect(source.status).toBe(400);
    expect(source.body.error.message).toBe('source: must be one of "website"');
    expect(await revisionOf()).toBe(before);
  });

  it('fails with a clear message on an unreachable URL or a missing page, and changes nothing', async () => {
    const before = await revisionOf();
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    const refused = await sb.run(['content', 'import', 'sp-welcome', 'http://127.0.0.1:9/']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('url: the import failed, nothing was changed: fetching http://127.0.0.1:9/: request failed');
    const missing = await sb.run(['content', 'import', 'sp-welcome', `${siteUrl}/nowhere`]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(`fetching ${siteUrl}/nowhere: answered 404`);
    expect(await revisionOf()).toBe(before);
    expect(await sb.json(['content', 'pages', 'sp-welcome'])).toEqual([]);
  });

  it('needs the edit role: a reader may look but not import; an outsider sees nothing', async () => {
    const r = await sb.run(['content', 'import', 'sp-welcome', `${siteUrl}/`], { as: 'read' });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('needs the edit role or above');
    expect((await sb.run(['content', 'show', 'sp-welcome'], { as: 'read' })).exitCode).toBe(0);
    const outsider = await sb.run(['content', 'show', 'sp-welcome'], { as: 'outsider' });
    expect(outsider.exitCode).toBe(4);
  });

  it('refuses to change the content of a locked space, even for an admin', async () => {
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { editMode: 'locked' })).status).toBe(200);
    const before = await revisionOf();
    const r = await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('space sp-welcome is locked: its content cannot be edited');
    expect(await revisionOf()).toBe(before);
  });
});

describe('content pages', () => {
  it('prints a page by path or by id; --markdown is the page’s Markdown, ready to pipe', async () => {
    await importSite();
    const byPath = await sb.run(['content', 'page', 'sp-welcome', 'guide/install', '--markdown']);
    expect(byPath.exitCode).toBe(0);
    const pages = await sb.json(['content', 'pages', 'sp-welcome']);
    const install = pages.find((p: { path: string }) => p.path === 'guide/install');
    const api = await sb.request('GET', `/v1/spaces/sp-welcome/content/page/${install.id}?format=markdown`);
    expect(byPath.stdout + '\n').toBe(api.body.markdown); // execa strips the final newline
    expect(api.body.markdown).toMatch(/^# Install\n[\s\S]*## Requirements[\s\S]*Back \[home\]\(\/acme-docs\)\.\n$/);
    const byId = await sb.run(['content', 'page', 'sp-welcome', install.id, '--markdown']);
    expect(byId.stdout).toBe(byPath.stdout);

    const json = await sb.json(['content', 'page', 'sp-welcome', '/guide/install/']);
    expect(json).toMatchObject({ id: install.id, path: 'guide/install', document: { object: 'document' } });
    expect(json.document.nodes[0]).toMatchObject({ object: 'block', type: 'heading-1' });
    expect(json.git).toEqual({ oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'guide/install.md' });

    const fields = await sb.run(['content', 'page', 'sp-welcome', 'guide', '--fields', 'id,path']);
    expect(fields.stdout).toBe(`id\t${pages[1].id}\npath\tguide`);
  });

  it('answers not found (exit 4) for a page that is neither an id nor a path', async () => {
    await importSite();
    const r = await sb.run(['content', 'page', 'sp-welcome', 'guide/nope']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('no page "guide/nope" in space sp-welcome');
    const api = await sb.request('GET', '/v1/spaces/sp-welcome/content/page/nope');
    expect(api).toEqual({ status: 404, body: { error: { code: 404, message: 'no page nope in space sp-welcome' } } });
  });
});

describe('content pages: link pages (a service sends them; the sandbox makes none)', () => {
  /** A space's pages as the official document allows them: a document page holding link pages, and a link page at the root. */
  const PAGES = {
    pages: [
      {
        object: 'page',
        id: 'pg-guide',
        title: 'Guide',
        kind: 'sheet',
        type: 'document',
        slug: 'guide',
        path: 'guide',
        urls: { app: 'https://app.example.com/guide' },
        document: { object: 'document', data: {}, nodes: [] },
        tags: [],
        layout: {
          width: 'default',
          cover: false,
          coverSize: 'hero',
          coverMask: 'none',
          title: true,
          description: true,
          tableOfContents: true,
          outline: true,
          pagination: true,
          metadata: true,
          tags: true,
          actions: true,
          anchors: true,
        },
        pages: [
          { id: 'pg-vendor', title: 'Vendor', kind: 'link', type: 'link', target: { kind: 'url', url: 'https://vendor.example.com/docs' } },
          { id: 'pg-back', title: 'Back to the guide', kind: 'link', type: 'link', target: { kind: 'page', page: 'pg-guide' } },
        ],
      },
      { id: 'pg-other', title: 'Other space', kind: 'link', type: 'link', target: { kind: 'space', space: 'sp-other' }, hidden: true },
    ],
  };
  let service: http.Server;
  let serviceUrl: string;
  beforeAll(async () => {
    service = http.createServer((req, res) => {
      req.resume();
      if (req.method === 'GET' && req.url?.startsWith('/v1/spaces/sp1/content/pages'))
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PAGES));
      else res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not here' } }));
    });
    await new Promise<void>((done) => service.listen(0, '127.0.0.1', done));
    serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    service.closeAllConnections();
    await new Promise((done) => service.close(done));
  });
  const run = (args: string[], env: Record<string, string> = {}) =>
    runInProcess(args, {
      env: {
        HOME: sb.home,
        DOCSCTL_CONFIG_DIR: sb.home,
        DOCSCTL_API_URL: serviceUrl,
        DOCSCTL_TOKEN: 'tok-links-1234',
        DOCSCTL_ORG: 'o',
        DOCSCTL_MAX_RETRIES: '0',
        ...env,
      },
    });

  it('the answer is one the official document allows', () => {
    expect(checkAnswer('GET', '/spaces/sp1/content/pages', 200, JSON.stringify(PAGES)).problems).toEqual([]);
  });

  it('draws a link page with its target (never "/undefined"); TSV leaves its path empty, --fields shows the target', async () => {
    const tree = await run(['content', 'pages', 'sp1'], { DOCSCTL_FORCE_TTY: '1', NO_COLOR: '1', COLUMNS: '120' });
    expect(tree.exitCode, tree.stderr).toBe(0);
    expect(tree.stdout).not.toContain('undefined');
    expect(tree.stdout).toMatch(/Guide {2}\/guide\n/);
    expect(tree.stdout).toMatch(/Vendor {2}→ https:\/\/vendor\.example\.com\/docs\n/);
    expect(tree.stdout).toMatch(/Back to the guide {2}→ \/guide\n/);
    expect(tree.stdout).toMatch(/Other space {2}→ space:sp-other {2}\(hidden\)$/);

    const tsv = await run(['content', 'pages', 'sp1']);
    expect(tsv.stdout).toBe('pg-guide\tguide\tGuide\t\npg-vendor\t\tVendor\t\npg-back\t\tBack to the guide\t\npg-other\t\tOther space\ttrue');
    const targets = await run(['content', 'pages', 'sp1', '--fields', 'id,target']);
    expect(targets.stdout).toBe('pg-guide\t\npg-vendor\thttps://vendor.example.com/docs\npg-back\t/pg-guide\npg-other\tspace:sp-other');
  });
});

describe('content search', () => {
  it('ranks by relevance (a title match first) with the matching sections', async () => {
    await importSite();
    // The title match first; then by BM25: "installation" (a completion of the last word) is rarer
    // than "install" and so weighs more; of two bodies with "install" once, the shorter wins.
    const hits = await sb.json(['content', 'search', 'sp-welcome', 'install']);
    expect(hits.map((h: { path: string }) => h.path)).toEqual(['guide/install', 'guide', 'api', 'acme-docs']);
    expect(hits[0].urls.app).toMatch(/\/app\/s\/sp-welcome\/guide\/install$/);

    const windows = await sb.json(['content', 'search', 'sp-welcome', 'WINDOWS installer']);
    expect(windows).toHaveLength(1);
    expect(windows[0].sections).toEqual([
      expect.objectContaining({
        id: 'windows',
        title: 'Windows',
        path: 'guide/install#windows',
        body: 'Use the installer; install it for all users. Back home.',
      }),
    ]);

    const tsv = await sb.run(['content', 'search', 'sp-welcome', 'deploy']);
    expect(tsv.stdout.split('\n').map((l) => l.split('\t').slice(1, 3))).toEqual([
      ['api', 'API'],
      ['acme-docs', 'Acme Docs'],
    ]);

    const paged = await sb.request('GET', '/v1/spaces/sp-welcome/search?query=install&limit=2');
    expect(paged.body.count).toBe(4);
    expect(paged.body.items.map((h: { path: string }) => h.path)).toEqual(['guide/install', 'guide']);
    const rest = await sb.request('GET', `/v1/spaces/sp-welcome/search?query=install&limit=2&page=${paged.body.next.page}`);
    expect(rest.body.items.map((h: { path: string }) => h.path)).toEqual(['api', 'acme-docs']);
    // Ranks count across the pages of the list; scores follow the order.
    expect([...paged.body.items, ...rest.body.items].map((h: { rank: number }) => h.rank)).toEqual([1, 2, 3, 4]);
    expect(rest.body.items.map((h: { score: number }) => h.score)).toEqual(hits.slice(2).map((h: { score: number }) => h.score));
  });

  it('gives each result a score, a rank, its page’s description and ancestors, and each section a score', async () => {
    await importSite();
    const hits = await sb.json(['content', 'search', 'sp-welcome', 'install']);
    expect(hits.map((h: { rank: number }) => h.rank)).toEqual([1, 2, 3, 4]);
    const scores = hits.map((h: { score: number }) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(scores[1]); // the title match is worth more than any body match
    expect(scores.every((x: number) => x > 0)).toBe(true);
    // The description the import took from the page's <meta name="description">; the ancestors from the page tree.
    expect(hits[0]).toMatchObject({ path: 'guide/install', description: 'About Install', ancestors: [{ title: 'Guide' }] });
    expect(hits[1]).toMatchObject({ path: 'guide', ancestors: [] });
    for (const hit of hits) {
      const sectionScores = hit.sections.map((s: { score: number }) => s.score);
      expect(sectionScores).toEqual([...sectionScores].sort((a, b) => b - a));
    }
    // A section holding both words ranks above one holding one of them.
    const both = await sb.json(['content', 'search', 'sp-welcome', 'install windows']);
    expect(both[0].sections.map((s: { id: string }) => s.id)[0]).toBe('windows');
    expect(both[0].sections[0].score).toBeGreaterThan(2);

    // An empty query is one the document allows: it finds nothing.
    const empty = await sb.request('GET', '/v1/spaces/sp-welcome/search?query=');
    expect(empty).toEqual({ status: 200, body: { count: 0, items: [] } });
  });

  it('follows the space as its content changes', async () => {
    expect(await sb.json(['content', 'search', 'sp-welcome', 'quickstart'])).toEqual([]);
    await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    const hits = await sb.json(['content', 'search', 'sp-welcome', 'quickstart']);
    expect(hits[0].path).toBe('getting-started/quickstart');
  });

  it('checks the query length before sending, and the server does too', async () => {
    const r = await sb.run(['content', 'search', 'sp-welcome', 'x'.repeat(513)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('<query>: must be at most 512 characters');
    const api = await sb.request('GET', `/v1/spaces/sp-welcome/search?query=${'x'.repeat(513)}`);
    expect(api.body.error.message).toBe('query: must be at most 512 characters');
  });
});

describe('content templates', () => {
  it('applies a template as a new revision (204), with working links and variables', async () => {
    const before = await revisionOf();
    const r = await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: 'applied template getting-started to space sp-welcome' });
    const api = await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'api-reference' });
    expect(api).toEqual({ status: 204, body: undefined });

    const content = await sb.json(['content', 'show', 'sp-welcome']);
    expect(content.parents).toHaveLength(1);
    expect(content.parents[0]).not.toBe(before);
    expect(content.variables).toEqual({ product: 'Your product', apiBaseUrl: 'https://api.example.com/v1' });
    const pages = await sb.json(['content', 'pages', 'sp-welcome']);
    expect(pages.map((p: { path: string }) => p.path)).toEqual([
      'getting-started',
      'getting-started/installation',
      'getting-started/quickstart',
      'faq',
      'api-reference',
      'api-reference/authentication',
      'api-reference/endpoints',
      'api-reference/errors',
    ]);
    const links = await sb.run(['content', 'links', 'sp-welcome']);
    expect(links.stderr).toMatch(/^\d+ links, 0 broken$/);

    const raw = await sb.run(['content', 'page', 'sp-welcome', 'getting-started', '--markdown']);
    expect(raw.stdout).toContain('{{ space.vars.product }}');
    const evaluated = await sb.run(['content', 'page', 'sp-welcome', 'getting-started', '--markdown', '--evaluated']);
    expect(evaluated.stdout).toContain('Welcome to the documentation of Your product.');
  });

  it('computes computed pages unless computed=false, which shows their source; metadata=false leaves git out', async () => {
    await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'api-reference' });
    // Computed (the default): a document page holding the computed content.
    const pages = await sb.json(['content', 'pages', 'sp-welcome']);
    const endpoints = pages.find((p: { path: string }) => p.path === 'api-reference/endpoints');
    expect(endpoints).toMatchObject({ type: 'document', kind: 'sheet', markdown: expect.stringContaining('OpenAPI specification `api`') });
    expect(endpoints).not.toHaveProperty('computed');
    const url = `/v1/spaces/sp-welcome/content/page/${endpoints.id}?format=markdown`;
    expect((await sb.request('GET', url)).body.markdown).toContain('OpenAPI specification `api`');
    // computed=false: the page as its source, a computed page without a body.
    const source = (await sb.request('GET', `${url}&computed=false`)).body;
    expect(source).toMatchObject({
      id: endpoints.id,
      type: 'computed',
      path: 'api-reference/endpoints',
      computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'api' } } }, props: { models: false } },
    });
    expect(source).not.toHaveProperty('markdown');
    expect(source).not.toHaveProperty('document');
    const listed = (await sb.request('GET', '/v1/spaces/sp-welcome/content/pages?computed=false')).body.pages[0].pages;
    expect(listed.map((p: { type: string }) => p.type)).toEqual(['document', 'computed', 'document']);

    const bare = await sb.json(['content', 'show', 'sp-welcome', '--omit-metadata']);
    expect(bare).not.toHaveProperty('git');
    expect(bare.pages[0]).not.toHaveProperty('git');
    expect((await sb.json(['content', 'show', 'sp-welcome'])).pages[0].git.path).toBe('api-reference/README.md');
  });

  it('lists pages as document pages with their Markdown, layout and tags; a page read carries the format asked, its subpages too', async () => {
    await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    const { pages } = (await sb.request('GET', '/v1/spaces/sp-welcome/content/pages')).body;
    const layout = {
      width: 'default',
      cover: false,
      coverSize: 'hero',
      coverMask: 'none',
      title: true,
      description: true,
      tableOfContents: true,
      outline: true,
      pagination: true,
      metadata: true,
      tags: true,
      actions: true,
      anchors: true,
    };
    for (const page of [pages[0], ...pages[0].pages, pages[1]]) {
      expect(page).toMatchObject({ kind: 'sheet', type: 'document', layout, tags: [], markdown: expect.stringMatching(/^# /) });
      expect(page).not.toHaveProperty('document');
    }
    const install = pages[0].pages[0];
    expect(install.markdown).toBe((await sb.request('GET', `/v1/spaces/sp-welcome/content/page/${install.id}?format=markdown`)).body.markdown);

    // A page read: a Document by default (its subpages too), Markdown with format=markdown.
    const asDocument = await sb.json(['content', 'page', 'sp-welcome', 'getting-started']);
    expect(asDocument.document).toMatchObject({ object: 'document', nodes: expect.any(Array) });
    expect(asDocument).not.toHaveProperty('markdown');
    expect(asDocument.pages.map((p: { document?: unknown; markdown?: unknown }) => [typeof p.document, typeof p.markdown])).toEqual([
      ['object', 'undefined'],
      ['object', 'undefined'],
    ]);
    const asMarkdown = await sb.json(['content', 'page', 'sp-welcome', 'getting-started', '--markdown']);
    expect(asMarkdown.markdown).toBe(pages[0].markdown);
    expect(asMarkdown).not.toHaveProperty('document');
    expect(asMarkdown.pages[0].markdown).toBe(install.markdown);
    const fields = await sb.run(['content', 'page', 'sp-welcome', 'faq', '--fields', 'path,type']);
    expect(fields.stdout).toBe('path\tfaq\ntype\tdocument');

    // evaluated=deterministic-only replaces the variables, as evaluated=true does (every variable is deterministic).
    const page = `/v1/spaces/sp-welcome/content/page/${pages[0].id}?format=markdown`;
    for (const mode of ['true', 'deterministic-only']) {
      expect((await sb.request('GET', `${page}&evaluated=${mode}&dereferenced=reusable-contents`)).body.markdown).toContain('documentation of Your product.');
    }
    expect((await sb.request('GET', `${page}&evaluated=false`)).body.markdown).toContain('{{ space.vars.product }}');
    // format.markdown.refs is accepted, and the sandbox writes its links one way.
    expect((await sb.request('GET', `${page}&format.markdown.refs=stable`)).body.markdown).toBe(pages[0].markdown);
  });

  it('answers the revision with its tags (none), its type, and published URLs as the space’s visibility allows', async () => {
    await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    const revision = (await sb.request('GET', '/v1/spaces/sp-welcome/content')).body;
    expect(revision).toMatchObject({ tags: [], type: 'edits', git: { createdByService: true, createdByGitBook: true } });
    // sp-welcome is in a collection: published, not public.
    expect(Object.keys(revision.urls).sort()).toEqual(['app', 'published']);
    const store = sb.server.store;
    // The API has no way to change a space's visibility: set it in the state (and say so, for cached answers).
    store.data.spaces.get('sp-welcome')!.visibility = 'public';
    store.backgroundChanged();
    expect(Object.keys((await sb.request('GET', '/v1/spaces/sp-welcome/content')).body.urls).sort()).toEqual(['app', 'public', 'published']);
    store.data.spaces.get('sp-welcome')!.visibility = 'private';
    store.backgroundChanged();
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/content')).body.urls).toEqual({ app: `${sb.server.url}/app/s/sp-welcome` });
    const shown = await sb.run(['content', 'show', 'sp-welcome', '--fields', 'type']);
    expect(shown.stdout).toBe('type\tedits');
  });

  it('refuses an unknown template naming the known ones (exit 1), and changes nothing', async () => {
    const before = await revisionOf();
    const r = await sb.run(['content', 'template', 'sp-welcome', 'blog']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('id: unknown template "blog"; known templates: getting-started, api-reference');
    const logo = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo', 'nope']);
    expect(logo.exitCode).toBe(1);
    expect(logo.stderr).toContain('params.contentRefs.logo: no file nope in this space');
    expect(await revisionOf()).toBe(before);
  });

  it('shows the revision summary as key/value lines', async () => {
    await sb.run(['content', 'template', 'sp-welcome', 'getting-started']);
    const r = await sb.run(['content', 'show', 'sp-welcome']);
    const lines = Object.fromEntries(r.stdout.split('\n').map((l) => l.split('\t')));
    expect(lines).toMatchObject({ message: 'Apply template getting-started', pages: '4', files: '0', variables: 'product=Your product' });
    expect(lines.id).toBe(await revisionOf());
  });
});

describe('templates: references to files of other spaces, and change requests', () => {
  async function brandSpace(as = 'admin') {
    const brand = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Brand' }, as)).body.id as string;
    const imported = await sb.run(['content', 'import', brand, `${siteUrl}/`], { as });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const [logo] = await sb.json(['content', 'files', brand]);
    return { brand, logo };
  }

  it('takes the logo from the space --logo-space names: the file is read there and copied into the content', async () => {
    const { brand, logo } = await brandSpace();
    const here = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo', logo.id]);
    expect(here.exitCode).toBe(1);
    expect(here.stderr).toContain(`params.contentRefs.logo: no file ${logo.id} in this space`);

    const r = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo', logo.id, '--logo-space', brand]);
    expect(r.exitCode, r.stderr).toBe(0);
    const files = await sb.json(['content', 'files', 'sp-welcome']);
    expect(files).toEqual([expect.objectContaining({ id: logo.id, name: 'logo.png', contentType: 'image/png', size: PNG.length })]);
    expect(files[0].downloadURL).toBe(logo.downloadURL);
    expect((await sb.run(['content', 'page', 'sp-welcome', 'getting-started', '--markdown'])).stdout).toMatch(
      new RegExp(`^!\\[Logo\\]\\(file:${logo.id}\\)\\n\\n# Getting started`),
    );
    const links = await sb.run(['content', 'links', 'sp-welcome']);
    expect(links.stderr).toMatch(/^\d+ links, 0 broken$/);
    const back = await sb.run(['content', 'backlinks', 'sp-welcome', '--file', logo.id]);
    expect(back.stdout.split('\t')[0]).toBe('/getting-started');
    // The brand space keeps its file.
    expect((await sb.json(['content', 'files', brand])).map((f: { id: string }) => f.id)).toEqual([logo.id]);

    // Through the API: a missing space or file is a 400 on the reference; a reference of another kind too.
    const template = (logoRef: unknown) =>
      sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'getting-started', params: { contentRefs: { logo: logoRef } } });
    expect((await template({ kind: 'file', file: logo.id, space: 'nope' })).body.error.message).toBe('params.contentRefs.logo.space: no space nope');
    expect((await template({ kind: 'file', file: 'nope', space: brand })).body.error.message).toBe(`params.contentRefs.logo: no file nope in space ${brand}`);
    const page = await template({ kind: 'page', page: 'p1' });
    expect(page).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'params.contentRefs.logo: must be a file reference ({kind: "file", file, space?}), not kind page' } },
    });
    const usage = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo-space', brand]);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('--logo-space needs --logo');
  });

  it('checks the caller’s access to the logo’s space: 403 without the read role on it, 400 when they cannot see it', async () => {
    const { brand, logo } = await brandSpace();
    // A guest reads no space, whatever its default level (compatibility.md, Default levels): refused before the logo is read.
    expect((await sb.request('PATCH', '/v1/spaces/sp-welcome', { defaultLevel: 'edit' })).status).toBe(200);
    const before = await revisionOf();
    const guest = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo', logo.id, '--logo-space', brand], { as: 'guest' });
    expect(guest.exitCode).toBe(5);
    expect(guest.stderr).toContain('viewing space sp-welcome needs the read role or above on it');
    expect(await revisionOf()).toBe(before);

    // A space of an organization the caller is not in: as if it did not exist.
    const globex = (await sb.request('POST', '/v1/orgs/org-globex/spaces', { title: 'Globex' }, 'outsider')).body.id;
    const edit = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--logo', logo.id, '--logo-space', globex], { as: 'edit' });
    expect(edit.exitCode).toBe(1);
    expect(edit.stderr).toContain(`params.contentRefs.logo.space: no space ${globex}`);
  });

  it('applies a template to a change request with --cr: its content changes, the space’s does not', async () => {
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Templates'], { as: 'edit' });
    const before = await revisionOf();
    const r = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--cr', '#1'], { as: 'edit' });
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: 'applied template getting-started to change request 1 of space sp-welcome' });
    expect(await revisionOf()).toBe(before);
    expect(await sb.json(['content', 'pages', 'sp-welcome'])).toEqual([]);
    const crPages = (await sb.json(['cr', 'pages', 'sp-welcome', '1'])).map((p: { path: string }) => p.path);
    expect(crPages).toEqual(['getting-started', 'getting-started/installation', 'getting-started/quickstart', 'faq']);
    const after = await sb.json(['cr', 'get', 'sp-welcome', '1']);
    expect(after.revision).not.toBe(cr.revision);
    expect((await sb.json(['cr', 'content', 'sp-welcome', '1'])).git.message).toBe('Apply template getting-started');

    // The document's body: `changeRequestId`, the id (or number) of the change request.
    const api = await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'api-reference', changeRequestId: cr.id });
    expect(api).toEqual({ status: 204, body: undefined });
    expect((await sb.json(['cr', 'pages', 'sp-welcome', '1'])).map((p: { path: string }) => p.path)).toContain('api-reference/endpoints');
    expect(await revisionOf()).toBe(before);

    const reader = await sb.run(['content', 'template', 'sp-welcome', 'faq', '--cr', '1'], { as: 'read' });
    expect(reader.exitCode).toBe(5);
    expect(reader.stderr).toContain('applying a template to a change request needs the edit role or above on space sp-welcome');
    const missing = await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'faq', changeRequestId: '9' });
    expect(missing).toEqual({ status: 404, body: { error: { code: 404, message: 'no change request 9 in space sp-welcome' } } });
    expect((await sb.run(['cr', 'merge', 'sp-welcome', '1', '--yes'])).exitCode).toBe(0);
    const merged = await sb.run(['content', 'template', 'sp-welcome', 'getting-started', '--cr', '1']);
    expect(merged.exitCode).toBe(1);
    expect(merged.stderr).toContain('change request 1 of space sp-welcome is merged: applying a template to a change request is no longer possible');
  });
});

describe('issue 15: content', () => {
  it('content import names what it could not import, with the pages that link to it', async () => {
    const { result, stderr } = await importSite();
    expect(result).toEqual({ revision: expect.any(String), importedResources: 5, totalResources: 6 });
    expect(stderr.split('\n')).toEqual([
      `imported 5 of 6 resources found into space sp-welcome (revision ${result.revision})`,
      '1 not imported (failed, or past the import’s bounds); the imported pages now link to them with broken links:',
      `  ${siteUrl}/guide/missing  (linked from /guide)`,
    ]);
    // A broken link that was there before the import is not blamed on it.
    const again = await sb.run(['content', 'import', 'sp-welcome', `${siteUrl}/guide/`]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain('1 not imported');
    expect(again.stderr).toContain(`${siteUrl}/guide/missing`);
  });

  it('content links and spaces links --fail-on-broken: the list, then exit 1 when a link is broken (for CI)', async () => {
    const clean = await sb.run(['content', 'links', 'sp-welcome', '--fail-on-broken']);
    expect(clean.exitCode).toBe(0);
    await importSite();
    const r = await sb.run(['content', 'links', 'sp-welcome', '--fail-on-broken']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n')).toHaveLength(7);
    expect(r.stdout).toContain('broken\t/guide/missing\t/guide');
    expect(r.stderr).toContain('error: 1 broken link in space sp-welcome');
    const json = await sb.run(['spaces', 'links', 'sp-welcome', '--fail-on-broken', '--json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toHaveLength(7);
    const jq = await sb.run(['spaces', 'links', 'sp-welcome', '--fail-on-broken', '--jq', '.[] | select(.status == "broken") | .status']);
    expect(jq).toMatchObject({ exitCode: 1, stdout: 'broken' });
    // even when the list shown leaves it out
    const ok = await sb.run(['spaces', 'links', 'sp-welcome', '--status', 'ok', '--fail-on-broken']);
    expect(ok.exitCode).toBe(1);
    expect(ok.stderr).toContain('see them with --broken');
    // a page without broken links passes
    const page = await sb.run(['content', 'links', 'sp-welcome', '--page-id', 'guide/install', '--fail-on-broken']);
    expect(page.exitCode).toBe(0);
    const old = await sb.run(['content', 'links', 'sp-welcome', '--page', 'guide', '--fail-on-broken']);
    expect(old.exitCode).toBe(1);
    expect(old.stderr).toContain('warning: --page is deprecated here, use --page-id');
    // --broken with another --status is a usage error in every link list, spaces links included
    for (const command of [
      ['content', 'links'],
      ['spaces', 'links'],
    ]) {
      const both = await sb.run([...command, 'sp-welcome', '--broken', '--status', 'ok']);
      expect(both.exitCode, command.join(' ')).toBe(2);
      expect(both.stderr).toContain('--broken and --status cannot be used together');
    }
  });
});
