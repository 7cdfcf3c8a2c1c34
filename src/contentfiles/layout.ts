/**
 * Where a space's pages and files go in Git Sync's layout (docs/content-export.md), and the files
 * that describe it: `.gitbook.yaml`, `SUMMARY.md`, a page's front matter and title. Pure: the tree
 * and the file list in, paths and text out.
 *
 * - The first document page is `README.md`; a page with subpages is `<path>/README.md`, one without
 *   `<path>.md` (its `path` from the service, each segment made safe for a file system).
 * - A group is a `## Title` heading of SUMMARY.md (its pages follow as top-level items) and has no
 *   file; a link page is an item leading to its target, and has no file either.
 * - A file is `.gitbook/assets/<name>`; a name taken (case-insensitively) gets ` (1)`, ` (2)`… before
 *   its extension.
 */
import { posix } from 'node:path';
import type { LinkTargets, RefLike } from './markdown.js';

/** A page as the service lists it (the fields the layout reads). */
export interface TreePage {
  id: string;
  title: string;
  type?: string;
  kind?: string;
  path?: string;
  slug?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  target?: RefLike;
  href?: string;
  pages?: TreePage[];
}

export interface TreeFile {
  id: string;
  name: string;
}

/** A page that has a file: where, and what it is. */
interface PlacedPage {
  page: TreePage;
  /** Its Markdown file, from the folder's root (`guide/README.md`). */
  file: string;
  /** Where its document JSON goes when kept (`.gitbook/documents/guide.json`). */
  documentFile: string;
}

export interface Layout {
  /** The pages with a file, in the tree's order. */
  pages: PlacedPage[];
  byId: Map<string, PlacedPage>;
  /** Page files by the page's path (`guide/install` → `guide/install.md`), to resolve a path link. */
  byPath: Map<string, PlacedPage>;
  /** Asset file (`.gitbook/assets/logo.png`) by file id. */
  assets: Map<string, string>;
  /** SUMMARY.md's text. */
  summary: string;
}

export const GITBOOK_YAML = 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n';
const ASSETS_DIR = '.gitbook/assets';
const DOCUMENTS_DIR = '.gitbook/documents';

/** A path segment safe on every file system: no separators, no `.`/`..`, no control characters. */
function safeSegment(segment: string, fallback: string): string {
  const cleaned = segment.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '-').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return fallback;
  return cleaned.slice(0, 200);
}

/**
 * A page's path made safe, segment by segment; a segment never starts with `.` (the folder's own
 * `.gitbook/`, `.gitbook.yaml` and state file are not a page's to take).
 */
function safePath(path: string | undefined, fallback: string): string {
  const segments = (path ?? '').split('/').filter((s) => s !== '');
  const safe = (s: string, f: string) => safeSegment(s, f).replace(/^\./, '_');
  if (segments.length === 0) return safe(fallback, 'page');
  return segments.map((s, i) => safe(s, i === segments.length - 1 ? fallback : '_')).join('/');
}

const isGroup = (p: TreePage) => p.type === 'group' || p.kind === 'group';
const isLink = (p: TreePage) => p.type === 'link' || p.kind === 'link';

/** Plan the layout of a space: its pages' files, its assets and SUMMARY.md. `ext` is `.md`, or `.json` for `--format json`. */
export function planLayout(tree: readonly TreePage[], files: readonly TreeFile[], ext = '.md'): Layout {
  const pages: PlacedPage[] = [];
  const byId = new Map<string, PlacedPage>();
  const byPath = new Map<string, PlacedPage>();
  const taken = new Set<string>();
  let first = true;
  const place = (page: TreePage) => {
    const path = safePath(page.path ?? page.slug, page.id);
    const hasChildren = (page.pages ?? []).some((c) => !isLink(c));
    let file = first ? `README${ext}` : hasChildren ? `${path}/README${ext}` : `${path}${ext}`;
    first = false;
    // Two pages on one file (paths differing only in case, or made equal by safeSegment): the later keeps its id.
    if (taken.has(file.toLowerCase()) || file.startsWith('.gitbook/') || file === `SUMMARY${ext}`) file = `${path}-${safeSegment(page.id, 'page')}${ext}`;
    taken.add(file.toLowerCase());
    const placed = { page, file, documentFile: `${DOCUMENTS_DIR}/${path}${taken.has(`${DOCUMENTS_DIR}/${path}.json`) ? `-${page.id}` : ''}.json` };
    taken.add(placed.documentFile.toLowerCase());
    pages.push(placed);
    byId.set(page.id, placed);
    if (page.path !== undefined) byPath.set(page.path.replace(/^\/+|\/+$/g, ''), placed);
  };
  const walk = (list: readonly TreePage[]) => {
    for (const page of list) {
      if (!isGroup(page) && !isLink(page)) place(page);
      walk(page.pages ?? []);
    }
  };
  walk(tree);
  const assets = new Map<string, string>();
  const names = new Set<string>();
  for (const f of files) {
    const name = uniqueName(safeSegment(f.name, safeSegment(f.id, 'file')), names);
    names.add(name.toLowerCase());
    assets.set(f.id, `${ASSETS_DIR}/${name}`);
  }
  const layout: Layout = { pages, byId, byPath, assets, summary: '' };
  layout.summary = summaryOf(tree, layout);
  return layout;
}

function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})${ext}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** `[text](dest)` of SUMMARY.md and content references. */
function markdownLink(text: string, href: string): string {
  const dest = /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
  return `[${text.replace(/[\\[\]]/g, '\\$&').replace(/\n/g, ' ')}](${dest})`;
}

/** SUMMARY.md: `# Table of contents`, an item per page in order, groups as `## ` headings. */
function summaryOf(tree: readonly TreePage[], layout: Layout): string {
  const lines: string[] = ['# Table of contents', ''];
  const targets = linkTargets(layout, 'SUMMARY.md');
  const items = (list: readonly TreePage[], depth: number) => {
    for (const page of list) {
      const indent = '  '.repeat(depth);
      const title = page.title || '(untitled)';
      if (isGroup(page)) {
        if (depth === 0) {
          if (lines[lines.length - 1] !== '') lines.push('');
          lines.push(`## ${title.replace(/\n/g, ' ')}`, '');
          items(page.pages ?? [], 0);
          lines.push('');
        } else {
          lines.push(`${indent}* ${title.replace(/\n/g, ' ')}`);
          items(page.pages ?? [], depth + 1);
        }
        continue;
      }
      if (isLink(page)) {
        const href = (page.target && targets.href(page.target)) ?? page.href ?? '';
        lines.push(`${indent}* ${markdownLink(title, href)}`);
        continue;
      }
      lines.push(`${indent}* ${markdownLink(title, layout.byId.get(page.id)!.file)}`);
      items(page.pages ?? [], depth + 1);
    }
  };
  items(tree, 0);
  while (lines[lines.length - 1] === '') lines.pop();
  return `${lines.join('\n')}\n`;
}

/**
 * How references are written from the file `from` (`guide/install.md`): a page, an anchor or a
 * file of the space as a path relative to it; a URL as it is, unless it is a path into the space
 * (`/guide/install`, `../install.md#anchor`) or `file:<id>` (the sandbox's way to link its
 * files), which are rewritten the same way. A reference to another space is out of the export.
 */
export function linkTargets(layout: Layout, from: string, space?: string): LinkTargets {
  const dir = posix.dirname(from);
  const rel = (to: string) => {
    const r = posix.relative(dir, to);
    return r === '' ? posix.basename(to) : r;
  };
  const pageHref = (id: string, anchor?: string) => {
    const placed = layout.byId.get(id);
    if (!placed) return undefined;
    const path = placed.file === from ? '' : rel(placed.file);
    return anchor ? `${path}#${anchor}` : path || posix.basename(from);
  };
  return {
    href(ref: RefLike) {
      if (ref.space !== undefined && space !== undefined && ref.space !== space) return undefined;
      switch (ref.kind) {
        case 'page':
          return ref.page ? pageHref(ref.page) : undefined;
        case 'anchor': {
          if (!ref.anchor) return undefined;
          if (!ref.page) return `#${ref.anchor}`;
          return pageHref(ref.page, ref.anchor);
        }
        case 'file': {
          const asset = ref.file ? layout.assets.get(ref.file) : undefined;
          return asset === undefined ? undefined : rel(asset);
        }
        case 'url':
          return typeof ref.url === 'string' ? urlHref(ref.url) : undefined;
        default:
          return undefined;
      }
    },
  };

  /** A URL, rewritten when it names a page or a file of the space. */
  function urlHref(url: string): string {
    const file = /^file:(.+)$/.exec(url);
    if (file) {
      const asset = layout.assets.get(file[1]);
      return asset === undefined ? url : rel(asset);
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('#') || url === '') return url;
    const hash = url.indexOf('#');
    const [pathPart, anchor] = hash >= 0 ? [url.slice(0, hash), url.slice(hash + 1)] : [url, ''];
    let target: string;
    try {
      target = decodeURI(pathPart);
    } catch {
      return url;
    }
    // From the space's root (`/a/b`), or from the page's file as in a git checkout (`../b.md`).
    const resolved = target.startsWith('/') ? posix.normalize(target) : posix.join('/', dir, target);
    const key = resolved
      .replace(/^\/+/, '')
      .replace(/(^|\/)README\.md$/i, '')
      .replace(/\.md$/i, '')
      .replace(/\/+$/, '');
    const placed = layout.byPath.get(key) ?? layout.pages.find((p) => p.file.replace(/(^|\/)README\.md$/, '').replace(/\.md$/, '') === key);
    if (!placed) return url;
    return pageHref(placed.page.id, anchor || undefined) ?? url;
  }
}

/**
 * A page's Markdown file: front matter when needed, `# Title`, then the body. Front matter is one
 * `key: value` line a field, the value plain when YAML reads it as that same string, else
 * double-quoted (JSON's escapes, which YAML's double quotes read the same).
 */
export function pageFileText(page: TreePage, body: string): string {
  const front: string[] = [];
  for (const key of ['description', 'icon', 'emoji'] as const) {
    const value = page[key];
    if (value) front.push(`${key}: ${yamlScalar(value)}`);
  }
  if (page.hidden) front.push('hidden: true');
  const head = front.length > 0 ? `---\n${front.join('\n')}\n---\n\n` : '';
  return `${head}# ${(page.title || '').replace(/\n/g, ' ')}\n${body ? `\n${body}` : ''}`;
}

/** A string as a YAML scalar on one line: plain when that reads back as the same string, else double-quoted. */
function yamlScalar(value: string): string {
  const plain =
    /^[^\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) &&
    !/[:#]\s|\s#|:$|\s$|[\u0000-\u001f\u007f\u2028\u2029]/.test(value) &&
    !/^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?|0x[\da-f]+|0o[0-7]+|\.inf|\.nan)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}
