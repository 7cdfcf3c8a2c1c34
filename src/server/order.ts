/** Ordered sibling lists and moves relative to a sibling (`{before}` or `{after}`). */

export interface RelativePosition {
  before?: string;
  after?: string;
}

/**
 * Where `id` lands in `list` when placed relative to an anchor. Returns the new list, or null when
 * the anchor is not in the list (or is `id` itself): the caller answers 400 "invalid position".
 * `list` is not modified.
 */
export function placeRelative(list: readonly string[], id: string, pos: RelativePosition): string[] | null {
  const anchor = pos.before ?? pos.after;
  if (anchor === undefined || anchor === id) return null;
  const rest = list.filter((x) => x !== id);
  const at = rest.indexOf(anchor);
  if (at < 0) return null;
  rest.splice(pos.before !== undefined ? at : at + 1, 0, id);
  return rest;
}

/** True when two lists hold the same ids in the same order. */
export function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
