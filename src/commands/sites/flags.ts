/** Flag helpers shared by the sites commands: move positions and true/false values. */
import { UsageError } from '../../cli/errors.js';

export interface MoveFlags {
  before?: string;
  after?: string;
  /** Only for groups: the anchor named is a section group (`{type: 'site-section-group', id}`). */
  beforeGroup?: string;
  afterGroup?: string;
  last?: boolean;
}

/** `--last`: the official document's move without a position. */
export const LAST_FLAG = { type: 'boolean', description: 'move it to the end (see the summary); no other placement flag' } as const;

type Ref = Record<string, string>;

/**
 * The move body and the flag that names its position in messages. One side places the item next to
 * that neighbour; both sides between two neighbours (which must be next to each other); `--last`
 * sends no position. Nothing at all, or `--last` with a side, is a usage error (exit 2).
 * `ref(id, group)` builds a reference (`group`: named by --before-group / --after-group).
 */
export function positionBody(flags: MoveFlags, ref: (id: string, group: boolean) => Ref): { body: Record<string, unknown>; flagOf: Record<string, string> } {
  const side = (name: 'before' | 'after'): Ref | undefined => {
    const plain = flags[name];
    const group = name === 'before' ? flags.beforeGroup : flags.afterGroup;
    if (plain !== undefined && group !== undefined) throw new UsageError(`--${name} and --${name}-group cannot be used together`);
    if (plain !== undefined) return ref(plain, false);
    if (group !== undefined) return ref(group, true);
    return undefined;
  };
  const before = side('before');
  const after = side('after');
  if (flags.last) {
    if (before || after) throw new UsageError('--last cannot be used with --before or --after');
    return { body: {}, flagOf: {} };
  }
  if (!before && !after) throw new UsageError('nowhere to move', 'pass --before ID, --after ID (or both, for a place between two neighbours), or --last');
  const named = flags.before !== undefined ? '--before' : flags.beforeGroup !== undefined ? '--before-group' : flags.after !== undefined ? '--after' : '--after-group';
  return { body: { position: { ...(before ? { before } : {}), ...(after ? { after } : {}) } }, flagOf: { position: named } };
}

/** `true`/`false` flag values, for API booleans that may also be left unchanged. */
export const BOOLEAN_CHOICES = ['true', 'false'] as const;
export function toBool(v: 'true' | 'false' | undefined): boolean | undefined {
  return v === undefined ? undefined : v === 'true';
}

/** `spaceId` of a new section or site space: `--space ID`, or null with `--new-space` (exactly one). */
export function spaceChoice(flags: { space?: string; newSpace?: boolean }): string | null {
  if (flags.space !== undefined && flags.newSpace) throw new UsageError('--space and --new-space cannot be used together');
  if (flags.space === undefined && !flags.newSpace) throw new UsageError('--space: is required', 'pass --space ID, or --new-space to create one');
  return flags.newSpace ? null : flags.space!;
}
