/**
 * Client-side lookups shared by the content commands: a page given by id or path, a file by id or
 * name, found in the lists the service answers (so they work against the real service too).
 */
import type { Api } from '../../client/api.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { ops, type File, type Page } from '../../contract/content.js';

/** A page without its subpages: one row of a flattened tree. */
export type PageRow = Omit<Page, 'pages'>;

/** Every page of a tree, depth first, without nested `pages`. */
export function flattenPages(pages: readonly Page[], out: PageRow[] = []): PageRow[] {
  for (const { pages: children, ...page } of pages) {
    out.push(page);
    flattenPages(children ?? [], out);
  }
  return out;
}

export async function listPages(api: Api, spaceId: string): Promise<Page[]> {
  return (await api.call(ops.listSpacePages, { params: { spaceId }, query: { metadata: false } })).pages;
}

/** The page `ref` names: a page id, or a path such as `getting-started/install`. */
export function findPageRef(pages: readonly PageRow[], ref: string, spaceId: string): PageRow {
  const byId = pages.find((p) => p.id === ref);
  if (byId) return byId;
  const path = ref.replace(/^\/+|\/+$/g, '');
  const matches = pages.filter((p) => p.path === path);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(`page path "${path}" is ambiguous in space ${spaceId}: ${matches.map((p) => p.id).join(', ')}`, 'pass the page id');
  }
  throw new CliError(`no page "${ref}" in space ${spaceId} (by id or path)`, EXIT.NOT_FOUND, `list its pages: docsctl content pages ${spaceId}`);
}

export async function resolvePage(api: Api, spaceId: string, ref: string): Promise<PageRow> {
  return findPageRef(flattenPages(await listPages(api, spaceId)), ref, spaceId);
}

/**
 * The file `ref` names among `files`: a file id, or a file name when exactly one file has it. `where`
 * names the place in errors (`space sp_1`), `list` the command that lists its files.
 */
export function findFileRef(files: readonly File[], ref: string, where: string, list: string): File {
  const byId = files.find((f) => f.id === ref);
  if (byId) return byId;
  const matches = files.filter((f) => f.name === ref);
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError(`file name "${ref}" is ambiguous in ${where}: ${matches.map((f) => f.id).join(', ')}`, 'pass the file id');
  }
  throw new CliError(`no file "${ref}" in ${where} (by id or name)`, EXIT.NOT_FOUND, `list its files: ${list}`);
}

/** The file `ref` names in a space: a file id, or a file name when exactly one file has it. */
export async function resolveFile(api: Api, spaceId: string, ref: string): Promise<File> {
  const files: File[] = [];
  for await (const f of api.paginate(ops.listSpaceFiles, { params: { spaceId }, query: { metadata: false } })) files.push(f);
  return findFileRef(files, ref, `space ${spaceId}`, `docsctl content files ${spaceId}`);
}
