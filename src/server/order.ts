/** Ordered sibling lists and moves relative to a sibling (`{before}` or `{after}`). */

export interface RelativePosition {
  before?: string;
  after?: string;
}

/**
 * Where `id` lands in `list` when placed relative to its siblings: after `after`, before `before`,
 * between both (they must be neighbours), or where it is (last when it is not in the list) with
 * neither. Returns the new list, or null when an anchor is not in the list, is `id` itself, or the
 * two anchors are not neighbours: the caller answers 400 "invalid position". `list` is not modified.
 */
export function placeRelative(list: readonly string[], id: string, pos: RelativePosition): string[] | null {
  const { before, after } = pos;
  if (before === undefined && after === undefined) return list.includes(id) ? [...list] : [...list, id];
  if (before === id || after === id) return null;
  const rest = list.filter((x) => x !== id);
  if (after !== undefined) {
    const at = rest.indexOf(after);
    if (at < 0 || (before !== undefined && rest[at + 1] !== before)) return null;
    rest.splice(at + 1, 0, id);
    return rest;
  }
  const at = rest.indexOf(before!);
  if (at < 0) return null;
  rest.splice(at, 0, id);
  return rest;
}

/** True when two lists hold the same ids in the same order. */
export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
