/**
 * Reading a Map of the state around its journal: with `serve --data`, the state's Maps are the
 * journal's tables (persist/journal.ts), which record every entry handed out.
 */

/** The entries of a Map without a journal noticing (see persist/journal.ts): for reading, or deleting through the Map. */
export function rawEntries<K, V>(map: Map<K, V>): IterableIterator<[K, V]> {
  return Map.prototype.entries.call(map) as IterableIterator<[K, V]>;
}
