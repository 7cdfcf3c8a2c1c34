/**
 * Moving a collection or a space: `--parent ID` or `--root` names the new container, `--before` or
 * `--after SPACE` a place among its children. Both families send the same body.
 */
import { nonEmpty } from '../cli/command.js';
import { UsageError } from '../cli/errors.js';

export interface PlacementFlags {
  parent?: string;
  root?: boolean;
  before?: string;
  after?: string;
}

/** The move body the flags ask for (to check against the operation), and the flag named by a bad position. */
export function placementOf(flags: PlacementFlags) {
  if (flags.parent !== undefined && flags.root) throw new UsageError('--parent and --root cannot be used together');
  if (flags.before !== undefined && flags.after !== undefined) throw new UsageError('--before and --after cannot be used together');
  const side = flags.before !== undefined ? 'before' : 'after';
  const anchor = flags[side];
  return {
    input: {
      parent: flags.root ? null : flags.parent,
      position: anchor === undefined ? undefined : { [side]: { type: 'space' as const, space: anchor } },
    },
    flagOf: { position: `--${side}` },
  };
}

/** The checked body, unless it moves nothing. */
export function somewhere<T extends object>(body: T): T {
  return nonEmpty(body, 'pass --parent, --root, --before or --after', 'nowhere to move');
}
