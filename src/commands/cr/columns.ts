/** How a change request shows in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import type { ChangeRequest } from '../../contract/change-requests.js';
import { documentText } from './description.js';

const createdBy: Column<ChangeRequest> = { key: 'createdBy', value: (cr) => cr.createdBy?.id };

export const crFields: Column<ChangeRequest>[] = [
  'number',
  'id',
  'status',
  'subject',
  { key: 'description', value: (cr) => (cr.description ? documentText(cr.description) : undefined) },
  'space',
  createdBy,
  'createdAt',
  'updatedAt',
  'revision',
  'revisionInitial',
  'revisionMergedAncestor',
  'revisionMerged',
  { key: 'mergedBy', value: (cr) => cr.mergedBy?.id },
  'mergedAt',
  'outdated',
  'comments',
  { key: 'links', value: (cr) => cr.links?.map((l) => (l.title ? `${l.title} <${l.ref.url}>` : l.ref.url)).join(', ') },
  { key: 'app', header: 'url', value: (cr) => cr.urls.app },
];

export const crColumns: Column<ChangeRequest>[] = withExtras(['id', 'number', 'status', 'subject', createdBy, 'updatedAt', 'space'], crFields);

/** A change request argument: its number (`3` or `#3`) or its id. */
export function crRef(arg: string): string {
  return arg.replace(/^#(?=\d+$)/, '');
}

/** The path parameters of a change request, from the `space` and `cr` arguments. */
export function crParams(args: { space: string; cr: string }) {
  return { spaceId: args.space, changeRequestId: crRef(args.cr) };
}

/** The two positional arguments of every command on one change request. */
export const CR_ARGS = [
  { name: 'space', description: 'space id' },
  { name: 'cr', description: 'change request number (e.g. 3) or id' },
] as const;
