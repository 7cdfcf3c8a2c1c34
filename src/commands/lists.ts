/**
 * Several lists read as one (`cr list --status all`: one list per status; `permissions list`: the
 * users' grants, then the teams'): each list in turn, through one Paginator. Its cursor is
 * `<list index>.<that list's cursor>`; its count is the sum of each list's count (asked for once,
 * with `limit=0`, before the first page).
 */
import { UsageError } from '../cli/errors.js';
import type { Api, Page, Paginator } from '../client/api.js';

/** One page of one of the lists. */
export type PageFetch<T> = (cursor: string | undefined, limit: number) => Promise<Page<T>>;

/**
 * The lists one after another. `name` names the whole in messages; `command` is the command whose
 * `--page` takes its cursors (`cr list --status all`), for the message about a cursor that is not one.
 */
export function concatLists<T>(api: Api, lists: readonly PageFetch<T>[], start: string | undefined, name: string, command: string): Paginator<T> {
  let counts: number[] | undefined;
  return api.paginator(
    async (cursor, limit) => {
      counts ??= await Promise.all(lists.map(async (fetch) => (await fetch(undefined, 0)).count));
      const total = counts.reduce((a, b) => a + b, 0);
      const { at, inner } = parseCursor(cursor, lists.length, command);
      const nonEmpty = (from: number) => counts!.findIndex((n, j) => j >= from && n > 0);
      const i = nonEmpty(at);
      if (i < 0) return { items: [], count: total };
      const page = await lists[i](i === at ? inner : undefined, limit);
      const after = nonEmpty(i + 1);
      const next = page.next ? `${i}.${page.next.page}` : after >= 0 ? `${after}.` : undefined;
      return { items: page.items, count: total, ...(next ? { next: { page: next } } : {}) };
    },
    start,
    name,
  );
}

function parseCursor(cursor: string | undefined, lists: number, command: string): { at: number; inner?: string } {
  if (cursor === undefined) return { at: 0 };
  const m = /^(\d+)\.(.*)$/s.exec(cursor);
  if (!m || Number(m[1]) >= lists) throw new UsageError(`--page: not a cursor of \`${command}\` (take it from the previous list)`);
  return { at: Number(m[1]), ...(m[2] ? { inner: m[2] } : {}) };
}
