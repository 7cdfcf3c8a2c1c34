/**
 * What the files own (their `owns:`; docs/org-as-code.md, "Several files, and owning part of an
 * organization"): `--prune` deletes an item the files do not have only when a file owns it. A file
 * without `owns:` owns every item of the kinds it declares (what a single file always did); with it,
 * only the kinds it lists whole, the collection subtrees it names (the collections and spaces inside,
 * of the kinds it declares, never the named collection itself) and the sites it names. Two teams with
 * a file each, each owning its own subtree, never delete each other's items.
 */
import type { Kind } from './schema.js';

export interface Owner {
  source: string;
  /** The kinds the file declares (a list, even empty). */
  declares: Set<Kind>;
  /** The kinds it owns whole. */
  whole: Set<Kind>;
  /** Collection subtrees it owns: keys (of the files, else of the organization) or ids. */
  collections: string[];
  /** Sites it owns: keys or ids. */
  sites: string[];
}

/** The live organization as ownership needs it. */
export interface OwnedLive {
  collections: { id: string; parent?: string }[];
  sites: { id: string }[];
}

/** An owned reference to its live id: the files' key (matched), else the organization's key, else an id. */
export type Resolve = (kind: 'collection' | 'site', ref: string) => string | undefined;

export interface Ownership {
  collection(c: { id: string }): boolean;
  space(s: { parent?: string }): boolean;
  site(s: { id: string }): boolean;
  /** Members, SAML providers, OpenAPI specifications: owned only whole. */
  whole(kind: Kind): boolean;
}

/** Everything owned: no owners given (a Desired built without files). */
const ALL: Ownership = { collection: () => true, space: () => true, site: () => true, whole: () => true };

export function ownership(owners: Owner[] | undefined, live: OwnedLive, resolve: Resolve): Ownership {
  if (!owners) return ALL;
  const children = new Map<string, string[]>();
  for (const c of live.collections) if (c.parent) children.set(c.parent, [...(children.get(c.parent) ?? []), c.id]);
  const ownedSites = new Set<string>();
  const declares = (k: Kind) => owners.some((o) => o.declares.has(k));
  const whole = (k: Kind) => owners.some((o) => o.whole.has(k));
  /** Collections whose spaces a file owns (its roots and what is inside), and collections it owns (inside its roots). */
  const spacesBy = new Set<string>();
  const collectionsBy = new Set<string>();
  for (const o of owners) {
    for (const ref of o.collections) {
      const root = resolve('collection', ref);
      if (root === undefined) continue;
      const stack = [root];
      const mine = new Set<string>();
      while (stack.length) {
        const id = stack.pop()!;
        if (mine.has(id)) continue;
        mine.add(id);
        stack.push(...(children.get(id) ?? []));
      }
      for (const id of mine) {
        if (o.declares.has('spaces')) spacesBy.add(id);
        if (o.declares.has('collections') && id !== root) collectionsBy.add(id);
      }
    }
    if (o.declares.has('sites'))
      for (const ref of o.sites) {
        const id = resolve('site', ref);
        if (id !== undefined) ownedSites.add(id);
      }
  }
  return {
    collection: (c) => declares('collections') && (whole('collections') || collectionsBy.has(c.id)),
    space: (s) => declares('spaces') && (whole('spaces') || (s.parent !== undefined && spacesBy.has(s.parent))),
    site: (s) => declares('sites') && (whole('sites') || ownedSites.has(s.id)),
    whole: (k) => whole(k),
  };
}
