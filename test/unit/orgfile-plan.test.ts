/** The planner's subtle parts: moves that keep the longest run in order, the top-level order of a site, matching, keys. */
import { describe, expect, it } from 'vitest';
import { topLevelOrder } from '../../src/orgfile/live.js';
import type { LStructure } from '../../src/orgfile/model.js';
import { parseOrgFile } from '../../src/orgfile/source.js';
import { longestIncreasing, match, movesFor, siteSteps } from '../../src/orgfile/sites.js';

/** Apply moves to a list as the service would. */
function applyMoves(list: string[], moves: ReturnType<typeof movesFor>): string[] {
  const out = [...list];
  for (const m of moves) {
    if (out.includes(m.ref)) out.splice(out.indexOf(m.ref), 1);
    if (m.before !== undefined) out.splice(out.indexOf(m.before), 0, m.ref);
    else if (m.after !== undefined) out.splice(out.indexOf(m.after) + 1, 0, m.ref);
    else out.push(m.ref);
  }
  return out;
}

describe('orgfile planner', () => {
  it('longestIncreasing finds a longest run in order', () => {
    expect([...longestIncreasing([3, 0, 1, 4, 2])].sort()).toEqual([1, 2, 4].sort());
    expect(longestIncreasing([]).size).toBe(0);
  });

  it('movesFor: few moves, and the result is the wanted order, for every permutation of 5', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const perms = (xs: string[]): string[][] =>
      xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    for (const wanted of perms(items)) {
      const moves = movesFor(wanted, items);
      expect(applyMoves(items, moves)).toEqual(wanted);
      const stay = longestIncreasing(items.map((x) => wanted.indexOf(x))).size;
      expect(moves).toHaveLength(items.length - stay);
    }
    // A swap of two is one move.
    expect(movesFor(['b', 'a'], ['a', 'b'])).toHaveLength(1);
  });

  it('topLevelOrder: sections and groups interleaved; unknown when an empty group sits among sections', () => {
    expect(topLevelOrder([{ id: 's1' }, { id: 's2', sectionGroup: 'g1' }, { id: 's3' }], [{ id: 'g1' }])).toEqual(['s1', 'g1', 's3']);
    expect(topLevelOrder([{ id: 's1' }], [{ id: 'g1' }])).toBeUndefined();
    expect(topLevelOrder([], [{ id: 'g1' }, { id: 'g2' }])).toEqual(['g1', 'g2']);
  });

  it('match: by id first, then key, then title; a live item is matched once', () => {
    const live = [
      { id: '1', title: 'A' },
      { id: '2', title: 'B' },
      { id: '3', title: 'C' },
    ];
    const keys = new Map([
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
    ]);
    const d = [
      { key: 'renamed', id: '1', title: 'Z' },
      { key: 'b', title: 'X' },
      { key: 'q', title: 'C' },
      { key: 'a', title: 'A' },
    ];
    const m = match(d, live, (x) => x.id, keys, [(x, l) => x.title === l.title]);
    expect([...m].map(([x, l]) => `${x.key}=${l.id}`)).toEqual(['renamed=1', 'b=2', 'q=3']);
  });

  it('siteSteps: a reorder is one move, and the plan over a simulation is in order for apply', () => {
    const desired = parseOrgFile(
      `version: 1
sites:
  - title: Site one
    sections:
      - { title: Two, siteSpaces: [{ space: s2 }] }
      - { title: One, siteSpaces: [{ space: s1 }] }
      - { title: Three, siteSpaces: [{ space: s3 }, { space: s4 }] }
`,
      'x.yaml',
    ).sites[0].structure!;
    const ss = (id: string, space: string) => ({ id, space, path: space, hidden: false, default: false });
    const live: LStructure = {
      mode: 'sections',
      items: [
        { type: 'section', id: 'A', title: 'One', path: 'one', default: true, siteSpaces: [ss('x1', 'S1')] },
        { type: 'section', id: 'B', title: 'Two', path: 'two', default: false, siteSpaces: [ss('x2', 'S2')] },
        { type: 'section', id: 'C', title: 'Three', path: 'three', default: false, siteSpaces: [ss('x4', 'S4'), ss('x3', 'S3')] },
      ],
    };
    const { steps, drift } = siteSteps({
      siteKey: 'site-one',
      organizationId: 'org',
      siteId: 'site',
      desired,
      live,
      prune: false,
      ids: new Map(),
      spaceKeyOf: (id) => id.toLowerCase(),
      spaceIdOf: (key) => key.toUpperCase(),
    });
    expect(drift).toEqual([]);
    expect(steps.map((s) => `${s.change.action} ${s.change.kind} ${s.change.key} ${s.change.note ?? ''}`.trim())).toEqual([
      'move section one after two',
      'move site-space s4 after s3',
    ]);
  });

  it('derived keys that collide are reported at the item, with the other one named', () => {
    expect(() => parseOrgFile('version: 1\nspaces:\n  - title: Hello World\n  - title: hello-world\n', 'k.yaml')).toThrow(
      /k\.yaml:4:5: spaces\[1\]: duplicate key "hello-world" \(from its title\): spaces\[0\] \(k\.yaml:3:5\) has it too/,
    );
  });
});
