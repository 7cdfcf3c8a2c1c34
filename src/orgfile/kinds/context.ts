/**
 * What each kind's differ (desired, live → steps) is given: the file and the service's items,
 * matched kind by kind, the ids and keys known, and how member keys map to user ids.
 */
import type { MergeRules } from '../../contract/spaces.js';
import type { DCollection, Desired, DSaml, DSite, DSpace, DTeam, LCollection, Live, LSaml, LSite, LSpace, LTeam } from '../model.js';
import type { Ownership } from '../owns.js';
import type { Drift, IdRef, Kept, Step } from '../steps.js';

export interface PlanContext {
  desired: Desired;
  live: Live;
  prune: boolean;
  org: string;
  /** `kind:key` → id, for everything the file may refer to (matched items of declared kinds, all of the others). */
  ids: Map<string, string>;
  /** id → key of the service's items, kind by kind, as export writes them (plan.ts liveKeys). */
  keys: Record<'collection' | 'space' | 'site' | 'member' | 'saml' | 'team', Map<string, string>>;
  /** The id of a `kind:key`: known now, or a reference to the id an earlier step makes. */
  idRef(name: string): string | IdRef;
  /** id → key, for showing the service's values. */
  keyOfId: { collection: Map<string, string>; space: Map<string, string>; member: Map<string, string>; team: Map<string, string> };
  memberKeyToUser: Map<string, string>;
  teamKeyToId: Map<string, string>;
  liveMember: Map<string, Live['members'][number]>;
  /** Merge rules with member keys as the API has them (user ids), and back. */
  rulesToApi(rules: MergeRules): MergeRules;
  rulesToFile(rules: MergeRules): MergeRules;
  matched: {
    collectionOf: Map<DCollection, LCollection>;
    spaceOf: Map<DSpace, LSpace>;
    siteOf: Map<DSite, LSite>;
    samlOf: Map<DSaml, LSaml>;
    teamOf: Map<DTeam, LTeam>;
  };
  /** What --prune may delete: what the files own (owns.ts). */
  owned: Ownership;
}

/** What a differ gives: the steps of its kind, what apply cannot make, what the file does not have (kept without --prune). */
export interface KindDiff {
  steps: Step[];
  drift: Drift[];
  kept: Kept[];
}
