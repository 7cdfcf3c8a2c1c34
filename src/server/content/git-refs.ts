/**
 * References to content written as Git Sync writes them (docs/content-export.md), read in a
 * revision: a page's body links to another page by the relative path of its file (`../guide.md`,
 * `guide/README.md#install`), to a file by `.gitbook/assets/NAME` relative to it, and to a file by id
 * as `file:ID`. A page read as a document (`format=document`) has those as references to the page,
 * the anchor or the file (ContentRef), as the service's documents have them; what does not resolve
 * stays as written (a URL).
 *
 * Where a page's file is: the first page of the space is `README.md`; a page with subpages
 * `PATH/README.md`; any other `PATH.md`.
 */
import type { BlockNode, DocumentNode } from '../lib/markdown.js';
import { walkPages, type FileRec, type PageRec, type RevisionContent } from './model.js';

type Ref = Record<string, unknown>;

interface GitIndex {
  /** File path (`guide/README.md`) → page. */
  pages: Map<string, PageRec>;
  /** Page → its file path. */
  fileOf: Map<PageRec, string>;
  filesByName: Map<string, FileRec>;
  filesById: Map<string, FileRec>;
}

const indexes = new WeakMap<RevisionContent, GitIndex>();

/** The file a page is written to in Git Sync's layout. */
export function gitFileOf(content: RevisionContent, page: PageRec, path: string): string {
  return page === content.pages[0] ? 'README.md' : page.pages.length > 0 ? `${path}/README.md` : `${path}.md`;
}

function indexOf(content: RevisionContent): GitIndex {
  let index = indexes.get(content);
  if (index) return index;
  index = { pages: new Map(), fileOf: new Map(), filesByName: new Map(), filesById: new Map() };
  for (const { page, path } of walkPages(content.pages)) {
    const file = gitFileOf(content, page, path);
    index.fileOf.set(page, file);
    if (!index.pages.has(file)) index.pages.set(file, page);
  }
  for (const f of content.files) {
    if (!index.filesByName.has(f.name)) index.filesByName.set(f.name, f);
    index.filesById.set(f.id, f);
  }
  indexes.set(content, index);
  return index;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What `href`, written in the file `from`, refers to in the revision; undefined when it is no page, anchor or file of it. */
function gitRef(content: RevisionContent, from: string, href: string): Ref | undefined {
  const index = indexOf(content);
  if (/^file:/i.test(href)) return index.filesById.has(href.slice(5)) ? { kind: 'file', file: href.slice(5) } : undefined;
  if (SCHEME.test(href) || href.startsWith('/') || href.startsWith('#') || href === '') return undefined;
  let url: URL;
  try {
    url = new URL(href, `http://content.invalid/${from}`);
  } catch {
    return undefined;
  }
  const path = decode(url.pathname).replace(/^\/+/, '');
  if (path.startsWith('.gitbook/assets/')) {
    const file = index.filesByName.get(path.slice('.gitbook/assets/'.length));
    return file ? { kind: 'file', file: file.id } : undefined;
  }
  if (!/\.md$/i.test(path)) return undefined;
  const page = index.pages.get(path) ?? index.pages.get(path.replace(/\.md$/i, '/README.md'));
  if (!page) return undefined;
  const anchor = decode(url.hash.slice(1));
  return anchor ? { kind: 'anchor', page: page.id, anchor } : { kind: 'page', page: page.id };
}

/** How a reference is written from the file `from`: the inverse of `gitRef` (undefined: as the writer's default). */
export function gitHref(content: RevisionContent, from: string, ref: Ref): string | undefined {
  const index = indexOf(content);
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const file = index.filesById.get(ref.file);
    return file ? relative(from, `.gitbook/assets/${file.name}`) : undefined;
  }
  if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') {
    for (const [page, file] of index.fileOf) {
      if (page.id !== ref.page) continue;
      const anchor = ref.kind === 'anchor' && typeof ref.anchor === 'string' && ref.anchor ? `#${ref.anchor}` : '';
      return relative(from, file) + anchor;
    }
  }
  return undefined;
}

/** `to` relative to the folder of `from` (both paths from the root). */
function relative(from: string, to: string): string {
  const fromDirs = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromDirs.length && common < toParts.length - 1 && fromDirs[common] === toParts[common]) common++;
  return [...fromDirs.slice(common).map(() => '..'), ...toParts.slice(common)]
    .map((p) => (p === '..' ? p : encodeURI(p).replace(/[()#?]/g, encodeURIComponent)))
    .join('/');
}

/**
 * The document of the page at `path` with its references resolved (links, images, files, content
 * refs: `gitRef`). A new document where something changed; the one given is not changed.
 */
export function resolveDocumentRefs(doc: DocumentNode, content: RevisionContent, page: PageRec, path: string): DocumentNode {
  if (content.pages.length === 0) return doc;
  const from = gitFileOf(content, page, path);
  const resolve = (ref: unknown): Ref | undefined => {
    if (typeof ref !== 'object' || ref === null) return undefined;
    const r = ref as Ref;
    if (r.kind === 'url' && typeof r.url === 'string') return gitRef(content, from, r.url);
    // A file tag's path (markdown.ts reads `{% file src=".gitbook/assets/x" %}` as a file whose id is that path).
    if (r.kind === 'file' && typeof r.file === 'string' && !indexOf(content).filesById.has(r.file)) return gitRef(content, from, r.file);
    return undefined;
  };
  type AnyNode = { data?: Record<string, unknown>; nodes?: AnyNode[]; fragments?: { nodes: AnyNode[] }[] };
  const walk = <T extends AnyNode>(node: T): T => {
    let out = node;
    const ref = node.data ? resolve(node.data.ref) : undefined;
    if (ref) out = { ...out, data: { ...node.data, ref } };
    if (node.nodes) {
      const nodes = node.nodes.map(walk);
      if (nodes.some((n, i) => n !== node.nodes![i])) out = { ...out, nodes };
    }
    if (node.fragments) {
      const fragments = node.fragments.map((f) => {
        const nodes = f.nodes.map(walk);
        return nodes.some((n, i) => n !== f.nodes[i]) ? { ...f, nodes } : f;
      });
      if (fragments.some((f, i) => f !== node.fragments![i])) out = { ...out, fragments };
    }
    return out;
  };
  const nodes = (doc.nodes as AnyNode[]).map(walk) as BlockNode[];
  return nodes.some((n, i) => n !== doc.nodes[i]) ? { ...doc, nodes } : doc;
}
