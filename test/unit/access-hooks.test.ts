/**
 * What the teams and invitations models tell the other families (the grants of spaces, collections
 * and sites answer to them): a deleted team, and a user who joined through a link to a space or a
 * collection. A store given a probe family hears exactly these.
 */
import { describe, expect, it } from 'vitest';
import { createLink, join, dropSpaceLinks, linksOf } from '../../src/server/invites/model.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { Store, type FamilyHooks } from '../../src/server/store.js';
import { deleteTeam, teamIn } from '../../src/server/teams/model.js';

function storeWithProbe() {
  const heard: unknown[] = [];
  const probe: FamilyHooks = {
    onTeamDeleted: (_store, teamId) => heard.push({ teamDeleted: teamId }),
    // Hears, and gives nothing (whether it changed anything: no).
    onContentInviteJoined: (_store, invite) => {
      heard.push({ joined: invite });
      return false;
    },
  };
  const store = new Store(undefined, [probe]);
  loadSeed(store, defaultSeed());
  return { store, heard };
}

describe('the access models tell the other families', () => {
  it('that a team was deleted', () => {
    const { store, heard } = storeWithProbe();
    deleteTeam(store, teamIn(store, 'org-acme', 'team-writers'));
    expect(store.data.teams.has('team-writers')).toBe(false);
    expect(heard).toEqual([{ teamDeleted: 'team-writers' }]);
  });

  it('that a user joined through a link to a space (a guest of the organization), and not for a link to the organization', () => {
    const { store, heard } = storeWithProbe();
    const olga = store.data.users.get('u-outsider')!;
    const toSpace = createLink(store, 'org-acme', { type: 'space', id: 'sp-welcome' }, 'edit', 'u-admin');
    join(store, toSpace, olga);
    expect(heard).toEqual([{ joined: { org: 'org-acme', user: 'u-outsider', target: { type: 'space', id: 'sp-welcome' }, level: 'edit' } }]);
    expect(store.member('org-acme', 'u-outsider')).toMatchObject({ role: null, disabled: false });

    heard.length = 0;
    join(store, createLink(store, 'org-acme', { type: 'organization' }, 'comment', 'u-admin'), olga);
    expect(heard).toEqual([]);
    expect(store.member('org-acme', 'u-outsider')?.role).toBe('comment');
  });

  it('a purged space takes its links with it', () => {
    const { store } = storeWithProbe();
    createLink(store, 'org-acme', { type: 'space', id: 'sp-welcome' }, 'read', 'u-admin');
    const kept = createLink(store, 'org-acme', { type: 'organization' }, 'read', 'u-admin');
    dropSpaceLinks(store, 'sp-welcome');
    expect(linksOf(store, 'org-acme')).toEqual([kept]);
  });
});
