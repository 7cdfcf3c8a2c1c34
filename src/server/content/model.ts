/**
 * The content of a revision: a tree of pages, files and variables, stored as plain records in
 * `RevisionRec.content`. A revision is immutable: a change builds new content (see `edit`) and
 * records it as a new revision whose parent is the previous one. Revisions share what a change did
 * not touch (copy on write: a change copies the pages it changes and those above them, never the
 * whole tree), so the content a revision records is frozen when it is recorded: nothing changes it in
 * place afterwards. File bytes live once in a content-addressed blob table, so revisions and
 * duplicated spaces share them.
 *
 * Used by the space content endpoints and, for a change request's own line of revisions, by the
 * change-requests family.
 */
import { createHash } from 'node:crypto';
import { newId } from '../ids.js';
import type { RevisionRec, SpaceRec, Store } from '../store.js';

/** A page's layout options: those set (the others take their defaults, see `DEFAULT_LAYOUT` in views.ts). */
export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full' | 'background';
  coverMask?: 'none' | 'radial';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
  tags?: boolean;
  actions?: boolean;
  anchors?: boolean;
}

/** Content computed when read (e.g. `builtin:openapi`), instead of stored as Markdown. */
interface ComputedSourceRec {
  type: string;
  dependencies?: Record<string, unknown>;
  props?: Record<string, unknown>;
}

export interface PageRec {
  id: string;
  title: string;
  /** Path segment; a page's path is its ancestors' slugs and its own, joined by `/`. */
  slug: string;
  markdown: string;
  emoji?: string;
  icon?: string;
  /** A group (pages under a heading) or a link page (to `target`); a page with a body when absent. Neither has a body. */
  type?: 'group' | 'link';
  target?: { kind: 'url'; url: string } | { kind: 'page'; page: string };
  description?: string;
  hidden?: boolean;
  layout?: PageLayout;
  variables?: Record<string, string>;
  computed?: ComputedSourceRec;
  createdAt: string;
  updatedAt: string;
  pages: PageRec[];
}

export interface FileRec {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
  /** Key of the bytes in the blob table (sha256, hex). */
  blob: string;
}

export interface RevisionContent {
  pages: PageRec[];
  files: FileRec[];
  variables: Record<string, string>;
}

/**
 * How a revision was made, beyond plain edits: `merge` (a change request merged into its space) or
 * `update` (a change request brought up to date with its space).
 */
export type RevisionKind = { type: 'edits' } | { type: 'merge'; mergedFrom: string } | { type: 'update' };

/** What `RevisionRec.content` holds. A revision made with a space holds `undefined`: empty content. */
interface StoredContent extends RevisionContent {
  message?: string;
  /**
   * How the revision was made, when not by edits (the store's own type), with the id of the revision
   * it was made for: content copied into another revision (a duplicated space) is that revision's edits.
   */
  madeAs?: { revision: string; type: 'merge'; mergedFrom: string } | { revision: string; type: 'update' };
}

const EMPTY: RevisionContent = Object.freeze({ pages: [], files: [], variables: {} }) as RevisionContent;

export function emptyContent(): RevisionContent {
  return { pages: [], files: [], variables: {} };
}

export function revisionOf(store: Store, revisionId: string): RevisionRec {
  const rev = store.data.revisions.get(revisionId);
  if (!rev) throw new Error(`revision ${revisionId} is missing from the store`);
  return rev;
}

/** The content of a revision (never to be mutated: build new content with `edit`). */
export function contentOf(rev: RevisionRec): RevisionContent {
  return (rev.content as StoredContent | undefined) ?? EMPTY;
}

export function messageOf(rev: RevisionRec): string {
  return (rev.content as StoredContent | undefined)?.message ?? (rev.parents.length === 0 ? 'Initial revision' : 'Edits');
}

/** How `rev` was made. */
export function kindOf(rev: RevisionRec): RevisionKind {
  const madeAs = (rev.content as StoredContent | undefined)?.madeAs;
  if (!madeAs || madeAs.revision !== rev.id) return { type: 'edits' };
  return madeAs.type === 'merge' ? { type: 'merge', mergedFrom: madeAs.mergedFrom } : { type: 'update' };
}

/** Record `content` (frozen from now on) as a new revision of `spaceId` (it does not move any pointer). */
export function newRevision(
  store: Store,
  spaceId: string,
  parents: string[],
  content: RevisionContent,
  message?: string,
  kind: RevisionKind = { type: 'edits' },
): RevisionRec {
  freeze(content);
  const stored: StoredContent = { pages: content.pages, files: content.files, variables: content.variables };
  if (message !== undefined) stored.message = message;
  const rev: RevisionRec = { id: newId(), space: spaceId, parents, createdAt: store.now(), type: 'edits', content: stored };
  if (kind.type !== 'edits') stored.madeAs = { revision: rev.id, ...kind };
  store.data.revisions.set(rev.id, rev);
  return rev;
}

/** Make `content` the space's active revision, child of the current one. */
export function commitToSpace(store: Store, space: SpaceRec, content: RevisionContent, message: string, kind?: RevisionKind): RevisionRec {
  const rev = newRevision(store, space.id, [space.revision], content, message, kind);
  space.revision = rev.id;
  space.updatedAt = rev.createdAt;
  return rev;
}

/** Pages a draft (`edit`) has made its own (`editPage`): changed in place from then on. */
const ownPages = new WeakMap<RevisionContent, WeakSet<PageRec>>();

/**
 * A draft of new content made from `content`, to change before committing it: its own lists of
 * top-level pages and of files, and its own variables, to change in place; every page in it is
 * still `content`'s, shared, and must not be changed: `editPage` gives a page to change (pages
 * added to the draft are its own already). Its cost is that of the top-level lists, not of the
 * tree.
 */
export function edit(content: RevisionContent): RevisionContent {
  const draft = { pages: content.pages.slice(), files: content.files.slice(), variables: { ...content.variables } };
  ownPages.set(draft, new WeakSet());
  return draft;
}

/**
 * The page `pageId` of `draft` (made by `edit`), the draft's own to change: that page and the
 * pages above it are copied (each with its own list of subpages) unless the draft copied them
 * already; every other page is still shared. Its fields that are objects (`layout`, `variables`,
 * `computed`) are shared too: replace them, never change them in place. Undefined when the draft
 * has no such page.
 */
export function editPage(draft: RevisionContent, pageId: string): PageEntry | undefined {
  const own = ownPages.get(draft);
  if (!own) throw new Error('editPage: not a draft made by edit()');
  const found = findPage(draft, pageId);
  if (!found) return undefined;
  const chain: PageRec[] = [];
  const down = (pages: readonly PageRec[]): boolean => {
    for (const page of pages) {
      chain.push(page);
      if (page === found.page || down(page.pages)) return true;
      chain.pop();
    }
    return false;
  };
  down(draft.pages);
  let siblings = draft.pages;
  let parent: PageRec | undefined;
  for (const page of chain) {
    let mine = page;
    if (!own.has(page)) {
      mine = { ...page, pages: page.pages.slice() };
      own.add(mine);
      siblings[siblings.indexOf(page)] = mine;
    }
    if (page === found.page) return { ...found, page: mine, ...(parent ? { parent } : {}) };
    parent = mine;
    siblings = mine.pages;
  }
  return undefined;
}

/** Content as recorded in a revision: frozen, down to what an earlier revision froze already (shared with it). */
function freeze(content: RevisionContent): void {
  freezePages(content.pages);
  for (const file of content.files) deepFreeze(file);
  Object.freeze(content.files);
  Object.freeze(content.variables);
}

function freezePages(pages: PageRec[]): void {
  if (Object.isFrozen(pages)) return;
  for (const page of pages) {
    if (Object.isFrozen(page)) continue;
    freezePages(page.pages);
    for (const value of Object.values(page)) if (value !== page.pages) deepFreeze(value);
    Object.freeze(page);
  }
  Object.freeze(pages);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  for (const inner of Object.values(value)) deepFreeze(inner);
  Object.freeze(value);
}

// ---------------------------------------------------------------------------------------------
// The page tree

export interface PageEntry {
  page: PageRec;
  path: string;
  /** Parent page, undefined at the top level. */
  parent?: PageRec;
  depth: number;
}

/** Every page, depth first in tree order, with its path. */
export function* walkPages(pages: readonly PageRec[], parentPath = '', parent?: PageRec, depth = 0): Generator<PageEntry> {
  for (const page of pages) {
    const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
    yield { page, path, ...(parent ? { parent } : {}), depth };
    yield* walkPages(page.pages, path, page, depth + 1);
  }
}

export function findPage(content: RevisionContent, pageId: string): PageEntry | undefined {
  for (const entry of walkPages(content.pages)) if (entry.page.id === pageId) return entry;
  return undefined;
}

/** The page at `path` (leading and trailing slashes ignored). */
export function findPageByPath(content: RevisionContent, path: string): PageEntry | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  for (const entry of walkPages(content.pages)) if (entry.path === wanted) return entry;
  return undefined;
}

export function findFile(content: RevisionContent, fileId: string): FileRec | undefined {
  return content.files.find((f) => f.id === fileId);
}

/** A slug's longest length (the official document's RevisionPageSlug). */
export const SLUG_MAX = 100;

/** `base`, or `base-2`, `base-3`... whichever no sibling uses yet (at most SLUG_MAX characters, `base` cut to make room). */
export function uniqueSlug(siblings: readonly PageRec[], base: string): string {
  return slugAmong(new Set(siblings.map((p) => p.slug)), base);
}

/**
 * `uniqueSlug` for pages placed one after the other: each list of siblings' slugs is read once
 * (not once per page placed), and each slug chosen is taken. The lists must change only through it.
 */
export function slugPlacer(): (siblings: readonly PageRec[], base: string) => string {
  const taken = new Map<readonly PageRec[], Set<string>>();
  return (siblings, base) => {
    let used = taken.get(siblings);
    if (!used) taken.set(siblings, (used = new Set(siblings.map((p) => p.slug))));
    const slug = slugAmong(used, base);
    used.add(slug);
    return slug;
  };
}

function slugAmong(used: ReadonlySet<string>, base: string): string {
  let slug = base.slice(0, SLUG_MAX);
  for (let n = 2; used.has(slug); n++) slug = `${base.slice(0, SLUG_MAX - String(n).length - 1).replace(/-+$/, '')}-${n}`;
  return slug;
}

export function newPage(store: Store, init: Pick<PageRec, 'title' | 'slug'> & Partial<PageRec>): PageRec {
  const now = store.now();
  return { id: newId(), markdown: '', createdAt: now, updatedAt: now, pages: [], ...init };
}

// ---------------------------------------------------------------------------------------------
// File bytes

interface ContentSlice {
  /** sha256 (hex) → bytes (base64). */
  blobs: Map<string, string>;
}

function slice(store: Store): ContentSlice {
  return store.slice<ContentSlice>('content', () => ({ blobs: new Map() }));
}

/** Store bytes once; the key to put in `FileRec.blob`. */
export function putBlob(store: Store, data: Buffer): string {
  const key = createHash('sha256').update(data).digest('hex');
  storeBlob(store, key, () => data.toString('base64'));
  return key;
}

/** Store bytes read elsewhere (a worker thread): their key (sha256, hex) and base64, unless stored already. */
export function storeBlob(store: Store, key: string, base64: string | (() => string)): void {
  const blobs = slice(store).blobs;
  if (!blobs.has(key)) blobs.set(key, typeof base64 === 'string' ? base64 : base64());
}

/** The bytes of a file, base64-encoded. */
export function blobOf(store: Store, key: string): string {
  return slice(store).blobs.get(key) ?? '';
}

/** A space purged: blobs no longer referenced by any remaining revision go with the last space using them. */
export function dropUnusedBlobs(store: Store, spaceId: string): void {
  const blobs = slice(store).blobs;
  if (blobs.size === 0) return;
  const used = new Set<string>();
  for (const rev of store.data.revisions.values()) {
    if (rev.space !== spaceId) for (const f of contentOf(rev).files) used.add(f.blob);
  }
  for (const key of [...blobs.keys()]) if (!used.has(key)) blobs.delete(key);
}
