/** The one Paginator's checks, on lists served by a function (what a server may send, page by page). */
import { describe, expect, it } from 'vitest';
import { TooManyPagesError } from '../../src/client/errors.js';
import { Paginator, type Page } from '../../src/client/paginator.js';

/** A list whose page n (cursor `next(n - 1)`) holds item n, and points to `next(n)` until `end`. */
function list(next: (n: number) => string, end = Infinity) {
  const asked: (string | undefined)[] = [];
  const byCursor = new Map<string, number>();
  const fetch = async (cursor: string | undefined): Promise<Page<number>> => {
    asked.push(cursor);
    const n = cursor === undefined ? 0 : byCursor.get(cursor)!;
    const page: Page<number> = { items: [n], count: Number.isFinite(end) ? end : 1e9 };
    if (n + 1 < end) {
      const c = next(n);
      if (!byCursor.has(c)) byCursor.set(c, n + 1);
      page.next = { page: c };
    }
    return page;
  };
  return { fetch, asked };
}

async function drain<T>(p: Paginator<T>): Promise<{ items: T[]; error?: Error }> {
  const items: T[] = [];
  try {
    for await (const item of p) items.push(item);
  } catch (e) {
    return { items, error: e as Error };
  }
  return { items };
}

describe('Paginator', () => {
  it('stops after maxPages requests of a list that goes on, having delivered their items', async () => {
    const l = list((n) => `c${n}`);
    const { items, error } = await drain(new Paginator(l.fetch, undefined, { maxPages: 7, name: 'GET /v1/x' }));
    expect(items).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(error).toBeInstanceOf(TooManyPagesError);
    expect(error!.message).toBe('GET /v1/x: the list goes on past 7 pages, the most docsctl reads of one list (the server still sent a next.page)');
    expect(l.asked).toHaveLength(7);
    // Exactly maxPages pages that end: read whole.
    expect(await drain(new Paginator(list((n) => `c${n}`, 7).fetch, undefined, { maxPages: 7 }))).toEqual({ items: [0, 1, 2, 3, 4, 5, 6] });
  });

  it('a cursor that comes back, short or long, is a malformed list; long distinct cursors are not mistaken for one another', async () => {
    for (const pad of ['', 'x'.repeat(5000)]) {
      // c0 → c1 → c2 → c0
      const l = list((n) => `${pad}c${n % 3}`);
      const { items, error } = await drain(new Paginator(l.fetch, undefined, { maxPages: 100 }));
      expect(items).toEqual([0, 1, 2, 3]);
      expect(error!.name).toBe('PageShapeError');
      expect(error!.message).toContain('next.page goes back to a page already read');
      expect(l.asked).toHaveLength(4);
    }
    const long = list((n) => `${'y'.repeat(300)}${n}`, 3000);
    expect((await drain(new Paginator(long.fetch, undefined, { maxPages: 5000 }))).items).toHaveLength(3000);
  });

  it('take(max) asks for no more than it needs, and answers() gives the pages as answered', async () => {
    const l = list((n) => `c${n}`);
    const got: number[] = [];
    for await (const item of new Paginator(l.fetch, undefined, { maxPages: 100 }).take(3)) got.push(item);
    expect(got).toEqual([0, 1, 2]);
    expect(l.asked).toHaveLength(3);
    const pages: Page<number>[] = [];
    for await (const page of new Paginator(list((n) => `c${n}`, 2).fetch).answers()) pages.push(page);
    expect(pages).toEqual([
      { items: [0], count: 2, next: { page: 'c0' } },
      { items: [1], count: 2 },
    ]);
  });
});
