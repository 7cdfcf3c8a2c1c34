/** What `cr merge` and `cr update` make of the service's `{revision, result}`. */
import { CliError, EXIT } from '../../cli/errors.js';
import type { MergeResult } from '../../contract/change-requests.js';
import type { CrParams } from './lookup.js';

export const outcomeFields = ['revision', 'result'];

/**
 * The result, or exit 6 when the space and the change request changed the same pages: the error
 * names them (when the service lists them) and says that nothing changed.
 */
export function checkOutcome(result: MergeResult, params: CrParams, what: 'merged' | 'updated'): MergeResult {
  if (result.result !== 'conflicts') return result;
  const { spaceId, changeRequestId: cr } = params;
  const pages = result.conflicts ?? [];
  const list = pages.map((p) => `\n  ${p.path || '(no path)'}  ${p.title || '(untitled)'}  ${p.id}`).join('');
  const which = pages.length > 0 ? `${pages.length} page${pages.length === 1 ? '' : 's'}:${list}` : 'the same pages';
  throw new CliError(
    `change request ${cr} was not ${what}: space ${spaceId} and the change request both changed ${which}`,
    EXIT.CONFLICT,
    'nothing was changed; make the two versions of these pages agree, then try again',
  );
}
