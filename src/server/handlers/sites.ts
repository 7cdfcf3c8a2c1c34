/**
 * Sites and their structure: sections, section groups and site spaces, the published profile and
 * the adaptive-content schema. Members with the read role on a site view it; the create role creates
 * sites; the admin role changes, publishes and deletes them and everything in their structure (a
 * site's `defaultLevel` and grants set members' roles on it, access.ts). Every list keeps the order that creations and
 * moves gave it. Items are drafts until their site is published (docs/sites.md, Drafts).
 */
import { ops, type SpaceTemplate } from '../../contract/sites.js';
import type { Role } from '../../contract/op.js';
import { orgFor, requireRole } from '../access.js';
import { contentOf, findPage, commitToSpace, revisionOf, type RevisionContent } from '../content/model.js';
import { filesOfReadableSpaces, newSpaceContent, type TemplateParams } from '../content/templates.js';
import { badRequest, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { createSpaceRec, spaceFor } from './spaces.js';
import { newId } from '../ids.js';
import { moveItem } from '../order.js';
import { paginate, scopeOf } from '../paginate.js';
import type { SpaceRec, Store } from '../store.js';
import { emptyAdaptiveSchema, templateConditions } from '../sites/adaptive.js';
import { siteCustomization } from '../sites/customization.js';
import {
  containerOf,
  dropSite,
  dropSiteSpace,
  removeFrom,
  replaceContent,
  settle,
  siteSpaceListOf,
  siteSpacesOf,
  sitesState,
  sitePathOf,
  subtreeGroups,
  uniquePath,
  walk,
  type GroupRec,
  type SectionRec,
  type SiteRec,
  type SiteSpaceRec,
  type SitesState,
} from '../sites/state.js';
import {
  groupView,
  listedSections,
  listedSiteSpaces,
  memberOpts,
  sectionView,
  siteAs,
  siteAsReader,
  siteSpaceView,
  siteView,
  spaceForSite,
  structureView,
  type SiteParams,
} from '../sites/views.js';
import type { z } from 'zod';

/** A space purged for good leaves every site that showed it. */
function dropSpace(store: Store, spaceId: string): void {
  const st = sitesState(store);
  for (const ss of [...st.siteSpaces.values()]) {
    if (ss.space !== spaceId) continue;
    const site = st.sites.get(ss.site)!;
    dropSiteSpace(st, site, ss);
    settle(st, site);
  }
}

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

/** A new item is a draft unless its site is published, or the request says. */
function draftOf(site: SiteRec, draft: boolean | undefined): boolean {
  return draft ?? !site.published;
}

/** A title of 2 to 128 characters from a space's title (the official SiteSectionTitle), or `fallback`. */
function titleFrom(text: string | undefined, fallback: string): string {
  const t = (text ?? '').slice(0, 128);
  return t.length >= 2 ? t : fallback;
}

// ---------------------------------------------------------------------------------------------
// The space of a new section or site space: an existing one, or a new one (`spaceId: null`)

type Template = z.output<typeof SpaceTemplate>;

/** What a request asks for: an existing space, or a new one with its title and content. */
type SpaceChoice = { space: SpaceRec } | { create: { title: string; content?: RevisionContent; template?: string } };

/**
 * Check the space a request names (`spaceId`, `template`, `pageId`) before anything changes: an
 * existing space of the organization (a template is then a 400), or null for a new one, which needs
 * the create role in the organization and may take a template (its catalog: 400 naming the known
 * ones) but no `pageId` (it has no pages yet).
 */
function chooseSpace(
  ctx: HandlerCtx,
  site: SiteRec,
  req: { spaceId: string | null; template?: Template; pageId?: string | null; title?: string | null },
): SpaceChoice {
  if (req.spaceId !== null) {
    if (req.template !== undefined) throw badRequest('template: only for a new space (spaceId null)');
    const space = spaceForSite(ctx, site.org, req.spaceId, 'spaceId');
    if (typeof req.pageId === 'string') pageOf(ctx, space, req.pageId, 'pageId');
    return { space };
  }
  const { role } = orgFor(ctx.store, ctx.caller, site.org);
  requireRole(role, 'create', 'creating a space (spaceId null)');
  if (typeof req.pageId === 'string') throw badRequest('pageId: a new space (spaceId null) has no pages yet');
  const title = req.title ?? 'Untitled';
  if (req.template === undefined) return { create: { title } };
  const content = newSpaceContent(
    ctx.store,
    req.template as { id: string; params?: TemplateParams },
    filesOfReadableSpaces(ctx.store, (id) => spaceFor(ctx, id).space),
  );
  return { create: { title, content, template: req.template.id } };
}

/** The space chosen, made now when it is new (at the organization's root). */
function spaceOf(ctx: HandlerCtx, site: SiteRec, choice: SpaceChoice): SpaceRec {
  if ('space' in choice) return choice.space;
  // A space's title is at most 50 characters (the official SpaceTitle); the section or site space keeps the whole one.
  const space = createSpaceRec(ctx.store, { org: site.org, title: choice.create.title.slice(0, 50) });
  if (choice.create.content) commitToSpace(ctx.store, space, choice.create.content, `Apply template ${choice.create.template}`);
  return space;
}

/** A page of a space's current content, or 400 naming the field. */
function pageOf(ctx: HandlerCtx, space: SpaceRec, pageId: string, field: string): void {
  if (!findPage(contentOf(revisionOf(ctx.store, space.revision)), pageId)) throw badRequest(`${field}: no page ${pageId} in space ${space.id}`);
}

/** A new site space at the end of its section's list (or of the site's own), with a free path. */
function addSiteSpace(st: SitesState, site: SiteRec, space: SpaceRec, section: SectionRec | undefined, draft: boolean): SiteSpaceRec {
  const list = section ? section.siteSpaces : site.siteSpaces;
  const taken = new Set(list.map((id) => st.siteSpaces.get(id)!.path));
  const ss: SiteSpaceRec = {
    id: newId(),
    site: site.id,
    space: space.id,
    path: uniquePath(sitePathOf(space.title, 'space'), taken),
    hidden: false,
    draft,
    ...(section ? { section: section.id } : {}),
  };
  st.siteSpaces.set(ss.id, ss);
  list.push(ss.id);
  return ss;
}

/** A new, empty section at the end of the site's root, with a free path. */
function addSection(st: SitesState, site: SiteRec, title: string, draft: boolean): SectionRec {
  const taken = new Set(walk(st, site).sections.map((s) => s.path));
  const section: SectionRec = { id: newId(), site: site.id, title, path: uniquePath(sitePathOf(title, 'section'), taken), siteSpaces: [], draft };
  st.sections.set(section.id, section);
  site.structure.push(section.id);
  return section;
}

/** Put a section or group at the end of a group's children (or of the site's root), unless it is already there. */
function moveInto(st: SitesState, site: SiteRec, item: SectionRec | GroupRec, group: GroupRec | undefined): void {
  if (item.group === group?.id) return;
  removeFrom(containerOf(st, site, item), item.id);
  (group ? group.children : site.structure).push(item.id);
  if (group) item.group = group.id;
  else delete item.group;
}

// ---------------------------------------------------------------------------------------------
// Moves: a position names one or two neighbours (`before`, `after`), or none

type Ref = Record<string, unknown>;
interface Position {
  before?: Ref;
  after?: Ref;
}
const SIDES = ['after', 'before'] as const;

/** The id and body field of a position's side (`position.after.siteSection`). */
function sideOf(position: Position, side: 'before' | 'after', key: string): { id: string; field: string } | undefined {
  const ref = position[side];
  return ref ? { id: String(ref[key]), field: `position.${side}.${key}` } : undefined;
}

/**
 * Place `item` (a section or group) next to the anchors of a position, in their container (the
 * item joins it). `find` turns a side into its anchor or throws 400. Both sides: the anchors must
 * be neighbours in one container; neither: the item stays where it is.
 */
function placeInTree(st: SitesState, site: SiteRec, item: SectionRec | GroupRec, find: (side: 'before' | 'after') => SectionRec | GroupRec | undefined): void {
  let to: string[] | undefined;
  let group: string | undefined;
  const anchors: { before?: string; after?: string } = {};
  for (const side of SIDES) {
    const anchor = find(side);
    if (!anchor) continue;
    // The first anchor's list; a second anchor in another list is no neighbour (moveItem says so).
    if (!to) [to, group] = [containerOf(st, site, anchor), anchor.group];
    anchors[side] = anchor.id;
  }
  if (!to) return;
  moveItem(item.id, containerOf(st, site, item), to, anchors);
  if (group) item.group = group;
  else delete item.group;
}

/** Without a position a section or group goes to the end of the site's root (the official document). */
function toEndOfSite(st: SitesState, site: SiteRec, item: SectionRec | GroupRec): void {
  removeFrom(containerOf(st, site, item), item.id);
  site.structure.push(item.id);
  delete item.group;
}

const handlers: Handlers<typeof ops> = {
  // --- Sites ---------------------------------------------------------------------------------

  listSites: (ctx, { params, query }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'read', 'listing sites');
    const st = sitesState(ctx.store);
    const title = query.title?.toLowerCase();
    const types = query.type?.length ? new Set<string>(query.type) : undefined;
    const all = [...st.sites.values()].filter(
      (s) =>
        s.org === params.organizationId &&
        (query.published === undefined || s.published === query.published) &&
        (title === undefined || s.title.toLowerCase().includes(title)) &&
        (types === undefined || types.has(s.type)) &&
        (query.space === undefined || siteSpacesOf(st, s).some((ss) => ss.space === query.space)),
    );
    const scope = scopeOf('sites', params.organizationId, query.space, title, query.published, types && [...types].sort().join(','));
    const page = paginate(all, query, (s) => s.id, scope);
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
      id: newId(),
      org: params.organizationId,
      type: body.type ?? 'basic',
      title: body.title ?? 'Untitled site',
      visibility: body.visibility ?? 'public',
      published: false,
      createdAt: ctx.store.now(),
      defaultLevel: 'inherit',
      adaptiveContent: false,
      agentsContext: 'included',
      shareKey: newId(),
      structure: [],
      siteSpaces: [],
    };
    st.sites.set(site.id, site);
    for (const space of spaces) addSiteSpace(st, site, space, undefined, draftOf(site, undefined));
    settle(st, site);
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site');
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  updateSite: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a site');
    if (typeof body.styleguide === 'string') {
      throw badRequest('styleguide: the sandbox has no style guide spaces, so none can be attached (null detaches: there is nothing to detach)');
    }
    let defaultSection = site.defaultSection;
    if (body.defaultSiteSection !== undefined) {
      const section = sectionIn(st, site, body.defaultSiteSection);
      if (!section) throw badRequest(`defaultSiteSection: no section ${body.defaultSiteSection} in site ${site.id}`);
      defaultSection = section.id;
    }
    const defaultSiteSpace = body.defaultSiteSpace === undefined ? undefined : siteSpaceIn(st, site, body.defaultSiteSpace);
    if (body.defaultSiteSpace !== undefined) {
      if (!defaultSiteSpace) throw badRequest(`defaultSiteSpace: no site space ${body.defaultSiteSpace} in site ${site.id}`);
      if (defaultSection !== undefined && defaultSiteSpace.section !== defaultSection) {
        throw badRequest(`defaultSiteSpace: site space ${defaultSiteSpace.id} is not in the default section ${defaultSection}`);
      }
    }
    if (body.title !== undefined) site.title = body.title;
    if (body.visibility !== undefined) site.visibility = body.visibility;
    if (body.basename !== undefined) site.basename = body.basename;
    if (body.adaptiveContent !== undefined) site.adaptiveContent = body.adaptiveContent.enabled;
    if (body.agentsContext !== undefined) site.agentsContext = body.agentsContext;
    if (body.defaultLevel !== undefined) site.defaultLevel = body.defaultLevel;
    if (body.proxy === null) delete site.proxy;
    else if (body.proxy !== undefined) site.proxy = body.proxy;
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
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!existing || existing.org !== params.organizationId) return undefined;
    const { st, site } = open(ctx, params, 'admin', 'deleting a site');
    dropSite(st, site);
    return undefined;
  },

  publishSite: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'publishing a site');
    site.published = true;
    // Publishing publishes the drafts: every item of the site goes live.
    const { sections, groups } = walk(st, site);
    for (const item of [...sections, ...groups, ...siteSpacesOf(st, site)]) item.draft = false;
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  unpublishSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'admin', 'unpublishing a site');
    site.published = false;
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getPublishedSite: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    return {
      object: 'published-content-site',
      site: siteView(ctx, site, opts),
      structure: structureView(ctx, site, { ...opts, live: true }),
      customizations: { site: siteCustomization(site, languageOf(ctx, site)), siteSpaces: {} },
      // The sandbox has no integrations, so none adds a script.
      scripts: [],
    };
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
    const page = paginate(listedSections(ctx, site, opts), query, (s) => s.id, scopeOf('site-sections', site.id, opts.visitor));
    return { ...page, items: page.items.map((s) => sectionView(ctx, site, s, opts)) };
  },

  createSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section');
    const choice = chooseSpace(ctx, site, body);
    const group = body.siteSectionGroupId === undefined ? undefined : groupIn(st, site, body.siteSectionGroupId);
    if (body.siteSectionGroupId !== undefined && !group) throw badRequest(`siteSectionGroupId: no section group ${body.siteSectionGroupId} in site ${site.id}`);
    const space = spaceOf(ctx, site, choice);
    // The first section of a site with site spaces: they become a first section of their own.
    if (site.siteSpaces.length && walk(st, site).sections.length === 0) {
      const lead = st.siteSpaces.get(site.defaultSiteSpace ?? site.siteSpaces[0])!;
      const first = addSection(st, site, titleFrom(ctx.store.data.spaces.get(lead.space)?.title, site.title), draftOf(site, undefined));
      first.siteSpaces = site.siteSpaces;
      first.defaultSiteSpace = lead.id;
      for (const id of first.siteSpaces) st.siteSpaces.get(id)!.section = first.id;
      site.siteSpaces = [];
      delete site.defaultSiteSpace;
    }
    const draft = draftOf(site, body.draft);
    const section = addSection(st, site, body.title ?? titleFrom(space.title, 'Untitled'), draft);
    if (typeof body.icon === 'string') section.icon = body.icon;
    if (group) moveInto(st, site, section, group);
    const ss = addSiteSpace(st, site, space, section, draft);
    if (body.pageId !== undefined) ss.pageId = body.pageId;
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
    const group = typeof body.siteSectionGroupId === 'string' ? groupIn(st, site, body.siteSectionGroupId) : undefined;
    if (typeof body.siteSectionGroupId === 'string' && !group) {
      throw badRequest(`siteSectionGroupId: no section group ${body.siteSectionGroupId} in site ${site.id}`);
    }
    if (body.title !== undefined) section.title = body.title;
    if (body.localizedTitle !== undefined) section.localizedTitle = body.localizedTitle;
    if (body.path !== undefined) section.path = body.path;
    if (body.defaultSiteSpace !== undefined) section.defaultSiteSpace = body.defaultSiteSpace;
    for (const key of ['condition', 'icon', 'description'] as const) {
      const value = body[key];
      if (value === null) delete section[key];
      else if (value !== undefined) section[key] = value;
    }
    if (body.localizedDescription !== undefined) section.localizedDescription = body.localizedDescription;
    if (body.draft !== undefined) section.draft = body.draft;
    if (body.siteSectionGroupId !== undefined) moveInto(st, site, section, group);
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
    if (!body.position) toEndOfSite(st, site, section);
    else {
      const position = body.position as Position;
      placeInTree(st, site, section, (side) => {
        const at = sideOf(position, side, 'siteSection');
        if (!at) return undefined;
        const anchor = sectionIn(st, site, at.id) ?? groupIn(st, site, at.id);
        if (!anchor) throw badRequest(`${at.field}: no section or section group ${at.id} in site ${site.id}`);
        if (anchor === section) throw badRequest(`${at.field}: a section cannot be placed relative to itself`);
        return anchor;
      });
    }
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
      id: newId(),
      site: site.id,
      title: body.title,
      children: [],
      draft: draftOf(site, body.draft),
      ...(parent ? { group: parent.id } : {}),
      ...(typeof body.icon === 'string' ? { icon: body.icon } : {}),
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
    const parent = typeof body.parentSectionGroupId === 'string' ? groupIn(st, site, body.parentSectionGroupId) : undefined;
    if (typeof body.parentSectionGroupId === 'string') {
      if (!parent) throw badRequest(`parentSectionGroupId: no section group ${body.parentSectionGroupId} in site ${site.id}`);
      if (subtreeGroups(st, group).has(parent.id)) {
        throw badRequest('parentSectionGroupId: a section group cannot be moved into itself or into a group inside it');
      }
    }
    if (body.title !== undefined) group.title = body.title;
    if (body.localizedTitle !== undefined) group.localizedTitle = body.localizedTitle;
    if (body.icon === null) delete group.icon;
    else if (body.icon !== undefined) group.icon = body.icon;
    if (body.draft !== undefined) group.draft = body.draft;
    if (body.parentSectionGroupId !== undefined) moveInto(st, site, group, parent);
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
    moveInto(st, site, section, group);
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
    if (!body.position) toEndOfSite(st, site, group);
    else {
      const position = body.position as Position;
      const inside = subtreeGroups(st, group);
      placeInTree(st, site, group, (side) => {
        const at = sideOf(position, side, 'id');
        if (!at) return undefined;
        // `site-section-group` names a group; `site-section` a section (the sandbox also takes a group's id there).
        const onlyGroup = position[side]!.type === 'site-section-group';
        const anchor = onlyGroup ? groupIn(st, site, at.id) : (sectionIn(st, site, at.id) ?? groupIn(st, site, at.id));
        if (!anchor) throw badRequest(`${at.field}: no ${onlyGroup ? 'section group' : 'section or section group'} ${at.id} in site ${site.id}`);
        if (inside.has(anchor.id) || (anchor.group !== undefined && inside.has(anchor.group))) {
          throw badRequest(`${at.field}: a section group cannot be placed relative to itself or to an item inside it`);
        }
        return anchor;
      });
    }
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  // --- Site spaces ---------------------------------------------------------------------------

  listSiteSpaces: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    const views = listedSiteSpaces(ctx, site, opts).map((ss) => siteSpaceView(ctx, site, ss, opts));
    const all = query.default === undefined ? views : views.filter((v) => v.default === query.default);
    return paginate(all, query, (v) => v.id, scopeOf('site-spaces', site.id, query.default, opts.visitor));
  },

  createSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a site space');
    const choice = chooseSpace(ctx, site, body);
    const section =
      body.sectionId === undefined ? (site.defaultSection ? st.sections.get(site.defaultSection) : undefined) : sectionIn(st, site, body.sectionId);
    if (body.sectionId !== undefined && !section) throw badRequest(`sectionId: no section ${body.sectionId} in site ${site.id}`);
    const space = spaceOf(ctx, site, choice);
    const ss = addSiteSpace(st, site, space, section, draftOf(site, body.draft));
    // The title names a new space; where the space's title differs (an existing space, or a title past
    // a space's 50 characters) it is the site space's own.
    if (body.title !== undefined && body.title !== space.title) ss.title = body.title;
    if (typeof body.pageId === 'string') ss.pageId = body.pageId;
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
    if (typeof body.pageId === 'string') pageOf(ctx, space ?? ctx.store.data.spaces.get(ss.space)!, body.pageId, 'pageId');
    if (body.path !== undefined) ss.path = body.path;
    if (space && space.id !== ss.space) {
      ss.space = space.id;
      // Its home page was a page of the other space.
      delete ss.pageId;
    }
    if (body.pageId === null) delete ss.pageId;
    else if (body.pageId !== undefined) ss.pageId = body.pageId;
    if (body.hidden !== undefined) ss.hidden = body.hidden;
    if (body.draft !== undefined) ss.draft = body.draft;
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
    const from = siteSpaceListOf(st, site, ss);
    if (!body.position) {
      // Without a position: to the end of its own list.
      replaceContent(from, [...from.filter((id) => id !== ss.id), ss.id]);
      return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
    }
    const position = body.position as Position;
    let to: string[] | undefined;
    let section: string | undefined;
    const anchors: { before?: string; after?: string } = {};
    for (const side of SIDES) {
      const at = sideOf(position, side, 'siteSpace');
      if (!at) continue;
      const anchor = siteSpaceIn(st, site, at.id);
      if (!anchor) throw badRequest(`${at.field}: no site space ${at.id} in site ${site.id}`);
      if (anchor === ss) throw badRequest(`${at.field}: a site space cannot be placed relative to itself`);
      if (!to) [to, section] = [siteSpaceListOf(st, site, anchor), anchor.section];
      anchors[side] = anchor.id;
    }
    if (to) {
      if (from !== to) {
        const clash = to.find((other) => st.siteSpaces.get(other)!.path === ss.path);
        if (clash) throw badRequest(`position: site space ${clash} already has the path "${ss.path}" in section ${section}; change one of the paths first`);
      }
      moveItem(ss.id, from, to, anchors);
      if (section) ss.section = section;
      else delete ss.section;
      settle(st, site);
    }
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },
};

/** The content language of a site's default site space's space (the published interface's language). */
function languageOf(ctx: HandlerCtx, site: SiteRec): string | undefined {
  const st = sitesState(ctx.store);
  const section = site.defaultSection ? st.sections.get(site.defaultSection) : undefined;
  const ssId = section ? section.defaultSiteSpace : site.defaultSiteSpace;
  const ss = ssId ? st.siteSpaces.get(ssId) : undefined;
  return ss ? ctx.store.data.spaces.get(ss.space)?.language : undefined;
}

export const family = defineFamily({ ops, handlers, onSpacePurged: dropSpace });
