/**
 * Full-text search over the pages of a revision. One index is kept per searched line of content
 * (a space, or a change request), outside the exported state; when the revision it reflects
 * changes, only the pages whose title, path or body changed are re-indexed.
 *
 * Indexing runs in slices (slices.ts), so that the first search of a large space does not hold up
 * other requests (a page whose Markdown is costly to read is read in the worker thread:
 * markdown-reads.ts); one update of a line's index at a time, and each search reads its index while no
 * update runs (`withIndex`).
 */
import type { SearchResult } from '../../contract/content.js';
import { SearchIndex, type SearchHit } from '../lib/search-index.js';
import { derivedKey } from '../derived.js';
import { readMarkdown } from '../markdown-reads.js';
import { slicer } from '../slices.js';
import type { Store } from '../store.js';
import { walkPages, type PageRec, type RevisionContent } from './model.js';
import { pageMarkdown, type ContentScope } from './views.js';

interface Indexed {
  content: RevisionContent;
  index: SearchIndex;
  /** page id → what was indexed for it (title, path, body). */
  indexed: Map<string, string>;
  /** The update under way (one at a time). */
  updating?: Promise<void>;
}

/** Per store (tests run several), per line of content (`key`). */
const indexes = new WeakMap<Store, Map<string, Indexed>>();

const NOTHING_YET: RevisionContent = { pages: [], files: [], variables: {} };

/** The index of `content`, brought up to date (for tests: `withIndex` reads it while it stands still). */
export function searchIndexFor(store: Store, key: string, content: RevisionContent): Promise<SearchIndex> {
  return withIndex(store, key, content, (index) => index);
}

/**
 * `use` run on the index of `content` (brought up to date from whatever this line indexed last), with
 * no update of that index under way until it returns.
 */
async function withIndex<T>(store: Store, key: string, content: RevisionContent, use: (index: SearchIndex) => T): Promise<T> {
  let perStore = indexes.get(store);
  if (!perStore) {
    perStore = new Map();
    indexes.set(store, perStore);
  }
  let entry = perStore.get(key);
  if (!entry) {
    entry = { content: NOTHING_YET, index: new SearchIndex(), indexed: new Map() };
    perStore.set(key, entry);
  }
  while (entry.updating) await entry.updating;
  if (entry.content !== content) {
    const updating = update(entry, content);
    entry.updating = updating;
    try {
      await updating;
    } finally {
      // Before those waiting resume: `use` runs on the index as this update left it.
      entry.updating = undefined;
    }
  }
  return use(entry.index);
}

/** Bring `entry` to `content`, in slices. */
async function update(entry: Indexed, content: RevisionContent): Promise<void> {
  const slice = slicer();
  const seen = new Set<string>();
  for (const { page, path } of walkPages(content.pages)) {
    if (slice.due()) await slice.pause();
    seen.add(page.id);
    const markdown = pageMarkdown(content, page) ?? '';
    const fingerprint = `${page.title}\u0000${path}\u0000${markdown}`;
    if (entry.indexed.get(page.id) === fingerprint) continue;
    // Read here, or in the worker thread when costly (markdown-reads.ts).
    entry.index.upsert({ id: page.id, title: page.title, path, sections: await readMarkdown(markdown, 'sections') });
    entry.indexed.set(page.id, fingerprint);
  }
  for (const id of [...entry.indexed.keys()]) {
    if (seen.has(id)) continue;
    if (slice.due()) await slice.pause();
    entry.index.remove(id);
    entry.indexed.delete(id);
  }
  entry.content = content;
}

/** Each content's pages by id, with their parent's id: made once per content while the state stands still. */
const PAGES_BY_ID = derivedKey<WeakMap<RevisionContent, Map<string, { page: PageRec; parent?: string }>>>('pages by id, per content');

function pagesById(store: Store, content: RevisionContent): Map<string, { page: PageRec; parent?: string }> {
  const perContent = store.derived.get(PAGES_BY_ID, () => new WeakMap());
  let pages = perContent.get(content);
  if (!pages) {
    pages = new Map();
    for (const { page, parent } of walkPages(content.pages)) pages.set(page.id, parent ? { page, parent: parent.id } : { page });
    perContent.set(content, pages);
  }
  return pages;
}

/** A space purged: its indexes go (a space's key is its id; the lines of content inside it, change requests, use `<space id>/...`). */
export function dropSearchIndexes(store: Store, spaceId: string): void {
  const perStore = indexes.get(store);
  for (const key of [...(perStore?.keys() ?? [])]) if (key === spaceId || key.startsWith(`${spaceId}/`)) perStore!.delete(key);
}

/**
 * `render` given the pages matching `query`, best first, ranked but not yet rendered, and how to
 * render one as a SearchResult (a handler pages through the hits and renders only the page it
 * answers), while the index stands still. A result's `score` is the index's (BM25 over the
 * sections, a title match above any body match), `rank` its 1-based position among all the hits,
 * `ancestors` the titles of the pages above it (top level first) and `description` the page's
 * (empty when it has none).
 */
export function searchHits<T>(scope: ContentScope, key: string, query: string, render: (hits: Hit[], view: (hit: Hit) => SearchResult) => T): Promise<T> {
  return withIndex(scope.store, key, scope.content, (index) => {
    const hits = index.search(query, { limit: index.size, sections: false }).map((hit, i) => ({ ...hit, rank: i + 1 }));
    const pages = pagesById(scope.store, scope.content);
    /** The titles of the pages above `id`, top level first. */
    const ancestorsOf = (id: string): { title: string }[] => {
      const chain: { title: string }[] = [];
      for (let up = pages.get(id)?.parent; up !== undefined; up = pages.get(up)?.parent) chain.unshift({ title: pages.get(up)!.page.title });
      return chain;
    };
    const view = (hit: Hit): SearchResult => {
      const pageUrl = `${scope.appUrl}/${hit.path}`;
      const found = pages.get(hit.id);
      return {
        id: hit.id,
        title: hit.title,
        description: found?.page.description ?? '',
        path: hit.path,
        score: hit.score,
        rank: hit.rank,
        sections: index.sectionsFor(hit.id, query).map((s) => ({
          id: s.id,
          title: s.title || hit.title,
          path: `${hit.path}#${s.id}`,
          score: s.score,
          body: s.body,
          urls: { app: `${pageUrl}#${s.id}` },
        })),
        ancestors: found ? ancestorsOf(hit.id) : [],
        urls: { app: pageUrl },
      };
    };
    return render(hits, view);
  });
}

/** A page found, ranked. */
export type Hit = SearchHit & { rank: number };
