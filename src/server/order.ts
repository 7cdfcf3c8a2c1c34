/**
 * The one move of the server's ordered lists (a container's spaces and collections, a site's
 * sections and groups, a section's site spaces): an item placed relative to its siblings.
 */
import { badRequest } from './errors.js';

export interface RelativePosition {
  before?: string;
  after?: string;
}

/**
 * Move `id` from the list `from` into `to` (the same list or another): after `after`, before
 * `before`, between both (they must be neighbours), or with neither where it is (last in `to` when
 * it comes from another list). The lists are changed in place (their owners hold them). Returns
 * whether the order changed. A 400 (changing nothing) when an anchor is not in `to`, is `id`
 * itself, or the two anchors are not neighbours; `where` names the target list in that message.
 */
export function moveItem(id: string, from: string[], to: string[], pos: RelativePosition, where?: string): boolean {
  const next = placeRelative(from === to ? to : to.filter((x) => x !== id), id, pos);
  if (!next) {
    const target = where ? ` in the target ${where}` : '';
    const side = pos.after !== undefined ? 'after' : 'before';
    throw badRequest(
      pos.after !== undefined && pos.before !== undefined
        ? `position: ${pos.after} and ${pos.before} are not next to each other${target}`
        : `position.${side}: ${pos[side]} is not a sibling ${id} can be placed by${target}`,
    );
  }
  const changed = from !== to || next.some((x, i) => x !== to[i]);
  if (from !== to) {
    const at = from.indexOf(id);
    if (at >= 0) from.splice(at, 1);
  }
  to.splice(0, to.length, ...next);
  return changed;
}

/** `list` with `id` placed as `moveItem` places it, or null when it cannot be. `list` is not modified. */
function placeRelative(list: readonly string[], id: string, pos: RelativePosition): string[] | null {
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
