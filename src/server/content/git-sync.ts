/**
 * A space's content read from a folder in Git Sync's layout (docs/content-export.md), and a backup
 * folder (`orgs backup`: one such folder per space, named by its key, beside the organization file
 * and `manifest.json`) seeded into the sandbox (`serve --seed DIR`):
 * - `.gitbook.yaml` (`root`, `structure.readme`, `structure.summary`), `SUMMARY.md` for the pages in
 *   order: `* [Title](path.md)` nested by indentation, `## Group` headings, links to a URL (or to a
 *   page already listed) as link pages;
 * - each page's file: front matter (`title`, `description`, `icon`, `emoji`, `hidden`), `# Title`,
 *   its body (headings one level up: the page title is the file's only `#`), kept as written
 *   (relative links resolve in the sandbox: git-refs.ts); `.gitbook/documents/<path>.json`, where
 *   present, is the page's document instead (its references to pages and files by their paths in
 *   the folder, as the export writes them, or by ids of this content);
 * - `.gitbook/assets/NAME`: the files, their exact bytes.
 *
 * The folder is untrusted input: regular files and folders only (a symbolic link is refused), inside
 * it, within LIMITS.seed (files, bytes, a file's bytes, pages). Malformed input is a SeedError naming
 * the file and the rule; nothing is seeded then.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { newId } from '../ids.js';
import { documentToMarkdown, MarkdownTooDeep, type DocumentNode } from '../lib/markdown.js';
import { slugify } from '../lib/slug.js';
import { LIMITS } from '../limits.js';
import { createSpaceRec } from '../spaces/model.js';
import { SeedError } from '../seed.js';
import type { Store } from '../store.js';
import { gitFileOf, gitHref } from './git-refs.js';
import { commitToSpace, emptyContent, newPage, putBlob, slugPlacer, walkPages, type FileRec, type PageRec, type RevisionContent } from './model.js';

/** A folder's files: path (with `/`) → absolute path, every one checked (regular, inside, within the bounds). */
type Listing = Map<string, string>;

/** Every regular file below `dir` (recursively), refusing links and what passes LIMITS.seed. */
function listFolder(dir: string): Listing {
  const root = realpathSync(dir);
  const files: Listing = new Map();
  let bytes = 0;
  const stack = [root];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const name of readdirSync(folder)) {
      const abs = join(folder, name);
      const rel = relative(root, abs).split(sep).join('/');
      const stat = lstatSync(abs);
      if (stat.isSymbolicLink()) throw new SeedError(`${rel}: a symbolic link (a seed folder holds regular files and folders only)`);
      if (stat.isDirectory()) {
        if (name === '.git') continue;
        stack.push(abs);
        continue;
      }
      if (!stat.isFile()) throw new SeedError(`${rel}: not a regular file`);
      if (stat.size > LIMITS.seed.maxFileBytes)
        throw new SeedError(`${rel}: ${stat.size} bytes, more than a seeded file may have (${LIMITS.seed.maxFileBytes})`);
      bytes += stat.size;
      if (bytes > LIMITS.seed.maxBytes) throw new SeedError(`more than ${LIMITS.seed.maxBytes} bytes in all (LIMITS.seed.maxBytes)`);
      files.set(rel, abs);
      if (files.size > LIMITS.seed.maxFiles) throw new SeedError(`more than ${LIMITS.seed.maxFiles} files (LIMITS.seed.maxFiles)`);
    }
  }
  return files;
}

/** A file's bytes, read again within its bound (it may have grown since it was listed). */
function bytesOf(abs: string, rel: string): Buffer {
  const data = readFileSync(abs);
  if (data.length > LIMITS.seed.maxFileBytes) throw new SeedError(`${rel}: more than ${LIMITS.seed.maxFileBytes} bytes`);
  return data;
}

function textOf(abs: string, rel: string): string {
  return bytesOf(abs, rel).toString('utf8').replace(/\r\n?/g, '\n');
}

/** `.gitbook.yaml`'s `root`, `structure.readme` and `structure.summary` (the defaults when missing). */
function configOf(text: string | undefined): { root: string; readme: string; summary: string } {
  const value = (name: string) => {
    const m = text ? new RegExp(`^\\s*${name}:\\s*['"]?([^'"#\\n]*?)['"]?\\s*(?:#.*)?$`, 'm').exec(text) : null;
    return m?.[1] || undefined;
  };
  const root = (value('root') ?? './').replace(/^\.\/?/, '').replace(/\/+$/, '');
  return { root, readme: value('readme') ?? 'README.md', summary: value('summary') ?? 'SUMMARY.md' };
}

interface SummaryItem {
  title: string;
  href: string;
  children: SummaryItem[];
  group?: true;
}

/** SUMMARY.md's items in order, nested by indentation; `## Title` opens a group whose items follow. */
function parseSummary(text: string, where: string): SummaryItem[] {
  const top: SummaryItem[] = [];
  let group: SummaryItem | undefined;
  const stack: { indent: number; item: SummaryItem }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '' || /^#\s/.test(line)) return;
    const heading = /^##+\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      group = { title: heading[1], href: '', children: [], group: true };
      top.push(group);
      stack.length = 0;
      return;
    }
    const item = /^(\s*)[*+-]\s+\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)>]*?)>?\s*\)\s*$/.exec(line);
    if (!item) {
      if (line.trim().startsWith('<!--') || /^\s*[*+-]\s*$/.test(line)) return;
      throw new SeedError(`${where}:${i + 1}: not an item of the table of contents (* [Title](page.md)): ${line.slice(0, 80)}`);
    }
    const indent = item[1].replace(/\t/g, '    ').length;
    const node: SummaryItem = { title: item[2].replace(/\\(.)/g, '$1'), href: item[3], children: [] };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    if (stack.length >= LIMITS.seed.maxDepth) throw new SeedError(`${where}:${i + 1}: pages nested deeper than ${LIMITS.seed.maxDepth} levels`);
    (stack.length > 0 ? stack[stack.length - 1].item.children : (group?.children ?? top)).push(node);
    stack.push({ indent, item: node });
  });
  return top;
}

/** Front matter (`key: value` lines between `---`), the `# Title` line, and the body. */
function parsePage(text: string, where: string): { meta: Record<string, string>; title?: string; body: string } {
  const meta: Record<string, string> = {};
  let rest = text;
  if (rest.startsWith('---\n')) {
    const end = rest.indexOf('\n---', 3);
    if (end < 0) throw new SeedError(`${where}: front matter never closed (a line ---)`);
    for (const line of rest.slice(4, end).split('\n')) {
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      const m = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
      if (!m) throw new SeedError(`${where}: front matter: not a "key: value" line: ${line.slice(0, 80)}`);
      meta[m[1]] = unquote(m[2].trim());
    }
    rest = rest.slice(end + 4).replace(/^[^\n]*\n?/, '');
  }
  rest = rest.replace(/^\n+/, '');
  const title = /^# (.*)$/m.exec(rest.split('\n', 1)[0] ?? '')?.[1]?.trim();
  if (title !== undefined) rest = rest.slice(rest.indexOf('\n') < 0 ? rest.length : rest.indexOf('\n') + 1).replace(/^\n+/, '');
  return { meta, ...(title !== undefined ? { title } : {}), body: shiftHeadings(rest) };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

/** Headings one level up outside fenced code (`##` is the body's first level: the file's `#` is the page title). */
function shiftHeadings(body: string): string {
  let fence: string | null = null;
  return body
    .split('\n')
    .map((line) => {
      const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence !== null) {
        if (f && f[0] === fence[0] && f.length >= fence.length) fence = null;
        return line;
      }
      if (f) {
        fence = f;
        return line;
      }
      const h = /^(#{2,6})(?=[ \t]|$)/.exec(line);
      return h ? line.slice(1) : line;
    })
    .join('\n');
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

const contentTypeOf = (name: string) => CONTENT_TYPES[/\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** The content of a space folder, in Git Sync's layout. */
function readSpaceFolder(store: Store, dir: string, listing: Listing = listFolder(dir), prefix = ''): RevisionContent {
  const file = (path: string) => listing.get(prefix + path);
  const configText = file('.gitbook.yaml');
  const config = configOf(configText ? textOf(configText, `${prefix}.gitbook.yaml`) : undefined);
  const base = config.root ? `${config.root}/` : '';
  const content = emptyContent();
  // Files: every one in .gitbook/assets, by name.
  const assets = `${prefix}${base}.gitbook/assets/`;
  for (const [rel, abs] of listing) {
    if (!rel.startsWith(assets)) continue;
    const name = rel.slice(assets.length);
    if (name.includes('/')) continue;
    const data = bytesOf(abs, rel);
    const rec: FileRec = { id: newId(), name, contentType: contentTypeOf(name), size: data.length, blob: putBlob(store, data) };
    content.files.push(rec);
  }
  const summaryPath = `${base}${config.summary}`;
  const summaryAbs = file(summaryPath);
  const items: SummaryItem[] = summaryAbs
    ? parseSummary(textOf(summaryAbs, prefix + summaryPath), prefix + summaryPath)
    : file(`${base}${config.readme}`)
      ? [{ title: '', href: config.readme, children: [] }]
      : [];
  const place = slugPlacer();
  const seen = new Map<string, PageRec>();
  const documents: { page: PageRec; path: string; rel: string; abs: string }[] = [];
  let pages = 0;
  const build = (list: SummaryItem[], siblings: PageRec[], parentPath: string) => {
    for (const item of list) {
      if (++pages > LIMITS.seed.maxPages) throw new SeedError(`${prefix}${summaryPath}: more than ${LIMITS.seed.maxPages} pages (LIMITS.seed.maxPages)`);
      if (item.group) {
        const page = newPage(store, { title: item.title, slug: place(siblings, slugify(item.title) || 'group'), type: 'group' });
        siblings.push(page);
        build(item.children, page.pages, parentPath ? `${parentPath}/${page.slug}` : page.slug);
        continue;
      }
      const href = item.href.replace(/#.*$/, '');
      const isFile = href !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//') && /\.md$/i.test(href);
      const target = isFile ? decodePath(`${base}${href.replace(/^\.\//, '')}`) : '';
      if (!isFile || seen.has(target)) {
        // A link page: to a URL, or to a page listed already.
        const to = seen.get(target);
        const page = newPage(store, {
          title: item.title,
          slug: place(siblings, slugify(item.title) || 'link'),
          type: 'link',
          target: to ? { kind: 'page', page: to.id } : { kind: 'url', url: item.href },
        });
        siblings.push(page);
        continue;
      }
      const abs = file(target);
      const parsed = abs ? parsePage(textOf(abs, prefix + target), prefix + target) : { meta: {} as Record<string, string>, body: '' };
      const name = target.slice(base.length).replace(/\.md$/i, '');
      const last = name.split('/').pop()!;
      // A README.md says its slug by its folder; the space's first page (README.md at the root) by its
      // subpages' folder, if it has subpages; else its title gives it.
      const slugBase = /^readme$/i.test(last)
        ? name.includes('/')
          ? name.split('/').slice(-2)[0]
          : (subpagesFolder(item) ?? slugify(parsed.meta.title ?? parsed.title ?? item.title))
        : last;
      const { meta } = parsed;
      const page = newPage(store, {
        title: meta.title ?? parsed.title ?? item.title,
        slug: place(siblings, slugify(slugBase) || 'page'),
        markdown: parsed.body,
        ...(meta.description ? { description: meta.description } : {}),
        ...(meta.icon ? { icon: meta.icon } : {}),
        ...(meta.emoji ? { emoji: meta.emoji } : {}),
        ...(meta.hidden === 'true' ? { hidden: true } : {}),
      });
      seen.set(target, page);
      siblings.push(page);
      const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
      build(item.children, page.pages, path);
      const docRel = `${base}.gitbook/documents/${path}.json`;
      const docAbs = file(docRel);
      if (docAbs) documents.push({ page, path, rel: prefix + docRel, abs: docAbs });
    }
  };
  build(items, content.pages, '');
  // Documents kept beside the Markdown: written as Markdown, their references to this space's pages and files
  // relative. The export writes those references by path (a page's file, a file's asset, from the folder's
  // root): each is the page or file seeded from there.
  const filesByName = new Map(content.files.map((f) => [f.name, f]));
  const byPath = (ref: Record<string, unknown>): Record<string, unknown> => {
    if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string' && /\.md$/i.test(ref.page)) {
      const page = seen.get(`${base}${ref.page}`);
      return page ? { ...ref, page: page.id } : ref;
    }
    if (ref.kind === 'file' && typeof ref.file === 'string' && ref.file.startsWith('.gitbook/assets/')) {
      const f = filesByName.get(ref.file.slice('.gitbook/assets/'.length));
      return f ? { ...ref, file: f.id } : ref;
    }
    return ref;
  };
  for (const { page, path, rel, abs } of documents) page.markdown = documentMarkdown(content, page, path, rel, abs, byPath);
  return content;
}

/** A table of contents link's path, its %-escapes decoded; one that is no escape (`100%-sure.md`) stays as written. */
function decodePath(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

/** The folder the subpages of a root README.md are in (`slug/child.md`), if they are in one. */
function subpagesFolder(item: SummaryItem): string | undefined {
  for (const child of item.children) {
    const href = child.href.replace(/#.*$/, '').replace(/^\.\//, '');
    if (!child.group && /\.md$/i.test(href) && href.includes('/') && !/^[a-z][a-z0-9+.-]*:/i.test(href)) return decodePath(href.split('/')[0]);
  }
  return undefined;
}

function documentMarkdown(
  content: RevisionContent,
  page: PageRec,
  path: string,
  rel: string,
  abs: string,
  byPath: (ref: Record<string, unknown>) => Record<string, unknown>,
): string {
  let doc: DocumentNode;
  try {
    doc = JSON.parse(textOf(abs, rel)) as DocumentNode;
  } catch (e) {
    throw new SeedError(`${rel}: malformed JSON: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || doc.object !== 'document' || !Array.isArray(doc.nodes)) {
    throw new SeedError(`${rel}: not a document ({"object": "document", "nodes": [...]})`);
  }
  const from = gitFileOf(content, page, path);
  try {
    return documentToMarkdown(doc, (ref) => gitHref(content, from, byPath(ref)));
  } catch (e) {
    if (e instanceof MarkdownTooDeep) throw new SeedError(`${rel}: ${e.message}`);
    throw new SeedError(`${rel}: not a document the sandbox can read: ${(e as Error).message}`);
  }
}

/** What a folder given to `serve --seed` is: a backup (manifest.json and space folders), a space folder, or neither. */
export function seedFolderKind(dir: string): 'backup' | 'space' | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  if (names.includes('manifest.json')) return 'backup';
  if (names.includes('.gitbook.yaml') || names.includes('SUMMARY.md')) return 'space';
  return undefined;
}

/** A seeded space: its folder (its key) and the space it went into. */
export interface SeededSpace {
  folder: string;
  space: string;
  pages: number;
  files: number;
}

/**
 * Seed the content of the spaces of organization `org` from `dir`: a backup's space folders (each
 * into the space whose key or title is the folder's name: `titles` maps the organization file's keys
 * to titles), or one space folder (into the space titled `title`, made when missing). Every folder is
 * read before anything changes.
 */
export function seedContentFromFolder(store: Store, dir: string, opts: { org: string; titles?: ReadonlyMap<string, string>; title?: string }): SeededSpace[] {
  const kind = seedFolderKind(dir);
  if (!kind) throw new SeedError(`${dir}: neither a backup (manifest.json) nor a space folder in Git Sync's layout (.gitbook.yaml)`);
  const listing = listFolder(dir);
  const spacesOfOrg = [...store.data.spaces.values()].filter((s) => s.org === opts.org && !s.deletedAt);
  const read: { folder: string; content: RevisionContent; space?: string; title: string }[] = [];
  if (kind === 'space') {
    read.push({ folder: '.', content: readSpaceFolder(store, dir, listing), title: opts.title ?? 'Seeded space' });
  } else {
    const folders = new Set<string>();
    for (const rel of listing.keys()) if (/^[^/]+\/\.gitbook\.yaml$/.test(rel) || /^[^/]+\/SUMMARY\.md$/.test(rel)) folders.add(rel.split('/')[0]);
    for (const folder of [...folders].sort()) {
      const title = opts.titles?.get(folder) ?? folder;
      const space = spacesOfOrg.find((s) => s.title === title) ?? spacesOfOrg.find((s) => slugify(s.title) === folder);
      read.push({ folder, content: readSpaceFolder(store, dir, listing, `${folder}/`), title, ...(space ? { space: space.id } : {}) });
    }
  }
  const out: SeededSpace[] = [];
  for (const r of read) {
    const spaceId = r.space ?? spacesOfOrg.find((s) => s.title === r.title)?.id ?? createSpaceRec(store, { org: opts.org, title: r.title.slice(0, 50) }).id;
    const space = store.data.spaces.get(spaceId)!;
    commitToSpace(store, space, r.content, `Seeded from ${r.folder === '.' ? dir : r.folder}`);
    out.push({ folder: r.folder, space: spaceId, pages: [...walkPages(r.content.pages)].length, files: r.content.files.length });
  }
  return out;
}
