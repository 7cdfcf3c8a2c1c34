/** The server's one ordered-list move (src/server/order.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/errors.js';
import { moveItem } from '../../src/server/order.js';

const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** The 400 `moveItem` throws, or undefined when it moved. */
function refusal(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) return err.message;
    throw err;
  }
}

describe('moveItem', () => {
  it('places after, before, or between neighbours, in the same list or into another', () => {
    const one = ['a', 'b', 'c'];
    expect(moveItem('c', one, one, { before: 'a' })).toBe(true);
    expect(one).toEqual(['c', 'a', 'b']);
    expect(moveItem('c', one, one, { after: 'a', before: 'b' })).toBe(true);
    expect(one).toEqual(['a', 'c', 'b']);
    const from = ['x', 'y'];
    const to = ['a', 'b'];
    expect(moveItem('x', from, to, { after: 'a' })).toBe(true);
    expect([from, to]).toEqual([['y'], ['a', 'x', 'b']]);
    // Neither anchor: where it is in its own list, last in another.
    expect(moveItem('a', to, to, {})).toBe(false);
    expect(moveItem('y', from, to, {})).toBe(true);
    expect([from, to]).toEqual([[], ['a', 'x', 'b', 'y']]);
  });

  it('says when nothing changed, and refuses self, missing or non-neighbour anchors, changing nothing', () => {
    const list = ['a', 'b', 'c'];
    expect(moveItem('b', list, list, { after: 'a' })).toBe(false);
    expect(refusal(() => moveItem('a', list, list, { before: 'a' }))).toBe('position.before: a is not a sibling a can be placed by');
    expect(refusal(() => moveItem('a', list, list, { after: 'zz' }, 'site s-1'))).toBe(
      'position.after: zz is not a sibling a can be placed by in the target site s-1',
    );
    expect(refusal(() => moveItem('b', list, list, { after: 'a', before: 'c' }))).toBeUndefined();
    expect(refusal(() => moveItem('c', list, list, { after: 'b', before: 'a' }))).toMatch(/^position: b and a are not next to each other$/);
    expect(refusal(() => moveItem('x', ['x'], list, { after: 'a', before: 'c' }, 'collection c-1'))).toBe(
      'position: a and c are not next to each other in the target collection c-1',
    );
    expect(list).toEqual(['a', 'b', 'c']);
  });

  it('keeps the set of items and puts the item where asked, in any sequence of moves between two lists', () => {
    const move = fc.record({
      item: fc.nat(7),
      anchor: fc.nat(7),
      other: fc.nat(7),
      into: fc.nat(1),
      side: fc.constantFrom('before', 'after', 'between', 'none'),
    });
    fc.assert(
      fc.property(fc.nat(8), fc.array(move, { maxLength: 40 }), (split, moves) => {
        const lists = [IDS.slice(0, split), IDS.slice(split)];
        for (const m of moves) {
          const id = IDS[m.item];
          const from = lists.find((l) => l.includes(id))!;
          const to = lists[m.into];
          const rest = to.filter((x) => x !== id);
          const anchor = rest.length ? rest[m.anchor % rest.length] : undefined;
          const pos =
            m.side === 'none' || anchor === undefined
              ? {}
              : m.side === 'between'
                ? { after: anchor, ...(rest[rest.indexOf(anchor) + 1] ? { before: rest[rest.indexOf(anchor) + 1] } : {}) }
                : { [m.side]: anchor };
          const before = lists.map((l) => [...l]);
          const changed = moveItem(id, from, to, pos);
          // The same items, each once, across the two lists.
          expect([...lists[0], ...lists[1]].sort()).toEqual(IDS);
          expect(to).toContain(id);
          if ('after' in pos) expect(to.indexOf(id)).toBe(to.indexOf(pos.after!) + 1);
          if ('before' in pos) expect(to.indexOf(id)).toBe(to.indexOf(pos.before!) - 1);
          if (!('after' in pos) && !('before' in pos)) expect(to.indexOf(id)).toBe(from === to ? before[m.into].indexOf(id) : to.length - 1);
          expect(changed).toBe(lists.some((l, i) => l.join() !== before[i].join()));
        }
      }),
    );
  });

  it('refuses an anchor that is not in the target list or is the item, changing nothing', () => {
    fc.assert(
      fc.property(fc.nat(8), fc.nat(7), fc.nat(7), fc.boolean(), (split, i, j, after) => {
        const lists = [IDS.slice(0, split), IDS.slice(split)];
        const id = IDS[i];
        const from = lists.find((l) => l.includes(id))!;
        const to = lists.find((l) => !l.includes(IDS[j])) ?? lists[0];
        fc.pre(i === j || !to.includes(IDS[j]));
        const before = lists.map((l) => [...l]);
        expect(refusal(() => moveItem(id, from, to, after ? { after: IDS[j] } : { before: IDS[j] }))).toMatch(/^position\.(after|before): \w is not a sibling/);
        expect(lists).toEqual(before);
      }),
    );
  });
});
