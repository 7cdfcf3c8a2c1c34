import { describe, expect, it } from 'vitest';
import { applyImport, applyTemplate, blobOf, emptyContent, linksOf, newPage, walkPages } from '../../src/server/content/index.js';
import type { HttpError } from '../../src/server/errors.js';
import type { ImportResult } from '../../src/server/lib/html-import.js';
import { Store } from '../../src/server/store.js';

const SITE = 'http://127.0.0.1:5000';

function result(): ImportResult {
  const page = (urlPath: string, title: string, markdown: string) => ({ sourceUrl: `${SITE}/${urlPath}`, urlPath, title, markdown });
  return {
    pages: [
      page('', 'Acme Docs', `Start with the [guide](/guide) or [install](/guide/install#steps).\n\n![Logo](file:fabc)\n`),
      page('guide', 'Guide', `[Missing](${SITE}/guide/missing.html) and [external](https://example.com/).\n`),
      page('guide/install', 'Install', 'Back [home](/).\n'),
      page('api/v1/users', 'Users', 'Deep page.\n'),
    ],
    files: [
      {
        key: 'fabc',
        sourceUrl: `${SITE}/logo.png`,
        name: 'logo.png',
        contentType: 'image/png',
        size: 3,
        data: Buffer.from('png'),
        dimensions: { width: 3, height: 2 },
      },
    ],
    importedResources: 5,
    totalResources: 7,
  };
}

describe('applyImport', () => {
  it('nests pages by URL path, creating empty pages for missing levels, after the existing pages', () => {
    const store = new Store();
    const existing = emptyContent();
    existing.pages.push(newPage(store, { title: 'Guide (old)', slug: 'guide' }));
    const next = applyImport(store, existing, result());
    expect([...walkPages(next.pages)].map((e) => [e.path, e.page.title])).toEqual([
      ['guide', 'Guide (old)'],
      ['acme-docs', 'Acme Docs'],
      ['guide-2', 'Guide'],
      ['guide-2/install', 'Install'],
      ['api', 'Api'],
      ['api/v1', 'V1'],
      ['api/v1/users', 'Users'],
    ]);
    expect(existing.pages).toHaveLength(1);
  });

  it('stores files and rewrites links to where pages and files landed', () => {
    const store = new Store();
    const next = applyImport(store, emptyContent(), result());
    const [file] = next.files;
    expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: 3, dimensions: { width: 3, height: 2 } });
    expect(Buffer.from(blobOf(store, file.blob), 'base64').toString()).toBe('png');
    const byPath = new Map([...walkPages(next.pages)].map((e) => [e.path, e.page]));
    expect(byPath.get('acme-docs')!.markdown).toBe(`Start with the [guide](/guide) or [install](/guide/install#steps).\n\n![Logo](file:${file.id})\n`);
    expect(byPath.get('guide/install')!.markdown).toBe('Back [home](/acme-docs).\n');
    // A page of the site that was not imported becomes an internal link that is reported broken.
    expect(byPath.get('guide')!.markdown).toBe('[Missing](/guide/missing) and [external](https://example.com/).\n');
    const broken = linksOf(next, 'http://sandbox')
      .filter((l) => l.status === 'broken')
      .map((l) => l.href);
    expect(broken).toEqual(['/guide/missing']);
  });
});

describe('applyTemplate', () => {
  it('appends the template pages with working links, twice without clashes', () => {
    const store = new Store();
    const once = applyTemplate(store, 's1', emptyContent(), 'getting-started');
    const twice = applyTemplate(store, 's1', once, 'getting-started');
    const paths = [...walkPages(twice.pages)].map((e) => e.path);
    expect(paths).toEqual([
      'getting-started',
      'getting-started/installation',
      'getting-started/quickstart',
      'faq',
      'getting-started-2',
      'getting-started-2/installation',
      'getting-started-2/quickstart',
      'faq-2',
    ]);
    const links = linksOf(twice, 'http://sandbox');
    expect(links.length).toBeGreaterThan(4);
    expect(links.filter((l) => l.status !== 'ok')).toEqual([]);
    const second = twice.pages[2];
    expect(second.markdown).toContain('(/getting-started-2/installation)');
    expect(twice.variables).toEqual({ product: 'Your product' });
  });

  it('refuses an unknown template naming the known ones, and a logo that is not a file of the space', () => {
    const store = new Store();
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as HttpError;
      }
      throw new Error('no error');
    };
    const unknown = err(() => applyTemplate(store, 's1', emptyContent(), 'blog'));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toBe('id: unknown template "blog"; known templates: getting-started, api-reference');
    const logo = err(() => applyTemplate(store, 's1', emptyContent(), 'api-reference', { contentRefs: { logo: { kind: 'file', file: 'nope' } } }));
    expect(logo.message).toBe('params.contentRefs.logo: no file nope in this space');
  });
});
