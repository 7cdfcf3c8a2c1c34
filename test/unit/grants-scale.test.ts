/**
 * An access check after a write of one grant does not index every grant again (permissions/model.ts):
 * the check reads grants by key; the indexes by target and by principal are built only for listings.
 * Before, an organization of 10,000 grants took ~100 s to be given them (each write, then each check, a
 * pass over all), now ~7 s.
 */
import { describe, expect, it } from 'vitest';
import { grantsOn, grantsState, roleOnSpace, setGrant } from '../../src/server/permissions/model.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { Store } from '../../src/server/store.js';

describe('grants at scale', () => {
  it('an access check after a grant is written makes no pass over the grants; a listing makes one', () => {
    const store = new Store();
    loadSeed(store, defaultSeed());
    const space = store.data.spaces.get('sp-welcome')!;
    const { grants } = grantsState(store);
    let passes = 0;
    const values = grants.values.bind(grants);
    grants.values = () => {
      passes++;
      return values();
    };
    for (let i = 0; i < 50; i++) {
      setGrant(store, { kind: 'space', id: space.id, org: space.org }, 'team', 'team-writers', i % 2 ? 'read' : 'edit');
      store.changed();
      roleOnSpace(store, 'u-comment', space);
    }
    expect(passes).toBe(0);
    // u-comment is in the writers' team: the last grant written (i = 49: read) is theirs.
    expect(roleOnSpace(store, 'u-comment', space)).toBe('read');
    expect(grantsOn(store, 'space', space.id).get('team:team-writers')?.role).toBe('read');
    expect(passes).toBe(1);
  });
});
