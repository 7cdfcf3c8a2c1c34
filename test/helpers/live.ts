/**
 * The organization as the planner reads it (src/orgfile/model.ts), for the planner's unit tests:
 * items with the defaults the service answers, and what a case changes.
 */
import type { LSite, LSpace } from '../../src/orgfile/model.js';

/** A private space with the service's defaults. */
export const liveSpace = (id: string, title: string, extra: Partial<LSpace> = {}): LSpace => ({
  id,
  title,
  emoji: '',
  visibility: 'private',
  defaultLevel: 'inherit',
  mergeRules: { type: 'inherit' },
  editMode: 'live',
  ...extra,
});

/** A public basic site with no site spaces. */
export const liveSite = (id: string, title: string, extra: Partial<LSite> = {}): LSite => ({
  id,
  title,
  type: 'basic',
  visibility: 'public',
  published: true,
  defaultLevel: 'inherit',
  adaptiveContent: false,
  structure: { mode: 'siteSpaces', siteSpaces: [] },
  ...extra,
});
