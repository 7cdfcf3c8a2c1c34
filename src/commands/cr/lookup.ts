/** Pages of a change request's content, and a page given by id or path, as the content commands find them in a space. */
import type { Api } from '../../client/api.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { ops } from '../../contract/change-requests.js';
import type { Page } from '../../contract/content.js';
import { findPageRef, flattenPages, type PageRow } from '../content/lookup.js';

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
    throw new CliError(`no page "${ref}" in change request ${cr} of space ${spaceId} (by id or path)`, EXIT.NOT_FOUND, `list its pages: docsctl cr pages ${spaceId} ${cr}`);
  }
}
