/**
 * `moved:` notes (Terraform's moved blocks): `{kind: spaces, from: getting-started, to: start-here}`
 * says that the file's item with key `start-here` is the one that had key `getting-started`. An item
 * with an id needs none (the id matches it); an item without one whose key and title both change
 * would otherwise match nothing, and plan would delete the old one and create a new one. The old key
 * is matched as a key always is: against the key the service's item gets from its title (the key
 * export writes), after ids and before titles.
 */
import type { Path } from './model.js';
import type { MovableKind } from './schema.js';

export interface MovedNote {
  kind: MovableKind;
  from: string;
  to: string;
}

/**
 * The notes checked and indexed (per kind, new key → old key). `keysOf(kind)` gives the file's
 * keys of a kind; a note is a problem when its `to` is no key of the file, its `from` still is one,
 * or a key is moved twice.
 */
export function movedNotes(
  notes: readonly MovedNote[],
  keysOf: (kind: MovableKind) => readonly string[],
  report: (path: Path, message: string) => void,
): Map<MovableKind, Map<string, string>> {
  const out = new Map<MovableKind, Map<string, string>>();
  const froms = new Map<string, number>();
  notes.forEach((n, i) => {
    const at: Path = ['moved', i];
    const keys = new Set(keysOf(n.kind));
    const byTo = out.get(n.kind) ?? new Map<string, string>();
    const fromId = `${n.kind}:${n.from}`;
    if (!keys.has(n.to))
      report([...at, 'to'], `no item of ${n.kind} has the key ${JSON.stringify(n.to)} in this file (a moved note names the key the item has now)`);
    else if (keys.has(n.from))
      report([...at, 'from'], `${JSON.stringify(n.from)} is still a key of ${n.kind} in this file: a moved note names a key no item has any more`);
    else if (byTo.has(n.to)) report([...at, 'to'], `${n.kind} ${JSON.stringify(n.to)} is moved twice`);
    else if (froms.has(fromId)) report([...at, 'from'], `${n.kind} ${JSON.stringify(n.from)} is moved twice (moved[${froms.get(fromId)}] too)`);
    else {
      byTo.set(n.to, n.from);
      froms.set(fromId, i);
      out.set(n.kind, byTo);
    }
  });
  return out;
}

/**
 * The service's keys (id → key) as matching sees them with the notes of one kind: the item whose
 * key is a note's `from` takes its `to` (and an item that had `to` from its title gives it up).
 */
export function withMoved(liveKey: Map<string, string>, moved: Map<string, string> | undefined): Map<string, string> {
  if (!moved?.size) return liveKey;
  const idOfKey = new Map([...liveKey].map(([id, k]) => [k, id]));
  const out = new Map(liveKey);
  for (const [to, from] of moved) {
    const id = idOfKey.get(from);
    if (id === undefined) continue;
    const holder = idOfKey.get(to);
    if (holder !== undefined && holder !== id) out.set(holder, `${to}\u0000moved`);
    out.set(id, to);
  }
  return out;
}
