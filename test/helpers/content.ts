/**
 * Content put into a sandbox space for a test: pages (Markdown, as the sandbox keeps them) and files
 * (their bytes), committed as a new revision through the content model, as a merge or an import would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { commitToSpace, contentOf, edit, newPage, putBlob, revisionOf, type FileRec, type PageRec } from '../../src/server/content/index.js';
import type { Store } from '../../src/server/store.js';

export interface PageInit {
  title: string;
  slug: string;
  markdown?: string;
  description?: string;
  emoji?: string;
  hidden?: boolean;
  pages?: PageInit[];
}

export interface FileInit {
  id: string;
  name: string;
  contentType: string;
  data: Buffer;
}

/** Replace a space's content with `pages` and `files`; returns the pages' ids by path. */
export function putContent(store: Store, spaceId: string, pages: PageInit[], files: FileInit[] = []): Map<string, string> {
  const space = store.data.spaces.get(spaceId);
  if (!space) throw new Error(`no space ${spaceId}`);
  const ids = new Map<string, string>();
  const make = (init: PageInit, parent: string): PageRec => {
    const path = parent ? `${parent}/${init.slug}` : init.slug;
    const { pages: children, ...rest } = init;
    const page = newPage(store, { ...rest, markdown: init.markdown ?? `# ${init.title}\n` });
    page.pages = (children ?? []).map((c) => make(c, path));
    ids.set(path, page.id);
    return page;
  };
  const next = edit(contentOf(revisionOf(store, space.revision)));
  next.pages = pages.map((p) => make(p, ''));
  next.files = files.map((f): FileRec => ({ id: f.id, name: f.name, contentType: f.contentType, size: f.data.length, blob: putBlob(store, f.data) }));
  commitToSpace(store, space, next, 'Test content');
  store.changed();
  return ids;
}

/** Temporary folders for a test file, removed after each test: `tempDir()` makes one. */
export function useTempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), `docsctl-${prefix}-`));
    dirs.push(d);
    return d;
  };
}
