/**
 * An organization's backup folder (`docsctl orgs backup`, docs/content-export.md):
 *
 *   org.yaml             the organization file, as `orgs export` writes it
 *   openapi/<slug>.yaml  the document of each OpenAPI specification made from one (no URL to fetch it
 *                        from again), which org.yaml names as its `file:`
 *   <key>/               each space's content, as `content export` writes it (key: the space's in org.yaml)
 *   manifest.json        the manifest: the organization, the org file's checksum, and per space its
 *                        key, id, title, revision, folder, file count and checksum
 *
 * The manifest is rewritten after each space, so an interrupted backup resumes: a space whose
 * revision is the manifest's and whose folder is intact is skipped.
 */
import type { Dirent } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { extraFiles, inside, PART_SUFFIX, readIfThere, readState, sha256, writeAtomic } from './disk.js';

export const ORG_FILE = 'org.yaml';
const MANIFEST = 'manifest.json';
/** The folder of the OpenAPI documents (no space's folder takes its name). */
const OPENAPI_DIR = 'openapi';

export interface BackupSpace {
  key: string;
  id: string;
  title: string;
  revision: string;
  /** Its folder, from the backup's root (`handbook`): the space's key. */
  folder: string;
  /** Files of its export (the state file's). */
  files: number;
  /** SHA-256 of its files' list: a line `<sha256> <size> <path>` per file, in path order. */
  sha256: string;
}

export interface BackupManifest {
  docsctl: 1;
  organization: string;
  orgFile: { path: string; sha256: string };
  /** The OpenAPI documents written, by the specification's slug (their path from the backup's root). */
  openapi?: { slug: string; path: string; sha256: string }[];
  spaces: BackupSpace[];
}

export async function readManifest(root: string): Promise<BackupManifest | undefined> {
  const data = await readIfThere(join(root, MANIFEST));
  if (!data) return undefined;
  try {
    const m = JSON.parse(data.toString('utf8')) as BackupManifest;
    return m?.docsctl === 1 && Array.isArray(m.spaces) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** The manifest, its spaces in the organization's order (`order`: the spaces as the organization lists them). */
export async function writeManifest(root: string, manifest: BackupManifest, order: readonly { id: string }[]): Promise<void> {
  const rank = (id: string) => {
    const i = order.findIndex((s) => s.id === id);
    return i < 0 ? order.length : i;
  };
  const spaces = [...manifest.spaces].sort((a, b) => rank(a.id) - rank(b.id) || (a.key < b.key ? -1 : 1));
  await writeAtomic(join(root, MANIFEST), `${JSON.stringify({ ...manifest, spaces }, null, 2)}\n`);
}

/** A file of the backup (`rel`: from its root) compared with the folder's, written when it differs (not with `check`). */
export async function putFile(root: string, rel: string, text: string, check: boolean): Promise<{ changed: boolean; existed: boolean; sha256: string }> {
  const path = inside(root, rel);
  const data = Buffer.from(text);
  const there = await readIfThere(path);
  const changed = !there?.equals(data);
  if (changed && !check) {
    await mkdir(dirname(path), { recursive: true });
    await writeAtomic(path, data);
  }
  return { changed, existed: there !== undefined, sha256: sha256(data) };
}

/**
 * Where a specification's document goes: `openapi/<slug>.yaml`. A slug is the service's, which
 * docsctl does not trust: one that is not a plain name (letters, digits, `-`, `_`, `.`, not leading
 * `.`) gets none, and the specification stays without `file:` in the org file.
 */
export function openapiPath(slug: string): string | undefined {
  return /^[\w-][\w.-]{0,199}$/.test(slug) ? `${OPENAPI_DIR}/${slug}.yaml` : undefined;
}

/** The files in `openapi/` that are no specification's document now (`known`: their paths), as `openapi/<name>`. */
export async function extraDocuments(root: string, known: ReadonlySet<string>): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(root, OPENAPI_DIR), { withFileTypes: true });
  } catch (e) {
    if (['ENOENT', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return [];
    throw e;
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && !e.name.endsWith(PART_SUFFIX) && !known.has(`${OPENAPI_DIR}/${e.name}`))
    .map((e) => `${OPENAPI_DIR}/${e.name}${e.isDirectory() ? '/' : ''}`)
    .sort();
}

/** A space's folder name: its key, made safe (the id when the key cannot be one, or would be the backup's own files). */
export function folderName(key: string, id: string): string {
  const safe = key.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '-').trim();
  return isFolderName(safe) ? safe : `space-${id.replace(/[^\w-]/g, '-')}`;
}

function isFolderName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && name !== ORG_FILE && name !== MANIFEST && name !== OPENAPI_DIR && !/[\u0000-\u001f\u007f/\\]/.test(name);
}

/** A manifest's folder, checked to be a space folder of the backup (a manifest is read from disk). */
export function safeFolder(folder: string): string {
  if (!isFolderName(folder)) throw new Error(`not a space folder of a backup: ${folder}`);
  return folder;
}

/** The file count and checksum of a space's export (from its state file), as the manifest keeps them. */
export async function folderChecksum(dir: string): Promise<{ files: number; sha256: string }> {
  const state = await readState(dir);
  const entries = Object.entries(state?.files ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { files: entries.length, sha256: sha256(entries.map(([path, e]) => `${e.sha256} ${e.size} ${path}\n`).join('')) };
}

/** Whether a space's folder is as the manifest says: a complete export, the same checksum, every file there with its size. */
export async function folderIntact(dir: string, entry: BackupSpace): Promise<boolean> {
  const state = await readState(dir);
  if (!state?.complete) return false;
  if ((await folderChecksum(dir)).sha256 !== entry.sha256) return false;
  for (const [path, e] of Object.entries(state.files)) {
    try {
      if ((await stat(inside(dir, path))).size !== e.size) return false;
    } catch {
      return false;
    }
  }
  // A file the export never wrote: the space is exported again, which reports (or prunes) it.
  return (await extraFiles(dir, Object.keys(state.files))).length === 0;
}

/**
 * What the top of a backup holds that is not the backup's (`known`: the folders of the
 * organization's spaces and of the manifest's): a file other than the org file and the manifest, a
 * folder of no space (`name/`). Dot-files and dot-folders (`.git/`, `.github/`) are not the backup's
 * and are not listed.
 */
export async function extraEntries(root: string, known: ReadonlySet<string>): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return entries
    .filter(
      (e) =>
        !e.name.startsWith('.') &&
        !e.name.endsWith(PART_SUFFIX) &&
        e.name !== ORG_FILE &&
        e.name !== MANIFEST &&
        !(e.isDirectory() && (known.has(e.name) || e.name === OPENAPI_DIR)),
    )
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}
