/**
 * Sites and their structure: sections, section groups and site spaces, the published profile and
 * the adaptive-content schema. Members with the read role view; the create role creates sites;
 * the admin role changes, publishes and deletes them and everything in their structure.
 * Every list keeps the order that creations and moves gave it.
 */
import { ops } from '../../contract/sites.js';
import type { Role } from '../../contract/op.js';
import { orgFor, requireRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { placeRelative } from '../order.js';
import { paginate, scopeOf } from '../paginate.js';
import { onSpacePurged, type SpaceRec } from '../store.js';
import { emptyAdaptiveSchema, templateConditions } from '../sites/adaptive.js';
import {
  containerOf, dropSite, dropSiteSpace, removeFrom, replaceContent, settle, siteSpaceListOf, siteSpacesOf,
  sitesState, slugify, subtreeGroups, uniquePath, walk,
  type GroupRec, type SectionRec, type SiteRec, type SiteSpaceRec, type SitesState,
} from '../sites/state.js';
import {
  groupView, listedSiteSpaces, memberOpts, sectionView, siteAs, siteAsReader, siteSpaceView, siteView, spaceForSite,
  structureView, type SiteParams,
} from '../sites/views.js';

// A space purged for good leaves every site that showed it.
onSpacePurged((store, spaceId) => {
  const st = sitesState(store);
  for (const ss of [...st.siteSpaces.values()]) {
    if (ss.space !== spaceId) continue;
    const site = st.sites.get(ss.site)!;
    dropSiteSpace(st, site, ss);
    settle(st, site);
  }
});

/** The site for an operation that needs `min`, with the family's state. */
function open(ctx: HandlerCtx, params: SiteParams, min: Role, what: string): { st: SitesState; site: SiteRec } {
  return { site: siteAs(ctx, params, min, what), st: sitesState(ctx.store) };
}

function sectionIn(st: SitesState, site: SiteRec, sectionId: string): SectionRec | undefined {
  const s = st.sections.get(sectionId);
  return s && s.site === site.id ? s : undefined;
}
function groupIn(st: SitesState, site: SiteRec, groupId: string): GroupRec | undefined {
  const g = st.groups.get(groupId);
  return g && g.site === site.id ? g : undefined;
}
function siteSpaceIn(st: SitesState, site: SiteRec, siteSpaceId: string): SiteSpaceRec | undefined {
  const ss = st.siteSpaces.get(siteSpaceId);
  return ss && ss.site === site.id ? ss : undefined;
}

function mustSection(st: SitesState, site: SiteRec, id: string): SectionRec {
  const s = sectionIn(st, site, id);
  if (!s) throw notFound(`no section ${id} in site ${site.id}`);
  return s;
}
function mustGroup(st: SitesState, site: SiteRec, id: string): GroupRec {
  const g = groupIn(st, site, id);
  if (!g) throw notFound(`no section group ${id} in site ${site.id}`);
  return g;
}
function mustSiteSpace(st: SitesState, site: SiteRec, id: string): SiteSpaceRec {
  const ss = siteSpaceIn(st, site, id);
  if (!ss) throw notFound(`no site space ${id} in site ${site.id}`);
  return ss;
}

/** The anchor of a move: which side, the id, and the body field that names it. */
function anchorOf(position: { before?: Record<string, unknown>; after?: Record<string, unknown> }, key: string) {
  const side = position.before ? 'before' : 'after';
  return { side, id: String(position[side]![key]), field: `position.${side}.${key}` } as const;
}

/** A new site space at the end of its section's list (or of the site's own), with a free path. */
function addSiteSpace(st: SitesState, site: SiteRec, space: SpaceRec, section: SectionRec | undefined): SiteSpaceRec {
  const list = section ? section.siteSpaces : site.siteSpaces;
  const taken = new Set(list.map((id) => st.siteSpaces.get(id)!.path));
  const ss: SiteSpaceRec = {
    id: newId(), site: site.id, space: space.id, path: uniquePath(slugify(space.title, 'space'), taken), hidden: false,
    ...(section ? { section: section.id } : {}),
  };
  st.siteSpaces.set(ss.id, ss);
  list.push(ss.id);
  return ss;
}

/** A new, empty section at the end of the site's root, with a free path. */
function addSection(st: SitesState, site: SiteRec, title: string): SectionRec {
  const taken = new Set(walk(st, site).sections.map((s) => s.path));
  const section: SectionRec = { id: newId(), site: site.id, title, path: uniquePath(slugify(title, 'section'), taken), siteSpaces: [] };
  st.sections.set(section.id, section);
  site.structure.push(section.id);
  return section;
}

/** Put a section or group next to an anchor, in the anchor's container (which may be another group). */
function placeNextTo(st: SitesState, site: SiteRec, item: SectionRec | GroupRec, anchor: SectionRec | GroupRec, side: 'before' | 'after'): void {
  const from = containerOf(st, site, item);
  const to = containerOf(st, site, anchor);
  const next = placeRelative(to, item.id, { [side]: anchor.id })!;
  if (from !== to) removeFrom(from, item.id);
  replaceContent(to, next);
  if (anchor.group) item.group = anchor.group;
  else delete item.group;
}

export const handlers: Handlers<typeof ops> = {
  // --- Sites ---------------------------------------------------------------------------------

  listSites: (ctx, { params, query }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'read', 'listing sites');
    const st = sitesState(ctx.store);
    const title = query.title?.toLowerCase();
    const all = [...st.sites.values()].filter(
      (s) =>
        s.org === params.organizationId &&
        (query.published === undefined || s.published === query.published) &&
        (title === undefined || s.title.toLowerCase().includes(title)) &&
        (query.space === undefined || siteSpacesOf(st, s).some((ss) => ss.space === query.space)),
    );
    const page = paginate(all, query, (s) => s.id, scopeOf('sites', params.organizationId, query.space, title, query.published));
    return { ...page, items: page.items.map((s) => siteView(ctx, s, memberOpts(ctx, s))) };
  },

  createSite: (ctx, { params, body }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'create', 'creating a site');
    const spaceIds = body.spaces ?? [];
    const spaces = spaceIds.map((id, i) => {
      if (spaceIds.indexOf(id) !== i) throw badRequest(`spaces[${i}]: space ${id} is listed twice`);
      return spaceForSite(ctx, params.organizationId, id, `spaces[${i}]`);
    });
    const st = sitesState(ctx.store);
    const site: SiteRec = {
      id: newId(), org: params.organizationId, type: body.type ?? 'basic', title: body.title ?? 'Untitled site',
      visibility: body.visibility ?? 'public', published: false, createdAt: ctx.store.now(),
      adaptiveContent: false, agentsContext: 'included', shareKey: newId(), structure: [], siteSpaces: [],
    };
    st.sites.set(site.id, site);
    for (const space of spaces) addSiteSpace(st, site, space, undefined);
    settle(st, site);
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site');
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  updateSite: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a site');
    let defaultSection = site.defaultSection;
    if (body.defaultSiteSection !== undefined) {
      const section = sectionIn(st, site, body.defaultSiteSection);
      if (!section) throw badRequest(`defaultSiteSection: no section ${body.defaultSiteSection} in site ${site.id}`);
      defaultSection = section.id;
    }
    const defaultSiteSpace = body.defaultSiteSpace === undefined ? undefined : siteSpaceIn(st, site, body.defaultSiteSpace);
    if (body.defaultSiteSpace !== undefined) {
      if (!defaultSiteSpace) throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} in site ${site.id}`);
      if (defaultSiteSpace.section !== defaultSection) {
        throw badRequest(`defaultSiteSpace: site space ${defaultSiteSpace.id} is not in the default section ${defaultSection} (a section's own default is set on the section)`);
      }
    }
    if (body.hostname) {
      const taken = [...st.sites.values()].find((s) => s.id !== site.id && s.hostname === body.hostname);
      if (taken) throw badRequest(`hostname: ${body.hostname} is already the hostname of another site`);
    }
    if (body.title !== undefined) site.title = body.title;
    if (body.visibility !== undefined) site.visibility = body.visibility;
    if (body.agentsContext !== undefined) site.agentsContext = body.agentsContext;
    if (body.adaptiveContent !== undefined) site.adaptiveContent = body.adaptiveContent.enabled;
    for (const key of ['basename', 'hostname', 'proxy'] as const) {
      const value = body[key];
      if (value === null) delete site[key];
      else if (value !== undefined) site[key] = value;
    }
    site.defaultSection = defaultSection;
    if (defaultSiteSpace) {
      if (defaultSiteSpace.section) st.sections.get(defaultSiteSpace.section)!.defaultSiteSpace = defaultSiteSpace.id;
      else site.defaultSiteSpace = defaultSiteSpace.id;
    }
    settle(st, site);
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  deleteSite: (ctx, { params }) => {
    const existing = sitesState(ctx.store).sites.get(params.siteId);
    // A missing target answers 204 too (service-api.md, Errors rule 1).
    if (!existing || existing.org !== params.organizationId) return undefined;
    const { st, site } = open(ctx, params, 'admin', 'deleting a site');
    dropSite(st, site);
    return undefined;
  },

  publishSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'admin', 'publishing a site');
    site.published = true;
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  unpublishSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'admin', 'unpublishing a site');
    site.published = false;
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getPublishedSite: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    return { object: 'published-content-site', site: siteView(ctx, site, opts), structure: structureView(ctx, site, { ...opts, live: true }) };
  },

  // --- Adaptive content ----------------------------------------------------------------------

  getAdaptiveSchema: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site’s adaptive schema');
    const saved = site.adaptiveSchema;
    return { object: 'site-adaptive-schema', jsonSchema: saved?.jsonSchema ?? emptyAdaptiveSchema(), updatedAt: saved?.updatedAt ?? site.createdAt };
  },

  putAdaptiveSchema: (ctx, { params, body }) => {
    const { site } = open(ctx, params, 'admin', 'setting a site’s adaptive schema');
    site.adaptiveSchema = { jsonSchema: body.jsonSchema, updatedAt: ctx.store.now() };
    return { object: 'site-adaptive-schema', ...site.adaptiveSchema };
  },

  listTemplateConditions: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site’s template conditions');
    return { items: templateConditions(site.adaptiveSchema?.jsonSchema ?? emptyAdaptiveSchema()) };
  },

  // --- Sections ------------------------------------------------------------------------------

  listSiteSections: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    const all = walk(sitesState(ctx.store), site).sections;
    const page = paginate(all, query, (s) => s.id, scopeOf('site-sections', site.id));
    return { ...page, items: page.items.map((s) => sectionView(ctx, site, s, opts)) };
  },

  createSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section');
    const space = spaceForSite(ctx, site.org, body.spaceId, 'spaceId');
    // The first section of a site with site spaces: they become a first section of their own.
    if (site.siteSpaces.length && walk(st, site).sections.length === 0) {
      const lead = st.siteSpaces.get(site.defaultSiteSpace ?? site.siteSpaces[0])!;
      const first = addSection(st, site, ctx.store.data.spaces.get(lead.space)?.title || site.title);
      first.siteSpaces = site.siteSpaces;
      first.defaultSiteSpace = lead.id;
      for (const id of first.siteSpaces) st.siteSpaces.get(id)!.section = first.id;
      site.siteSpaces = [];
      delete site.defaultSiteSpace;
    }
    const section = addSection(st, site, body.title ?? (space.title || 'Untitled'));
    if (body.icon !== undefined) section.icon = body.icon;
    addSiteSpace(st, site, space, section);
    settle(st, site);
    return sectionView(ctx, site, section, memberOpts(ctx, site));
  },

  updateSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a section');
    const section = mustSection(st, site, params.siteSectionId);
    if (body.path !== undefined) {
      const other = walk(st, site).sections.find((s) => s.id !== section.id && s.path === body.path);
      if (other) throw badRequest(`path: "${body.path}" is already the path of section ${other.id}; paths are unique within a site`);
    }
    if (body.defaultSiteSpace !== undefined && !section.siteSpaces.includes(body.defaultSiteSpace)) {
      throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} in section ${section.id}`);
    }
    if (body.title !== undefined) section.title = body.title;
    if (body.path !== undefined) section.path = body.path;
    if (body.defaultSiteSpace !== undefined) section.defaultSiteSpace = body.defaultSiteSpace;
    for (const key of ['condition', 'icon', 'description'] as const) {
      const value = body[key];
      if (value === null) delete section[key];
      else if (value !== undefined) section[key] = value;
    }
    return sectionView(ctx, site, section, memberOpts(ctx, site));
  },

  deleteSiteSection: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a section');
    const section = sectionIn(st, site, params.siteSectionId);
    if (!section) return undefined;
    removeFrom(containerOf(st, site, section), section.id);
    for (const id of section.siteSpaces) st.siteSpaces.delete(id);
    st.sections.delete(section.id);
    settle(st, site);
    return undefined;
  },

  moveSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a section');
    const section = mustSection(st, site, params.siteSectionId);
    const { side, id, field } = anchorOf(body.position, 'siteSection');
    const anchor = sectionIn(st, site, id) ?? groupIn(st, site, id);
    if (!anchor) throw badRequest(`${field}: no section or section group ${id} in site ${site.id}`);
    if (anchor === section) throw badRequest(`${field}: a section cannot be placed relative to itself`);
    placeNextTo(st, site, section, anchor, side);
    return sectionView(ctx, site, section, memberOpts(ctx, site));
  },

  // --- Section groups ------------------------------------------------------------------------

  listSiteSectionGroups: (ctx, { params, query }) => {
    const { st, site } = open(ctx, params, 'read', 'viewing a site’s section groups');
    const page = paginate(walk(st, site).groups, query, (g) => g.id, scopeOf('site-section-groups', site.id));
    const opts = memberOpts(ctx, site);
    return { ...page, items: page.items.map((g) => groupView(ctx, site, g, opts)) };
  },

  createSiteSectionGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section group');
    const parent = body.parent === undefined ? undefined : groupIn(st, site, body.parent);
    if (body.parent !== undefined && !parent) throw badRequest(`parent: no section group ${body.parent} in site ${site.id}`);
    const ids = body.sections ?? [];
    const sections = ids.map((id, i) => {
      if (ids.indexOf(id) !== i) throw badRequest(`sections[${i}]: section ${id} is listed twice`);
      const section = sectionIn(st, site, id);
      if (!section) throw badRequest(`sections[${i}]: no section ${id} in site ${site.id}`);
      return section;
    });
    const group: GroupRec = {
      id: newId(), site: site.id, title: body.title ?? 'Untitled', children: [],
      ...(parent ? { group: parent.id } : {}),
      ...(body.icon !== undefined ? { icon: body.icon } : {}),
    };
    st.groups.set(group.id, group);
    // In place of its first section when that one is where the group goes; at the end otherwise.
    const target = containerOf(st, site, group);
    const at = sections.length ? target.indexOf(sections[0].id) : -1;
    if (at >= 0) target.splice(at, 0, group.id);
    else target.push(group.id);
    for (const section of sections) {
      removeFrom(containerOf(st, site, section), section.id);
      section.group = group.id;
      group.children.push(section.id);
    }
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  updateSiteSectionGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a section group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    if (body.title !== undefined) group.title = body.title;
    if (body.icon === null) delete group.icon;
    else if (body.icon !== undefined) group.icon = body.icon;
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  deleteSiteSectionGroup: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a section group');
    const group = groupIn(st, site, params.siteSectionGroupId);
    if (!group) return undefined;
    // Its sections and groups take its place, in order.
    const container = containerOf(st, site, group);
    container.splice(container.indexOf(group.id), 1, ...group.children);
    for (const id of group.children) {
      const child = st.sections.get(id) ?? st.groups.get(id)!;
      if (group.group) child.group = group.group;
      else delete child.group;
    }
    st.groups.delete(group.id);
    settle(st, site);
    return undefined;
  },

  addSiteSectionToGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section to a group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    const section = sectionIn(st, site, body.sectionId);
    if (!section) throw badRequest(`sectionId: no section ${body.sectionId} in site ${site.id}`);
    if (section.group !== group.id) {
      removeFrom(containerOf(st, site, section), section.id);
      group.children.push(section.id);
      section.group = group.id;
    }
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  removeSiteSectionFromGroup: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'removing a section from a group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    const section = sectionIn(st, site, params.siteSectionId);
    if (!section || section.group !== group.id) return undefined;
    // It goes just after the group, in the group's own container.
    removeFrom(group.children, section.id);
    const container = containerOf(st, site, group);
    container.splice(container.indexOf(group.id) + 1, 0, section.id);
    if (group.group) section.group = group.group;
    else delete section.group;
    return undefined;
  },

  moveSiteSectionGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a section group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    const { side, id, field } = anchorOf(body.position, 'id');
    const anchor = sectionIn(st, site, id) ?? groupIn(st, site, id);
    if (!anchor) throw badRequest(`${field}: no section or section group ${id} in site ${site.id}`);
    const inside = subtreeGroups(st, group);
    if (inside.has(anchor.id) || (anchor.group !== undefined && inside.has(anchor.group))) {
      throw badRequest(`${field}: a section group cannot be placed relative to itself or to an item inside it`);
    }
    placeNextTo(st, site, group, anchor, side);
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  // --- Site spaces ---------------------------------------------------------------------------

  listSiteSpaces: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    const views = listedSiteSpaces(ctx, site, opts).map((ss) => siteSpaceView(ctx, site, ss, opts));
    const all = query.default === undefined ? views : views.filter((v) => v.default === query.default);
    return paginate(all, query, (v) => v.id, scopeOf('site-spaces', site.id, query.default, opts.live));
  },

  createSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a site space');
    const space = spaceForSite(ctx, site.org, body.spaceId, 'spaceId');
    const section = body.sectionId === undefined ? (site.defaultSection ? st.sections.get(site.defaultSection) : undefined) : sectionIn(st, site, body.sectionId);
    if (body.sectionId !== undefined && !section) throw badRequest(`sectionId: no section ${body.sectionId} in site ${site.id}`);
    const ss = addSiteSpace(st, site, space, section);
    settle(st, site);
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },

  updateSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a site space');
    const ss = mustSiteSpace(st, site, params.siteSpaceId);
    if (body.path !== undefined) {
      const other = siteSpaceListOf(st, site, ss).find((id) => id !== ss.id && st.siteSpaces.get(id)!.path === body.path);
      if (other) throw badRequest(`path: "${body.path}" is already the path of site space ${other}; paths are unique within a section`);
    }
    const space = body.spaceId === undefined ? undefined : spaceForSite(ctx, site.org, body.spaceId, 'spaceId');
    if (body.path !== undefined) ss.path = body.path;
    if (space) ss.space = space.id;
    if (body.hidden !== undefined) ss.hidden = body.hidden;
    if (body.condition === null) delete ss.condition;
    else if (body.condition !== undefined) ss.condition = body.condition;
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },

  deleteSiteSpace: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a site space');
    const ss = siteSpaceIn(st, site, params.siteSpaceId);
    if (!ss) return undefined;
    dropSiteSpace(st, site, ss);
    settle(st, site);
    return undefined;
  },

  moveSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a site space');
    const ss = mustSiteSpace(st, site, params.siteSpaceId);
    const { side, id, field } = anchorOf(body.position, 'siteSpace');
    const anchor = siteSpaceIn(st, site, id);
    if (!anchor) throw badRequest(`${field}: no site space ${id} in site ${site.id}`);
    if (anchor === ss) throw badRequest(`${field}: a site space cannot be placed relative to itself`);
    const from = siteSpaceListOf(st, site, ss);
    const to = siteSpaceListOf(st, site, anchor);
    if (from !== to) {
      const clash = to.find((other) => st.siteSpaces.get(other)!.path === ss.path);
      if (clash) throw badRequest(`${field}: site space ${clash} already has the path "${ss.path}" in section ${anchor.section}; change one of the paths first`);
    }
    const next = placeRelative(to, ss.id, { [side]: anchor.id })!;
    if (from !== to) removeFrom(from, ss.id);
    replaceContent(to, next);
    if (anchor.section) ss.section = anchor.section;
    else delete ss.section;
    settle(st, site);
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },
};
