/**
 * A space's (or a change request's) content written to a folder in Git Sync's layout, incrementally:
 * each file is compared with what the folder holds and written only when it differs (whole or not
 * at all); files the export wrote before and the content no longer has are removed with `prune`
 * (reported otherwise); `check` writes nothing and returns the differences. Files are streamed to
 * disk as they download. The state file (disk.ts) records what was written as it goes, so an
 * interrupted export, run again, downloads only what it does not have yet.
 *
 * The content comes through a `ContentSource` (the command gives one made of the client's calls),
 * so this module knows no HTTP.
 */
import {
  extraFiles,
  hashFile,
  inside,
  readIfThere,
  readState,
  removeFile,
  removeParts,
  sha256,
  STATE_FILE,
  streamingWriter,
  writeAtomic,
  writeState,
  type ExportState,
  type StateEntry,
  type StreamingWriter,
} from './disk.js';
import { GITBOOK_YAML, linkTargets, pageFileText, planLayout, type Layout, type TreeFile, type TreePage } from './layout.js';
import { documentToMarkdown, plainText, type AnyNode } from './markdown.js';

export interface SourceFile extends TreeFile {
  size: number;
  downloadURL: string;
  git?: { oid?: string };
}

interface SourcePage extends TreePage {
  document?: { nodes?: unknown[] };
}

/** Where the content is read from (the client's official operations, for a space or a change request). */
export interface ContentSource {
  /** What the state file names: the space, and the change request if any. */
  space: string;
  changeRequest?: string;
  pages(): Promise<TreePage[]>;
  files(): Promise<SourceFile[]>;
  /** A page with its `document`. */
  page(id: string): Promise<SourcePage>;
  /** A file's bytes, given to `sink` as they come. */
  download(file: SourceFile, sink: (chunk: Buffer) => Promise<void>): Promise<void>;
}

export interface ExportOptions {
  out: string;
  format: 'markdown' | 'json';
  prune: boolean;
  check: boolean;
  /** Runs a task within the export's bound on concurrent requests. */
  limit: <T>(task: () => Promise<T>) => Promise<T>;
  /** Told as each page and file is done: how many of all. */
  progress?: (done: number, total: number) => void;
}

interface KeptPage {
  page: string;
  file: string;
  document: string;
  losses: string[];
}

export interface ExportSummary {
  space: string;
  changeRequest?: string;
  out: string;
  pages: number;
  assets: number;
  /** Files written (or, with `check`, that would be). */
  written: string[];
  unchanged: number;
  /** Files removed (`prune`). */
  removed: string[];
  /** Files the export wrote before that the content no longer has (kept without `prune`; differences with `check`). */
  stale: string[];
  /**
   * Files in the folder the export never wrote (a page file, an asset, a document JSON put there by
   * hand or by something else; `extraFiles` says what is not content): kept without `prune`, or
   * when the folder held no export of this content before; differences with `check`.
   */
  extra: string[];
  /** Pages whose document JSON was kept beside their Markdown, and why. */
  kept: KeptPage[];
  /** With `check`: each difference, `+ path` (missing), `~ path` (differs), `- path` (in the folder, not in the content). */
  differences: string[];
}

/** A folder that holds another space's export: refused before anything is written. */
export class ForeignFolderError extends Error {}

/** How a file's bytes are identified between runs without downloading it again. */
function sourceOf(file: SourceFile): string {
  if (file.git?.oid) return `oid:${file.git.oid}`;
  if (file.downloadURL.startsWith('data:')) return `data:${sha256(file.downloadURL)}`;
  return `url:${file.downloadURL}#${file.size}`;
}

export async function exportContent(source: ContentSource, opts: ExportOptions): Promise<ExportSummary> {
  const { out, check } = opts;
  const previous = await readState(out);
  if (previous && (previous.space !== source.space || (previous.changeRequest ?? '') !== (source.changeRequest ?? ''))) {
    const was = previous.changeRequest ? `change request ${previous.changeRequest} of space ${previous.space}` : `space ${previous.space}`;
    throw new ForeignFolderError(`${out} holds the export of ${was}: export into another folder (or remove ${STATE_FILE} to take this one over)`);
  }
  if (!check) await removeParts(out);
  const [tree, files] = await Promise.all([opts.limit(() => source.pages()), opts.limit(() => source.files())]);
  const json = opts.format === 'json';
  const layout = planLayout(tree, files, json ? '.json' : '.md');
  const state: ExportState = {
    docsctl: 1,
    space: source.space,
    ...(source.changeRequest ? { changeRequest: source.changeRequest } : {}),
    format: opts.format,
    complete: false,
    files: {},
  };
  const summary: ExportSummary = {
    space: source.space,
    ...(source.changeRequest ? { changeRequest: source.changeRequest } : {}),
    out,
    pages: layout.pages.length,
    assets: layout.assets.size,
    written: [],
    unchanged: 0,
    removed: [],
    stale: [],
    extra: [],
    kept: [],
    differences: [],
  };
  // Progress is saved as assets come (at most one save at a time; the last one wins).
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    if (check) return;
    saving = saving.then(() => writeState(out, { ...state, files: { ...(previous?.files ?? {}), ...state.files } }));
  };
  let done = 0;
  const total = layout.pages.length + layout.assets.size;
  const tick = () => opts.progress?.(done, total);

  /** A text file of the export: compared with the disk, written when it differs. */
  const put = async (path: string, text: string) => {
    const data = Buffer.from(text);
    const entry: StateEntry = { sha256: sha256(data), size: data.length };
    state.files[path] = entry;
    const full = inside(out, path);
    const there = await readIfThere(full);
    if (there?.equals(data)) {
      summary.unchanged++;
      return;
    }
    summary.written.push(path);
    if (check) summary.differences.push(`${there ? '~' : '+'} ${path}`);
    else await writeAtomic(full, data);
  };

  if (!json) {
    await put('.gitbook.yaml', GITBOOK_YAML);
    await put('SUMMARY.md', layout.summary);
  } else {
    await put('SUMMARY.json', `${JSON.stringify(tocOf(tree, layout), null, 2)}\n`);
  }

  const pageTasks = layout.pages.map((placed) =>
    opts.limit(async () => {
      const page = await source.page(placed.page.id);
      const meta = { ...placed.page, ...pick(page) };
      if (json) {
        await put(placed.file, `${JSON.stringify(pageJson(meta, page), null, 2)}\n`);
      } else {
        const rendered = documentToMarkdown(withoutTitle(page.document, meta.title), linkTargets(layout, placed.file, source.space));
        await put(placed.file, pageFileText(meta, rendered.markdown));
        if (rendered.losses.length > 0) {
          summary.kept.push({ page: placed.page.id, file: placed.file, document: placed.documentFile, losses: rendered.losses });
          await put(placed.documentFile, `${JSON.stringify(withPathRefs(page.document ?? null, layout, source.space), null, 2)}\n`);
        }
      }
      done++;
      tick();
    }),
  );

  const assetTasks = files.map((file) =>
    opts.limit(async () => {
      const path = layout.assets.get(file.id)!;
      const full = inside(out, path);
      const src = sourceOf(file);
      const before = previous?.files[path];
      const onDisk = await hashFile(full);
      if (before?.source === src && onDisk && onDisk.sha256 === before.sha256 && onDisk.size === before.size) {
        state.files[path] = before;
        summary.unchanged++;
      } else {
        const writer = await streamingWriter(check ? undefined : full);
        let got: { sha256: string; size: number };
        try {
          got = await fetchAsset(source, file, writer);
          if (onDisk && onDisk.sha256 === got.sha256) {
            summary.unchanged++;
            await writer.abort();
          } else {
            summary.written.push(path);
            if (check) summary.differences.push(`${onDisk ? '~' : '+'} ${path}`);
            await writer.place();
          }
        } catch (e) {
          await writer.abort();
          throw e;
        }
        state.files[path] = { ...got, source: src };
        save();
      }
      done++;
      tick();
    }),
  );
  const results = await Promise.allSettled([...pageTasks, ...assetTasks]);
  await saving;
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // What was written is recorded: a rerun continues from there.
    save();
    await saving;
    throw failed.reason;
  }

  // What the export wrote before and the content no longer has.
  for (const path of Object.keys(previous?.files ?? {}).sort()) {
    if (path in state.files) continue;
    const there = await hashFile(inside(out, path));
    if (!there) continue;
    if (check) summary.differences.push(`- ${path}`);
    if (opts.prune && !check) {
      await removeFile(out, path);
      summary.removed.push(path);
    } else {
      summary.stale.push(path);
      if (!check) state.files[path] = previous!.files[path];
    }
  }
  // What the folder holds that the export never wrote. Removed (`prune`) only from a folder that held
  // this content's export before: a folder never exported to is not the export's to empty.
  for (const path of await extraFiles(out, [...Object.keys(state.files), ...Object.keys(previous?.files ?? {})])) {
    if (check) summary.differences.push(`- ${path}`);
    if (opts.prune && !check && previous) {
      await removeFile(out, path);
      summary.removed.push(path);
    } else summary.extra.push(path);
  }
  summary.written.sort();
  summary.kept.sort((a, b) => (a.file < b.file ? -1 : 1));
  if (!check) {
    state.complete = true;
    await writeState(out, state);
  }
  return summary;
}

/** A file's bytes to `writer`. */
async function fetchAsset(source: ContentSource, file: SourceFile, writer: StreamingWriter): Promise<{ sha256: string; size: number }> {
  const data = /^data:[^,]*;base64,/.exec(file.downloadURL);
  if (data) await writer.write(Buffer.from(file.downloadURL.slice(data[0].length), 'base64'));
  else await source.download(file, (chunk) => writer.write(chunk));
  return writer.finish();
}

/**
 * The document without its first block when that block is a heading-1 of the page's title (the
 * sandbox keeps the title so): the file's `# Title` is that heading.
 */
function withoutTitle(doc: SourcePage['document'], title: string): SourcePage['document'] {
  const first = doc?.nodes?.[0] as AnyNode | undefined;
  if (!doc || first?.object !== 'block' || first.type !== 'heading-1' || plainText(first.nodes ?? []).trim() !== title.trim()) return doc;
  return { ...doc, nodes: doc.nodes!.slice(1) };
}

/**
 * A kept document with its references to the space's pages and files by path instead of id (ids
 * are the space's own: a sandbox seeded from the folder gives its pages and files new ones, and
 * maps these paths to them, .gitbook/documents in docs/content-export.md): a page (`page`, and an
 * anchor's) by its Markdown file from the folder's root (`guide/install.md`), a file by its asset
 * (`.gitbook/assets/logo.png`); a reference naming this space loses its `space`. What is not of the
 * export (another space's page, a page or file the space does not list) is left as it is.
 */
function withPathRefs(doc: unknown, layout: Layout, space: string): unknown {
  const refOf = (ref: Record<string, unknown>): Record<string, unknown> => {
    if (ref.space !== undefined && ref.space !== space) return ref;
    const { space: _space, ...rest } = ref;
    if ((ref.kind === 'page' || ref.kind === 'anchor') && typeof ref.page === 'string') {
      const placed = layout.byId.get(ref.page);
      return placed ? { ...rest, page: placed.file } : ref;
    }
    if (ref.kind === 'file' && typeof ref.file === 'string') {
      const asset = layout.assets.get(ref.file);
      return asset !== undefined ? { ...rest, file: asset } : ref;
    }
    return ref;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === 'ref' && typeof v === 'object' && v !== null && !Array.isArray(v) ? refOf(v as Record<string, unknown>) : walk(v),
      ]),
    );
  };
  return walk(doc);
}

/** The fields of a page read that say more than its list entry. */
function pick(page: SourcePage): Partial<TreePage> {
  const out: Partial<TreePage> = {};
  for (const k of ['title', 'description', 'icon', 'emoji', 'hidden'] as const) if (page[k] !== undefined) (out as Record<string, unknown>)[k] = page[k];
  return out;
}

/** A page as `--format json` (and a kept document) writes it: its fields and its document, not its subpages. */
function pageJson(meta: TreePage, page: SourcePage): Record<string, unknown> {
  const { pages: _pages, ...rest } = { ...page, ...meta } as SourcePage & { pages?: unknown };
  return { ...rest, document: page.document ?? null };
}

interface TocEntry {
  id: string;
  title: string;
  type?: string;
  file?: string;
  target?: unknown;
  pages?: TocEntry[];
}

/** `--format json`'s table of contents: the tree with each page's file. */
function tocOf(tree: readonly TreePage[], layout: ReturnType<typeof planLayout>): TocEntry[] {
  return tree.map((p) => {
    const file = layout.byId.get(p.id)?.file;
    return {
      id: p.id,
      title: p.title,
      ...(p.type ? { type: p.type } : {}),
      ...(file ? { file } : {}),
      ...(p.target ? { target: p.target } : {}),
      ...(p.pages?.length ? { pages: tocOf(p.pages, layout) } : {}),
    };
  });
}
