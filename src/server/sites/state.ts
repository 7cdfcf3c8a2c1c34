/**
 * The sites family's state and the structure's invariants. A site's structure is a tree: its root
 * list holds section and group ids, each group's `children` holds section and group ids, each
 * section's `siteSpaces` its site spaces; a site without sections keeps its site spaces in its own
 * `siteSpaces` list. Every list is ordered exactly as created and moved. `settle` restores the
 * defaults after any change: one default section while any exist, one default site space per
 * section (or per site without sections) while it has any.
 */
import type { DefaultLevel } from '../../contract/op.js';
import type { AdaptiveJsonSchema, Localized, SiteType } from '../../contract/sites.js';
import type { Store } from '../store.js';
import { slugify } from '../lib/slug.js';

export interface SiteRec {
  id: string;
  org: string;
  type: SiteType;
  title: string;
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  published: boolean;
  createdAt: string;
  /** Raises every member's role on the site to at least this one (absent in states saved before it: null). */
  defaultLevel?: DefaultLevel;
  basename?: string;
  proxy?: string;
  adaptiveContent: boolean;
  agentsContext: 'excluded' | 'included';
  /** The secret of a share-link site's URLs. */
  shareKey: string;
  /** Top level of the tree: section and group ids. */
  structure: string[];
  /** Site spaces of a site without sections. */
  siteSpaces: string[];
  defaultSection?: string;
  /** Default of `siteSpaces` (site without sections). */
  defaultSiteSpace?: string;
  adaptiveSchema?: { jsonSchema: AdaptiveJsonSchema; updatedAt: string };
}
/**
 * `draft`: not live, so visitors do not see it. A new item is a draft unless its site is published
 * (or the request says otherwise); publishing a site makes all of its items live. States saved
 * before drafts existed read as live.
 */
interface Drafted {
  draft?: boolean;
}

export interface SectionRec extends Drafted {
  id: string;
  site: string;
  title: string;
  localizedTitle?: Localized;
  path: string;
  description?: string;
  localizedDescription?: Localized;
  condition?: string;
  icon?: string;
  /** The group holding it; absent at the root. */
  group?: string;
  siteSpaces: string[];
  defaultSiteSpace?: string;
}
export interface GroupRec extends Drafted {
  id: string;
  site: string;
  title: string;
  localizedTitle?: Localized;
  icon?: string;
  /** The parent group; absent at the root. */
  group?: string;
  /** Section and group ids. */
  children: string[];
}
export interface SiteSpaceRec extends Drafted {
  id: string;
  site: string;
  /** Its section; absent in a site without sections. */
  section?: string;
  space: string;
  /** Its own title; absent: its space's. */
  title?: string;
  /** The page of its space shown at its root. */
  pageId?: string;
  path: string;
  condition?: string;
  hidden: boolean;
}

export interface SitesState {
  sites: Map<string, SiteRec>;
  sections: Map<string, SectionRec>;
  groups: Map<string, GroupRec>;
  siteSpaces: Map<string, SiteSpaceRec>;
}

export function sitesState(store: Store): SitesState {
  return store.slice<SitesState>('sites', () => ({ sites: new Map(), sections: new Map(), groups: new Map(), siteSpaces: new Map() }));
}

/** The list that holds a section or group: its group's children, or the site's root. */
export function containerOf(st: SitesState, site: SiteRec, item: { group?: string }): string[] {
  return item.group ? st.groups.get(item.group)!.children : site.structure;
}

/** The list that holds a site space: its section's, or the site's own. */
export function siteSpaceListOf(st: SitesState, site: SiteRec, ss: { section?: string }): string[] {
  return ss.section ? st.sections.get(ss.section)!.siteSpaces : site.siteSpaces;
}

/** Sections and groups of a site, depth first in structure order. */
export function walk(st: SitesState, site: SiteRec): { sections: SectionRec[]; groups: GroupRec[] } {
  const sections: SectionRec[] = [];
  const groups: GroupRec[] = [];
  const visit = (ids: string[]) => {
    for (const id of ids) {
      const section = st.sections.get(id);
      if (section) sections.push(section);
      const group = st.groups.get(id);
      if (group) {
        groups.push(group);
        visit(group.children);
      }
    }
  };
  visit(site.structure);
  return { sections, groups };
}

/**
 * Site spaces of a site in structure order: section by section, then the site's own list (which
 * holds site spaces only while the site has no sections).
 */
export function siteSpacesOf(st: SitesState, site: SiteRec): SiteSpaceRec[] {
  const ids = [...walk(st, site).sections.flatMap((s) => s.siteSpaces), ...site.siteSpaces];
  return ids.map((id) => st.siteSpaces.get(id)!);
}

/** A group and every group below it. */
export function subtreeGroups(st: SitesState, group: GroupRec): Set<string> {
  const out = new Set<string>([group.id]);
  for (const id of group.children) {
    const child = st.groups.get(id);
    if (child) for (const g of subtreeGroups(st, child)) out.add(g);
  }
  return out;
}

/** Remove an id from a list in place. */
export function removeFrom(list: string[], id: string): void {
  const at = list.indexOf(id);
  if (at >= 0) list.splice(at, 1);
}

/** Replace a list's content in place (containers are referenced by their owners). */
export function replaceContent(list: string[], next: readonly string[]): void {
  list.splice(0, list.length, ...next);
}

/** Restore the defaults after a change (see the module comment). */
export function settle(st: SitesState, site: SiteRec): void {
  const { sections } = walk(st, site);
  if (!sections.some((s) => s.id === site.defaultSection)) {
    if (sections.length) site.defaultSection = sections[0].id;
    else delete site.defaultSection;
  }
  for (const section of sections) {
    const first = section.siteSpaces[0];
    if (section.defaultSiteSpace === undefined || !section.siteSpaces.includes(section.defaultSiteSpace)) {
      if (first) section.defaultSiteSpace = first;
      else delete section.defaultSiteSpace;
    }
  }
  if (site.defaultSiteSpace === undefined || !site.siteSpaces.includes(site.defaultSiteSpace)) {
    if (site.siteSpaces.length) site.defaultSiteSpace = site.siteSpaces[0];
    else delete site.defaultSiteSpace;
  }
}

/** True when the site space is the default of its section (or of its site without sections). */
export function isDefaultSiteSpace(st: SitesState, site: SiteRec, ss: SiteSpaceRec): boolean {
  return ss.section ? st.sections.get(ss.section)?.defaultSiteSpace === ss.id : site.defaultSiteSpace === ss.id;
}

/** A URL segment from a title (the pages' slug function, cut at 90 characters to leave room for a `-N`). */
export const sitePathOf = (text: string, fallback: string): string => slugify(text, fallback, 90);

/** `base`, or `base-2`, `base-3`... whichever is not taken. */
export function uniquePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Drop a site space (the caller settles the site afterwards). */
export function dropSiteSpace(st: SitesState, site: SiteRec, ss: SiteSpaceRec): void {
  removeFrom(siteSpaceListOf(st, site, ss), ss.id);
  st.siteSpaces.delete(ss.id);
}

/** Drop a site with all of its structure. */
export function dropSite(st: SitesState, site: SiteRec): void {
  const { sections, groups } = walk(st, site);
  for (const ss of siteSpacesOf(st, site)) st.siteSpaces.delete(ss.id);
  for (const s of sections) st.sections.delete(s.id);
  for (const g of groups) st.groups.delete(g.id);
  st.sites.delete(site.id);
}
