import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/server/lib/fetch.js';
import { importWebsite, type ImportResult } from '../../src/server/lib/html-import.js';

/** A PNG signature and IHDR chunk for a 3x2 image: enough for the dimensions parser. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]),
]);
/** SOI, an APP0 segment, then a SOF0 segment for a 5x4 image. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x04, 0x00, 0x05, 0x03]);
const PDF = Buffer.from('%PDF-1.4\n% manual\n');

const PAGES: Record<string, string> = {
  '/': `<!DOCTYPE html>
<html>
<head>
  <title> Acme Docs </title>
  <meta name="description" content="Docs for  Acme">
  <style>body { color: red }</style>
  <script>window.tracking = '<a href="/from-script">x</a>';</script>
</head>
<body>
  <header><h1>Acme site</h1></header>
  <nav><a href="/guide/">Guide</a> <a href="/extra">Extra</a></nav>
  <main>
    <h1>Welcome</h1>
    <p>Read the <a href="/guide/">guide</a>, the <a href="guide/install.html#step-2">install step</a>,
       <a href="/missing">a broken link</a> and <a href="https://example.com/x?y=1">an external site</a>.</p>
    <p><img src="/img/logo.png" alt="Logo"> <a href="/files/manual.pdf">Manual (PDF)</a></p>
    <pre><code class="language-sh">npm i acme &amp;&amp; acme --help
</code></pre>
    <ul>
      <li>One
        <ul><li>Nested</li></ul>
      </li>
      <li><strong>Two</strong> and <em>three</em> and <code>four</code></li>
    </ul>
  </main>
  <footer>© Acme <a href="/legal">Legal</a></footer>
  <script>console.log(1)</script>
</body>
</html>`,
  '/guide/': `<html><head><title>Guide</title></head><body>
  <h2 id="top">Guide</h2>
  <p>Start with <a href="install.html">installing</a> (also <a href="/old-install">here</a>).<br>Then <a href="#top">go up</a>.</p>
  <h3>Tips</h3>
  <p>1. Not a list, *not* emphasis.</p>
</body></html>`,
  '/guide/install.html': `<html><body>
  <h1>Install</h1>
  <blockquote><p>Requires Node 20.</p></blockquote>
  <ol start="3"><li>Download</li><li>Run <kbd>acme</kbd></li></ol>
  <table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose | loud</td></tr></table>
  <p><img src="../img/photo.jpg" alt="Photo"> <img src="https://cdn.example.com/pic.png" alt="CDN"></p>
  <p><a href="./">Back to the guide</a> or <a href="../index.html">home</a></p>
</body></html>`,
  '/extra': `<html><body><p>Extra page, <a href="/?ref=extra">home</a>.</p></body></html>`,
  '/legal': `<html><body><p>Legal.</p></body></html>`,
  // Not linked from the site above: start pages of their own.
  '/deep-divs': `<html><body>${'<div>'.repeat(5000)}deep</body></html>`,
  '/deep-quotes': `<html><body>${'<blockquote>'.repeat(300)}deep</body></html>`,
  '/links-to-deep': `<html><body><p><a href="/deep-divs">divs</a> <a href="/deep-quotes">quotes</a> <a href="/legal">legal</a></p></body></html>`,
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = PAGES[path];
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    } else if (path === '/guide') {
      res.writeHead(301, { location: '/guide/' });
      res.end();
    } else if (path === '/old-install') {
      res.writeHead(301, { location: '/guide/install.html' });
      res.end();
    } else if (path === '/img/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (path === '/img/photo.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(JPEG);
    } else if (path === '/files/manual.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(PDF);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function page(result: ImportResult, urlPath: string) {
  const found = result.pages.find((p) => p.urlPath === urlPath);
  expect(found, `page '${urlPath}'`).toBeDefined();
  return found!;
}

function file(result: ImportResult, name: string) {
  const found = result.files.find((f) => f.name === name);
  expect(found, `file '${name}'`).toBeDefined();
  return found!;
}

describe('importWebsite', () => {
  it('imports the pages and files of a small site', async () => {
    const result = await importWebsite(`${base}/`);

    // Breadth-first, document order; the nav and footer links are followed too.
    expect(result.pages.map((p) => p.urlPath)).toEqual(['', 'guide', 'extra', 'guide/install', 'legal']);
    expect(result.files.map((f) => f.name)).toEqual(['logo.png', 'manual.pdf', 'photo.jpg']);
    expect(result.importedResources).toBe(8);
    // + /missing (404); /old-install redirects to an imported page and is not a resource of its own.
    expect(result.totalResources).toBe(9);

    const logo = file(result, 'logo.png');
    const pdf = file(result, 'manual.pdf');
    const photo = file(result, 'photo.jpg');
    expect(logo).toMatchObject({
      sourceUrl: `${base}/img/logo.png`,
      contentType: 'image/png',
      size: PNG.length,
      dimensions: { width: 3, height: 2 },
    });
    expect(logo.key).toMatch(/^f[0-9a-f]{12}$/);
    expect(logo.data.equals(PNG)).toBe(true);
    expect(photo.dimensions).toEqual({ width: 5, height: 4 });
    expect(pdf).toMatchObject({ contentType: 'application/pdf', size: PDF.length });
    expect(pdf.dimensions).toBeUndefined();
    expect(new Set(result.files.map((f) => f.key)).size).toBe(3);

    const home = page(result, '');
    expect(home).toMatchObject({ sourceUrl: `${base}/`, title: 'Acme Docs', description: 'Docs for Acme' });
    expect(home.markdown).toBe(
      [
        '# Welcome',
        '',
        `Read the [guide](/guide), the [install step](/guide/install#step-2), [a broken link](${base}/missing) and [an external site](https://example.com/x?y=1).`,
        '',
        `![Logo](file:${logo.key}) [Manual (PDF)](file:${pdf.key})`,
        '',
        '```sh',
        'npm i acme && acme --help',
        '```',
        '',
        '- One',
        '  - Nested',
        '- **Two** and _three_ and `four`',
        '',
      ].join('\n'),
    );
    expect(home.markdown).not.toMatch(/Acme site|tracking|color|Legal|©/);

    const guide = page(result, 'guide');
    expect(guide).toMatchObject({ sourceUrl: `${base}/guide/`, title: 'Guide' });
    expect(guide.description).toBeUndefined();
    expect(guide.markdown).toBe(
      [
        '## Guide',
        '',
        'Start with [installing](/guide/install) (also [here](/guide/install)).\\',
        'Then [go up](#top).',
        '',
        '### Tips',
        '',
        '1\\. Not a list, \\*not\\* emphasis.',
        '',
      ].join('\n'),
    );

    const install = page(result, 'guide/install');
    expect(install).toMatchObject({ sourceUrl: `${base}/guide/install.html`, title: 'Install' });
    expect(install.markdown).toBe(
      [
        '# Install',
        '',
        '> Requires Node 20.',
        '',
        '3. Download',
        '4. Run `acme`',
        '',
        '| Flag | Meaning |',
        '| - | - |',
        '| -v | verbose \\| loud |',
        '',
        `![Photo](file:${photo.key}) ![CDN](https://cdn.example.com/pic.png)`,
        '',
        '[Back to the guide](/guide) or [home](/)',
        '',
      ].join('\n'),
    );

    // No <title> nor <h1>: the last path segment.
    expect(page(result, 'extra')).toMatchObject({ title: 'extra', markdown: 'Extra page, [home](/).\n' });
  });

  it('bounds the number of pages and counts what it skipped', async () => {
    const result = await importWebsite(`${base}/`, { maxPages: 2 });
    expect(result.pages.map((p) => p.urlPath)).toEqual(['', 'guide']);
    expect(result.files.map((f) => f.name)).toEqual(['logo.png', 'manual.pdf']);
    expect(result.importedResources).toBe(4);
    // Skipped by the bound: /extra, /guide/install.html, /missing, /legal, /old-install.
    expect(result.totalResources).toBe(9);
    // Links to pages that were not imported stay absolute.
    expect(page(result, '').markdown).toContain(`[install step](${base}/guide/install.html#step-2)`);
    expect(page(result, 'guide').markdown).toContain(`[installing](${base}/guide/install.html)`);
  });

  it('bounds the number of files', async () => {
    const result = await importWebsite(`${base}/`, { maxFiles: 1 });
    expect(result.files.map((f) => f.name)).toEqual(['logo.png']);
    expect(result.pages).toHaveLength(5);
    expect(page(result, '').markdown).toContain(`[Manual (PDF)](${base}/files/manual.pdf)`);
    expect(result.totalResources).toBe(9);
  });

  it('follows a redirected start URL and fails on a start URL that cannot be imported', async () => {
    const redirected = await importWebsite(`${base}/guide`, { maxPages: 1 });
    expect(redirected.pages.map((p) => p.urlPath)).toEqual(['guide']);

    await expect(importWebsite(`${base}/nowhere`)).rejects.toThrow(FetchError);
    await expect(importWebsite(`${base}/nowhere`)).rejects.toThrow(`fetching ${base}/nowhere: answered 404`);
    await expect(importWebsite(`${base}/files/manual.pdf`)).rejects.toThrow(
      `fetching ${base}/files/manual.pdf: not an HTML page (content type application/pdf)`,
    );
  });

  it('refuses a start page nested too deeply, and leaves out other such pages', async () => {
    await expect(importWebsite(`${base}/deep-divs`)).rejects.toThrow(FetchError);
    await expect(importWebsite(`${base}/deep-quotes`)).rejects.toThrow(/deep-quotes: the page nests .* deeper than 100 levels/);
    const result = await importWebsite(`${base}/links-to-deep`);
    expect(result.pages.map((p) => p.urlPath)).toEqual(['links-to-deep', 'legal']);
    expect(result.totalResources).toBe(4);
    // The pages that failed keep their (absolute) links, which the space's links report as broken.
    expect(page(result, 'links-to-deep').markdown).toBe(`[divs](${base}/deep-divs) [quotes](${base}/deep-quotes) [legal](/legal)\n`);
  });
});
