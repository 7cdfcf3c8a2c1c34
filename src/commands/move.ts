/**
 * The one move helper of the CLI. Every move command places its item next to a neighbour: `--before`
 * / `--after` (and, where the neighbour may be of another kind, `--before-KIND` / `--after-KIND`);
 * one side puts it next to that neighbour, both sides between two neighbours. The flags of one side
 * exclude each other (declared to commander, see FlagSpec.conflicts); this builds the API's
 * `position` from them, and names the flag that messages about the position should name.
 *
 * Collections and spaces also take a container (`--parent ID` or `--root`); site sections, groups
 * and site spaces take `--last` instead of a position (the official move without one).
 */
import { checkBody, nonEmpty } from '../cli/command.js';
import { kebab, type FlagSpec } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import type { AnyOp, OpBody } from '../contract/op.js';

/** A neighbour's reference, as the operation's body takes it. */
type Ref = Record<string, string>;

/** The flags of one side, by key, each with the reference its id makes: `{ before: spaceRef, beforeCollection: collectionRef }`. */
export type Side = Record<string, (id: string) => Ref>;

/** The body's `position` from the flags given, and the flag that names it in messages (the first one given, before then after). */
export function positionOf(flags: Record<string, unknown>, sides: { before: Side; after: Side }): { position?: { before?: Ref; after?: Ref }; flag?: string } {
  let flag: string | undefined;
  const pick = (side: Side): Ref | undefined => {
    for (const [key, ref] of Object.entries(side)) {
      const id = flags[key];
      if (typeof id !== 'string') continue;
      flag ??= `--${kebab(key)}`;
      return ref(id);
    }
    return undefined;
  };
  const before = pick(sides.before);
  const after = pick(sides.after);
  if (!before && !after) return {};
  return { position: { ...(before ? { before } : {}), ...(after ? { after } : {}) }, flag };
}

// ---- collections and spaces: a container and a place among its children ----

const space = (id: string): Ref => ({ type: 'space', space: id });
const collection = (id: string): Ref => ({ type: 'collection', collection: id });
const ORG_SIDES = { before: { before: space, beforeCollection: collection }, after: { after: space, afterCollection: collection } };

/** The placement flags of `collections move` and `spaces move`. */
export const PLACEMENT_FLAGS = {
  parent: { description: 'id of the collection to move it into', value: 'collection', conflicts: ['root'] },
  root: { type: 'boolean', description: 'move to the organization’s root (parent null)' },
  before: { description: 'place it just before this space (in the target container)', value: 'space', conflicts: ['beforeCollection'] },
  after: { description: 'place it just after this space (in the target container)', value: 'space', conflicts: ['afterCollection'] },
  beforeCollection: { description: 'place it just before this collection (in the target container)', value: 'collection' },
  afterCollection: { description: 'place it just after this collection (in the target container)', value: 'collection' },
} as const;

export interface PlacementFlags {
  parent?: string;
  root?: boolean;
  before?: string;
  after?: string;
  beforeCollection?: string;
  afterCollection?: string;
}

/** The checked body of a collection's or a space's move; nothing to move is a usage error. */
export function placementBody<O extends AnyOp>(op: O, flags: PlacementFlags): OpBody<O> {
  const { position, flag } = positionOf(flags as Record<string, unknown>, ORG_SIDES);
  const body = checkBody(op, { parent: flags.root ? null : flags.parent, position }, flag ? { position: flag } : {});
  return nonEmpty(body as object, 'pass --parent, --root, --before, --after, --before-collection or --after-collection', 'nowhere to move') as OpBody<O>;
}

// ---- sites: a place among the site's sections and groups, or among site spaces ----

/** `--last`: the official document's move without a position; not with the side flags named. */
export function lastFlag(description: string, sides: readonly string[]) {
  return { type: 'boolean', description, conflicts: sides } as const satisfies FlagSpec;
}

/**
 * The checked body of a site move: `--last` sends none; else one side or both. Nothing at all is a
 * usage error (exit 2).
 */
export function siteMoveBody<O extends AnyOp>(op: O, flags: { last?: boolean }, sides: { before: Side; after: Side }): OpBody<O> {
  if (flags.last) return checkBody(op, {});
  const { position, flag } = positionOf(flags as Record<string, unknown>, sides);
  if (!position) throw new UsageError('nowhere to move', 'pass --before ID, --after ID (or both, for a place between two neighbours), or --last');
  return checkBody(op, { position }, { position: flag! });
}
