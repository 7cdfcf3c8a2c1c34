/** Pages and files of a change request's content, and a page or file given by id, path or name, as the content commands find them in a space. */
import type { Api } from '../../client/api.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ops } from '../../contract/change-requests.js';
import type { File, Page } from '../../contract/content.js';
import { findFileRef, findPageRef, flattenPages, type PageRow } from '../content/lookup.js';

export interface CrParams {
  spaceId: string;
  changeRequestId: string;
}

export async function listCrPages(api: Api, params: CrParams): Promise<Page[]> {
  return (await api.call(ops.listChangeRequestPages, { params, query: { metadata: false } })).pages;
}

/** The page `ref` names in the change request's content: a page id, or a path such as `guide/install`. */
export async function resolveCrPage(api: Api, params: CrParams, ref: string): Promise<PageRow> {
  const rows = flattenPages(await listCrPages(api, params));
  try {
    return findPageRef(rows, ref, params.spaceId);
  } catch (err) {
    if (!(err instanceof CliError) || err.exitCode !== EXIT.NOT_FOUND) throw err;
    const { spaceId, changeRequestId: cr } = params;
    throw new CliError(
      `no page "${ref}" in change request ${cr} of space ${spaceId} (by id or path)`,
      EXIT.NOT_FOUND,
      `list its pages: docsctl cr pages ${spaceId} ${cr}`,
    );
  }
}

/** The file `ref` names in the change request's content: a file id, or a file name when exactly one file has it. */
export async function resolveCrFile(api: Api, params: CrParams, ref: string): Promise<File> {
  const files: File[] = [];
  for await (const f of api.paginate(ops.listChangeRequestFiles, { params, query: { metadata: false } })) files.push(f);
  const { spaceId, changeRequestId: cr } = params;
  return findFileRef(files, ref, `change request ${cr} of space ${spaceId}`, `docsctl cr files ${spaceId} ${cr}`);
}
