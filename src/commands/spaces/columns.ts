/** How a space shows in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import { RETENTION_DAYS, type ListedSpace, type Space } from '../../contract/spaces.js';

export const spaceFields: Column<Space>[] = [
  'id',
  'title',
  'emoji',
  'visibility',
  'organization',
  'parent',
  'editMode',
  'language',
  'defaultLevel',
  'revision',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'changeRequestsOpen',
  'comments',
  { key: 'app', header: 'url', value: (s) => s.urls.app },
];
export const spaceColumns: Column<Space>[] = withExtras(['id', 'title', 'visibility', 'parent', 'updatedAt'], spaceFields);

const DAY_MS = 86_400_000;

/** Until when a deleted space can be restored: the service's answer, else its deletion + 7 days. */
function restorableUntil(s: ListedSpace): number {
  return s.trash ? Date.parse(s.trash.restorableUntil) : Date.parse(s.deletedAt ?? '') + RETENTION_DAYS * DAY_MS;
}

/**
 * Seconds left to restore a deleted space: the sandbox says it (its clock may have been moved);
 * otherwise counted on this machine's clock.
 */
function secondsLeft(s: ListedSpace): number {
  return s.trash ? s.trash.secondsLeft : Math.max(0, Math.floor((restorableUntil(s) - Date.now()) / 1000));
}

/** `6d 23h`, `5h 12m`, `42m`, `<1m`. */
export function formatTimeLeft(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m` : '<1m';
}

/** Columns of `spaces list --deleted`. */
export const trashColumns: Column<ListedSpace>[] = withExtras(
  [
    'id',
    'title',
    'parent',
    'deletedAt',
    { key: 'restorableUntil', value: (s) => new Date(restorableUntil(s)).toISOString(), priority: 'low' },
    { key: 'timeLeft', value: (s) => formatTimeLeft(secondsLeft(s)) },
  ],
  spaceFields,
);
