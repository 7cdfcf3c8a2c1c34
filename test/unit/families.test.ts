/**
 * Families are explicit records assembled in routes.ts, given to the store: nothing registers on
 * import. And the one cache of values derived from the state (Store.derived, typed keys).
 */
import { describe, expect, it } from 'vitest';
import { families as contract } from '../../src/contract/index.js';
import { derivedKey } from '../../src/server/derived.js';
import { spaceCounters, type Family } from '../../src/server/family.js';
import { createSpaceRec } from '../../src/server/handlers/spaces.js';
import { families, routes } from '../../src/server/routes.js';
import { Store, type FamilyHooks } from '../../src/server/store.js';

/** The contract module's ops a family routes. */
const opsOf = (f: Family) => Object.values(contract).find((ops) => Object.values(ops).includes(f.routes[0].op as never));

describe('families', () => {
  it('route every operation of the contract exactly once', () => {
    const routed = routes.map((r) => r.op.id).sort();
    expect(routed).toEqual(
      Object.values(contract)
        .flatMap((ops) => Object.values(ops).map((o) => o.id))
        .sort(),
    );
    expect(new Set(routed).size).toBe(routed.length);
    expect(routes).toEqual(families.flatMap((f) => f.routes));
  });

  it('are what a store is told and asked: its own families only, whatever modules were loaded', () => {
    const calls: string[] = [];
    const probe: FamilyHooks = {
      counters: { space: (_s, spaceId) => ({ comments: spaceId.length }) },
      onSpacePurged: (s, spaceId) => calls.push(`purged ${spaceId} ${s === store}`),
      onStateImport: (s) => calls.push(`imported ${s === store}`),
    };
    // Every family module is loaded (routes.ts imports them all), yet a store given only the probe hears only it.
    const store = new Store(undefined, [probe]);
    store.addUser({ id: 'u-1', displayName: 'One', email: 'one@x.test', token: 'sbx_one' });
    store.data.sandboxAdmin = 'u-1';
    const space = createSpaceRec(store, { org: 'o-1', id: 'sp-abc' });
    expect(spaceCounters(store, space.id)).toEqual({ comments: 6, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    store.purgeSpace(space.id);
    store.importState(store.exportState());
    expect(calls).toEqual(['purged sp-abc true', 'imported true']);
    // A store without families: no counters from anyone.
    expect(spaceCounters(new Store(), space.id).comments).toBe(0);
  });

  it('declare the counters, purge and import hooks and downloads they own', () => {
    const named = (pick: (f: Family) => unknown) =>
      families.filter(pick).map((f) => Object.keys(contract).find((k) => (contract as Record<string, object>)[k] === opsOf(f)));
    expect(named((f) => f.counters)).toEqual(['changeRequests', 'comments']);
    expect(named((f) => f.onSpacePurged)).toEqual(['changeRequests', 'comments', 'sites', 'content', 'permissions']);
    expect(named((f) => f.onStateImport)).toEqual(['openapi']);
    expect(families.flatMap((f) => Object.keys(f.downloads ?? {}))).toEqual(['change-request-pdf']);
  });
});

describe('cacheable operations', () => {
  it('are reads of one object, declared on the operation in the contract', () => {
    const cacheable = routes.filter((r) => r.op.cacheable);
    expect(cacheable.map((r) => r.op.id).sort()).toEqual([
      'getAuthenticatedUser',
      'getCollection',
      'getOrganization',
      'getSpace',
      'getSpaceContent',
      'getSpacePage',
      'listSpacePages',
    ]);
    for (const { op } of cacheable) expect([op.method, op.paginated ?? false]).toEqual(['GET', false]);
  });
});

describe('Store.derived', () => {
  it('computes a value once per version of the state, under a typed key of its own', () => {
    const store = new Store();
    const a = derivedKey<number[]>('numbers');
    const b = derivedKey<number[]>('numbers');
    let computed = 0;
    const first = store.derived.get(a, () => [++computed]);
    expect(store.derived.get(a, () => [++computed])).toBe(first);
    // Keys are compared by identity, not by name.
    expect(store.derived.get(b, () => [++computed])).toEqual([2]);
    expect(store.derived.peek(a)).toBe(first);
    store.changed();
    expect(store.derived.peek(a)).toBeUndefined();
    expect(store.derived.get(a, () => [++computed])).toEqual([3]);
  });
});
