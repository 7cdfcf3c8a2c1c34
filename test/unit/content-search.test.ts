import { describe, expect, it } from 'vitest';
import { commitToSpace, contentOf, edit, editPage, newPage, revisionOf, searchHits, searchIndexFor, spaceScope } from '../../src/server/content/index.js';
import { createSpaceRec } from '../../src/server/handlers/spaces.js';
import { Store } from '../../src/server/store.js';

const BASE = 'http://127.0.0.1:4000';

/** Every page matching `query`, best first, as the search endpoint renders them. */
function searchContent(scope: ReturnType<typeof spaceScope>, key: string, query: string) {
  return searchHits(scope, key, query, (hits, view) => hits.map(view));
}

function setup() {
  const store = new Store();
  const space = createSpaceRec(store, { org: 'o1' });
  const content = contentOf(revisionOf(store, space.revision));
  const next = edit(content);
  next.pages.push(
    newPage(store, { title: 'Overview', slug: 'overview', markdown: 'Intro text.\n\n## Deploying\n\nYou can deploy with one command.\n' }),
    newPage(store, { title: 'Deploy', slug: 'deploy', markdown: '# Steps\n\nRun it.\n' }),
    newPage(store, { title: 'Unrelated', slug: 'unrelated', markdown: 'Nothing here.\n' }),
  );
  commitToSpace(store, space, next, 'pages');
  return { store, space };
}

describe('space search', () => {
  it('ranks a title match above a body match, with the matching sections and app URLs', async () => {
    const { store, space } = setup();
    const scope = spaceScope(store, BASE, space);
    const hits = await searchContent(scope, space.id, 'DEPLOY');
    expect(hits.map((h) => h.path)).toEqual(['deploy', 'overview']);
    expect(hits[1].sections).toEqual([
      {
        id: 'deploying',
        title: 'Deploying',
        path: 'overview#deploying',
        score: expect.any(Number),
        body: 'You can deploy with one command.',
        urls: { app: `${BASE}/app/s/${space.id}/overview#deploying` },
      },
    ]);
    expect(hits[0].urls.app).toBe(`${BASE}/app/s/${space.id}/deploy`);
    // Best first: ranks 1, 2; scores that decrease; no description, no ancestors at the top level.
    expect(hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
    expect(hits[1].score).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ description: '', ancestors: [] });
  });

  it('gives each result its page’s description and ancestors, and a rank that pages of the list keep', async () => {
    const { store, space } = setup();
    const next = edit(spaceScope(store, BASE, space).content);
    const guide = newPage(store, { title: 'Guide', slug: 'guide', markdown: 'All about it.\n' });
    const install = newPage(store, { title: 'Install', slug: 'install', description: 'Set it up', markdown: 'Deploy after you install.\n' });
    guide.pages.push(install);
    install.pages.push(newPage(store, { title: 'Windows', slug: 'windows', markdown: 'Deploy on Windows.\n' }));
    next.pages.push(guide);
    commitToSpace(store, space, next, 'guide');
    const scope = spaceScope(store, BASE, space);
    const hits = await searchContent(scope, space.id, 'deploy');
    const byPath = Object.fromEntries(hits.map((h) => [h.path, h]));
    expect(byPath['guide/install']).toMatchObject({ description: 'Set it up', ancestors: [{ title: 'Guide' }] });
    expect(byPath['guide/install/windows']).toMatchObject({ description: '', ancestors: [{ title: 'Guide' }, { title: 'Install' }] });
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1));
    for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    // Rendered one page of the list at a time, each hit keeps its rank in the whole list.
    const ranked = await searchHits(scope, space.id, 'deploy', (all, view) => all.slice(2).map(view));
    expect(ranked.map((h) => [h.path, h.rank])).toEqual(hits.slice(2).map((h) => [h.path, h.rank]));
  });

  it('follows the active revision: changed, added and removed pages', async () => {
    const { store, space } = setup();
    const before = await searchIndexFor(store, space.id, spaceScope(store, BASE, space).content);
    const next = edit(spaceScope(store, BASE, space).content);
    editPage(next, next.pages[2].id)!.page.markdown = 'Now about deploy too.\n';
    next.pages.splice(1, 1);
    commitToSpace(store, space, next, 'edit');
    const scope = spaceScope(store, BASE, space);
    expect(await searchIndexFor(store, space.id, scope.content)).toBe(before); // updated in place
    expect((await searchContent(scope, space.id, 'deploy')).map((h) => h.path)).toEqual(['overview', 'unrelated']);
    expect(await searchContent(scope, space.id, 'steps')).toEqual([]);
  });
});
