/**
 * Moving a collection or a space: `--parent ID` or `--root` names the new container; `--before` /
 * `--after SPACE` or `--before-collection` / `--after-collection COLLECTION` a place among its
 * children (one side next to that sibling, both sides between two neighbours). Both families send
 * the same body.
 */
import { nonEmpty } from '../cli/command.js';
import { UsageError } from '../cli/errors.js';

export interface PlacementFlags {
  parent?: string;
  root?: boolean;
  before?: string;
  after?: string;
  beforeCollection?: string;
  afterCollection?: string;
}

/** The placement flags of both move commands. */
export const PLACEMENT_FLAGS = {
  parent: { description: 'id of the collection to move it into', value: 'id' },
  root: { type: 'boolean', description: 'move to the organization’s root (parent null)' },
  before: { description: 'place it just before this space (in the target container)', value: 'space' },
  after: { description: 'place it just after this space (in the target container)', value: 'space' },
  beforeCollection: { description: 'place it just before this collection (in the target container)', value: 'collection' },
  afterCollection: { description: 'place it just after this collection (in the target container)', value: 'collection' },
} as const;

type Ref = { type: 'space'; space: string } | { type: 'collection'; collection: string };

/** The move body the flags ask for (to check against the operation), and the flags named by a bad position. */
export function placementOf(flags: PlacementFlags) {
  if (flags.parent !== undefined && flags.root) throw new UsageError('--parent and --root cannot be used together');
  const side = (space: string | undefined, collection: string | undefined, name: string): Ref | undefined => {
    if (space !== undefined && collection !== undefined) throw new UsageError(`--${name} and --${name}-collection cannot be used together`);
    if (space !== undefined) return { type: 'space', space };
    if (collection !== undefined) return { type: 'collection', collection };
    return undefined;
  };
  const before = side(flags.before, flags.beforeCollection, 'before');
  const after = side(flags.after, flags.afterCollection, 'after');
  return {
    input: {
      parent: flags.root ? null : flags.parent,
      position: before || after ? { ...(before ? { before } : {}), ...(after ? { after } : {}) } : undefined,
    },
    flagOf: { position: flags.before !== undefined ? '--before' : flags.beforeCollection !== undefined ? '--before-collection' : flags.after !== undefined ? '--after' : '--after-collection' },
  };
}

/** The checked body, unless it moves nothing. */
export function somewhere<T extends object>(body: T): T {
  return nonEmpty(body, 'pass --parent, --root, --before, --after, --before-collection or --after-collection', 'nowhere to move');
}
