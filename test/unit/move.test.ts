/** The one move helper of the CLI (src/commands/move.ts): the position a move's flags ask for. */
import { describe, expect, it } from 'vitest';
import type { CliError } from '../../src/cli/errors.js';
import { ops as collectionOps } from '../../src/contract/collections.js';
import { ops as siteOps } from '../../src/contract/sites.js';
import { placementBody, positionOf, siteMoveBody } from '../../src/commands/move.js';

const space = (id: string) => ({ type: 'space', space: id });
const collection = (id: string) => ({ type: 'collection', collection: id });
const sides = { before: { before: space, beforeCollection: collection }, after: { after: space, afterCollection: collection } };

describe('positionOf', () => {
  it('builds one side, both sides, or none, and names the first flag given', () => {
    expect(positionOf({}, sides)).toEqual({});
    expect(positionOf({ after: 'sp-1' }, sides)).toEqual({ position: { after: space('sp-1') }, flag: '--after' });
    expect(positionOf({ beforeCollection: 'col-1', after: 'sp-2' }, sides)).toEqual({
      position: { before: collection('col-1'), after: space('sp-2') },
      flag: '--before-collection',
    });
    expect(positionOf({ afterCollection: 'col-2' }, sides).flag).toBe('--after-collection');
  });
});

describe('placementBody (collections and spaces)', () => {
  it('sends the container and the position; --root is parent null', () => {
    expect(placementBody(collectionOps.moveCollection, { parent: 'col-a', before: 'sp-1' })).toEqual({ parent: 'col-a', position: { before: space('sp-1') } });
    expect(placementBody(collectionOps.moveCollection, { root: true })).toEqual({ parent: null });
  });

  it('refuses to move nowhere, and names the position flag of a bad position', () => {
    expect(() => placementBody(collectionOps.moveCollection, {})).toThrow('nowhere to move');
    try {
      placementBody(collectionOps.moveCollection, { afterCollection: '' });
      expect.unreachable();
    } catch (e) {
      expect((e as CliError).exitCode).toBe(2);
      expect((e as Error).message).toMatch(/^--after-collection: /);
    }
  });
});

describe('siteMoveBody (sections, groups, site spaces)', () => {
  const ref = (id: string) => ({ type: 'site-section', siteSection: id });
  const siteSides = { before: { before: ref }, after: { after: ref } };
  it('sends no position with --last, a position otherwise, and refuses nothing at all', () => {
    expect(siteMoveBody(siteOps.moveSiteSection, { last: true }, siteSides)).toEqual({});
    expect(siteMoveBody(siteOps.moveSiteSection, { before: 'sec-1' } as { last?: boolean }, siteSides)).toEqual({ position: { before: ref('sec-1') } });
    expect(() => siteMoveBody(siteOps.moveSiteSection, {}, siteSides)).toThrow('nowhere to move');
  });
});
