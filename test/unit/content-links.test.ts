import { describe, expect, it } from 'vitest';
import {
  backlinks,
  classify,
  linkItems,
  linkList,
  linksOf,
  newPage,
  rewriteLinks,
  spaceScope,
  commitToSpace,
  type RevisionContent,
} from '../../src/server/content/index.js';
import { createSpaceRec } from '../../src/server/spaces/model.js';
import { Store } from '../../src/server/store.js';

const BASE = 'http://127.0.0.1:4000';

function setup() {
  const store = new Store();
  const space = createSpaceRec(store, { org: 'o1' });
  const install = newPage(store, { title: 'Install', slug: 'install', markdown: 'Back to the [guide](./), [next](quickstart.md) or [faq](/faq#top).\n' });
  const guide = newPage(store, {
    title: 'Guide',
    slug: 'guide',
    pages: [install],
    markdown: [
      'See [install](install), [install again](/guide/install), [a section](#usage),',
      '[gone](/guide/gone), ![logo](file:f-logo), [no file](file:f-none),',
      `[app](${BASE}/app/s/other), [web](https://example.com/x) and <mailto:a@b.c>.`,
      '',
      '```',
      '[not a link](/nowhere)',
      '```',
      '',
    ].join('\n'),
  });
  const faq = newPage(store, { title: 'FAQ', slug: 'faq', markdown: '[Guide](guide) and ![logo](file:f-logo)\n' });
  const content: RevisionContent = {
    pages: [guide, faq],
    files: [{ id: 'f-logo', name: 'logo.png', contentType: 'image/png', size: 3, blob: 'x' }],
    variables: {},
  };
  commitToSpace(store, space, content, 'links');
  return { store, space, content, guide, install, faq, scope: spaceScope(store, BASE, space) };
}

describe('link classification', () => {
  it('resolves relative and absolute page paths, anchors, files and URLs', () => {
    const { content, guide, install, faq } = setup();
    const c = (href: string, from = guide, path = 'guide') => classify(content, from, path, href, BASE);
    // From guide/README.md (guide has subpages), from guide/install.md, from faq.md:
    expect(c('install')).toEqual({ status: 'ok', target: { kind: 'page', page: install.id } });
    expect(c('install.md')).toEqual({ status: 'ok', target: { kind: 'page', page: install.id } });
    expect(c('./', install, 'guide/install')).toEqual({ status: 'ok', target: { kind: 'page', page: guide.id } });
    expect(c('README.md', install, 'guide/install')).toEqual({ status: 'ok', target: { kind: 'page', page: guide.id } });
    expect(c('quickstart', install, 'guide/install')).toEqual({ status: 'broken', target: { kind: 'url', url: 'quickstart' } });
    expect(c('guide/install', faq, 'faq')).toEqual({ status: 'ok', target: { kind: 'page', page: install.id } });
    expect(c('guide/install')).toEqual({ status: 'broken', target: { kind: 'url', url: 'guide/install' } });
    expect(c('/faq#top')).toEqual({ status: 'ok', target: { kind: 'anchor', page: faq.id, anchor: 'top' } });
    expect(c('#usage')).toEqual({ status: 'ok', target: { kind: 'anchor', page: guide.id, anchor: 'usage' } });
    expect(c('file:f-logo')).toEqual({ status: 'ok', target: { kind: 'file', file: 'f-logo' } });
    expect(c('file:f-none').status).toBe('broken');
    expect(c(`${BASE}/app/s/x`).status).toBe('in-app');
    expect(c('http://elsewhere.test/app/s/x').status).toBe('ok');
    expect(c('mailto:a@b.c')).toEqual({ status: 'ok', target: { kind: 'url', url: 'mailto:a@b.c' } });
  });

  it('gathers one item per target with every page linking to it, and counts stats over all items', () => {
    const { content, scope, guide, faq } = setup();
    const items = linkItems(scope, linksOf(content, BASE));
    const logo = items.find((i) => i.targetReference.file === 'f-logo')!;
    expect(logo.locationReferences.map((r) => r.page)).toEqual([guide.id, faq.id]);
    const list = linkList(items, { status: 'broken' }, 'k');
    expect(list.items.map((i) => i.targetReference.url ?? i.targetReference.file)).toEqual(['/guide/gone', 'f-none', 'quickstart.md']);
    expect(list.stats).toEqual({ total: items.length, broken: { total: 3, changeRequest: 0 } });
    expect(list.count).toBe(3);
    // Links inside fenced code are not links.
    expect(items.some((i) => i.targetReference.url === '/nowhere')).toBe(false);
  });

  it('finds backlinks of a page (not its own anchors) and of a file', () => {
    const { content, scope, guide, install, faq } = setup();
    const links = linksOf(content, BASE);
    expect(backlinks(scope, links, { page: guide.id }).map((b) => b.page)).toEqual([install.id, faq.id]);
    expect(backlinks(scope, links, { page: install.id }).map((b) => b.page)).toEqual([guide.id]);
    expect(backlinks(scope, links, { file: 'f-logo' })).toEqual([
      { kind: 'page', organization: 'o1', space: scope.space, versionContext: { type: 'revision', revision: scope.rev.id }, page: guide.id },
      { kind: 'page', organization: 'o1', space: scope.space, versionContext: { type: 'revision', revision: scope.rev.id }, page: faq.id },
    ]);
  });
});

describe('rewriteLinks', () => {
  it('replaces destinations, escaped ones included, and leaves link text and code alone', () => {
    const md = '[/a](/a) ![i](/a) [p](/x\\(1\\)) <http://h/a> `[c](/a)`\n';
    const out = rewriteLinks(md, (href) => ({ '/a': '/b', '/x(1)': '/y', 'http://h/a': 'http://h/b' })[href]);
    expect(out).toBe('[/a](/b) ![i](/b) [p](/y) <http://h/b> `[c](/a)`\n');
  });

  it('handles an image inside a link with the same destination', () => {
    expect(rewriteLinks('[![x](/a)](/a)', (h) => (h === '/a' ? '/z' : undefined))).toBe('[![x](/z)](/z)');
  });
});
