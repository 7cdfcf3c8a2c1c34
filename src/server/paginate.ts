/**
 * Opaque cursors over an ordered list. A cursor holds the offset and the key of the last item
 * served, so a page is found without a scan when nothing moved, and by key when something did.
 */
import { createHash } from 'node:crypto';
import { badRequest } from './errors.js';

const DEFAULT_PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

interface Cursor {
  s: string; // scope: which list (and filters) the cursor belongs to
  o: number; // offset of the next item
  k: string; // key of the last item served
}

export function scopeOf(...parts: unknown[]): string {
  return createHash('sha1').update(JSON.stringify(parts)).digest('base64url').slice(0, 10);
}

export function paginate<T>(all: readonly T[], query: { page?: string; limit?: number }, keyOf: (item: T) => string, scope: string): Page<T> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (query.page !== undefined) {
    const cursor = decode(query.page);
    if (!cursor || cursor.s !== scope) throw badRequest('page: invalid cursor for this list (take it from next.page)');
    start = cursor.o;
    const prev = all[cursor.o - 1];
    if (!prev || keyOf(prev) !== cursor.k) {
      // The list changed under the cursor: resume after the last item served, if it is still there.
      const at = all.findIndex((item) => keyOf(item) === cursor.k);
      if (at >= 0) start = at + 1;
    }
    start = Math.min(start, all.length);
  }
  const items = all.slice(start, start + limit);
  const end = start + items.length;
  const page: Page<T> = { items, count: all.length };
  if (end < all.length && items.length > 0) {
    page.next = { page: encode({ s: scope, o: end, k: keyOf(items[items.length - 1]) }) };
  }
  return page;
}

function encode(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decode(text: string): Cursor | null {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    return typeof c.s === 'string' && Number.isInteger(c.o) && c.o >= 0 && typeof c.k === 'string' ? c : null;
  } catch {
    return null;
  }
}
