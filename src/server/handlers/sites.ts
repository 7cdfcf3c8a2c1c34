/**
 * Sites and their structure: sections, section groups and site spaces, the published profile and
 * the adaptive-content schema. Members with the read role on a site view it; the create role creates
 * sites; the admin role changes, publishes and deletes them and everything in their structure (a
 * site's `defaultLevel` and grants set members' roles on it, access.ts). Every list keeps the order that creations and
 * moves gave it. Items are drafts until their site is published (docs/sites.md, Drafts).
 */
import { ops } from '../../contract/sites.js';
import type { Role } from '../../contract/op.js';
import { orgFor, requireRole } from '../access.js';
import { unlessSame } from '../audit/model.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import { encode } from '../persist/codec.js';
import { adaptiveSchemaOf, templateConditions } from '../sites/adaptive.js';
import { siteCustomization } from '../sites/customization.js';
import {
  addSectionToGroup,
  createGroup,
  createSection,
  createSite,
  createSiteSpace,
  deleteGroup,
  deleteSection,
  dropSpace,
  groupIn,
  languageOf,
  listedSites,
  moveGroup,
  moveSection,
  moveSiteSpace,
  mustGroup,
  mustSection,
  mustSiteSpace,
  publishSite,
  removeSectionFromGroup,
  sectionIn,
  siteSpaceIn,
  updateGroup,
  updateSection,
  updateSite,
  updateSiteSpace,
} from '../sites/model.js';
import { dropSite, dropSiteSpace, settle, siteSpacesOf, sitesState, walk, type SiteRec, type SitesState } from '../sites/state.js';
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
  structureView,
  type SiteParams,
} from '../sites/views.js';

/**
 * What a write to a site's settings or structure may change: the site, its sections, groups and site
 * spaces (for `unlessSame`: a write giving what is there already records no audit event).
 */
const siteRecords = (st: SitesState, site: SiteRec) => () => [site, walk(st, site), siteSpacesOf(st, site)];

/** The site for an operation that needs `min`, with the family's state. */
function open(ctx: HandlerCtx, params: SiteParams, min: Role, what: string): { st: SitesState; site: SiteRec } {
  return { site: siteAs(ctx, params, min, what), st: sitesState(ctx.store) };
}

const handlers: Handlers<typeof ops> = {
  // --- Sites ---------------------------------------------------------------------------------

  listSites: (ctx, { params, query }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'read', 'listing sites');
    const title = query.title?.toLowerCase();
    const types = query.type?.length ? new Set<string>(query.type) : undefined;
    const all = listedSites(ctx.store, params.organizationId, { published: query.published, title, types, space: query.space });
    const scope = scopeOf('sites', params.organizationId, query.space, title, query.published, types && [...types].sort().join(','));
    const page = paginate(all, query, (s) => s.id, scope);
    return { ...page, items: page.items.map((s) => siteView(ctx, s, memberOpts(ctx, s))) };
  },

  createSite: (ctx, { params, body }) => {
    const site = createSite(ctx, params.organizationId, body);
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site');
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  updateSite: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a site');
    unlessSame(ctx, siteRecords(st, site), () => updateSite(st, site, body));
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  deleteSite: (ctx, { params }) => {
    const existing = sitesState(ctx.store).sites.get(params.siteId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!existing || existing.org !== params.organizationId) {
      ctx.unchanged = true;
      return undefined;
    }
    const { st, site } = open(ctx, params, 'admin', 'deleting a site');
    dropSite(st, site);
    return undefined;
  },

  publishSite: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'publishing a site');
    // Published already, with nothing left in draft: nothing changes.
    unlessSame(ctx, siteRecords(st, site), () => publishSite(st, site));
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  unpublishSite: (ctx, { params }) => {
    const { site } = open(ctx, params, 'admin', 'unpublishing a site');
    if (!site.published) ctx.unchanged = true;
    site.published = false;
    return siteView(ctx, site, memberOpts(ctx, site));
  },

  getPublishedSite: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    return {
      object: 'published-content-site',
      site: siteView(ctx, site, opts),
      structure: structureView(ctx, site, { ...opts, live: true }),
      customizations: { site: siteCustomization(site, languageOf(ctx.store, site)), siteSpaces: {} },
      // The sandbox has no integrations, so none adds a script.
      scripts: [],
    };
  },

  // --- Adaptive content ----------------------------------------------------------------------

  getAdaptiveSchema: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site’s adaptive schema');
    return { object: 'site-adaptive-schema', ...adaptiveSchemaOf(site) };
  },

  putAdaptiveSchema: (ctx, { params, body }) => {
    const { site } = open(ctx, params, 'admin', 'setting a site’s adaptive schema');
    // The schema it has already: nothing changes, not even the time of the last change.
    if (encode(body.jsonSchema) === encode(adaptiveSchemaOf(site).jsonSchema)) ctx.unchanged = true;
    else site.adaptiveSchema = { jsonSchema: body.jsonSchema, updatedAt: ctx.store.now() };
    return { object: 'site-adaptive-schema', ...adaptiveSchemaOf(site) };
  },

  listTemplateConditions: (ctx, { params }) => {
    const { site } = open(ctx, params, 'read', 'viewing a site’s template conditions');
    return { items: templateConditions(adaptiveSchemaOf(site).jsonSchema) };
  },

  // --- Sections ------------------------------------------------------------------------------

  listSiteSections: (ctx, { params, query }) => {
    const { site, opts } = siteAsReader(ctx, params, query.shareKey);
    const page = paginate(listedSections(ctx, site, opts), query, (s) => s.id, scopeOf('site-sections', site.id, opts.visitor));
    return { ...page, items: page.items.map((s) => sectionView(ctx, site, s, opts)) };
  },

  createSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section');
    return sectionView(ctx, site, createSection(ctx, st, site, body), memberOpts(ctx, site));
  },

  updateSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a section');
    const section = mustSection(st, site, params.siteSectionId);
    unlessSame(ctx, siteRecords(st, site), () => updateSection(st, site, section, body));
    return sectionView(ctx, site, section, memberOpts(ctx, site));
  },

  deleteSiteSection: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a section');
    const section = sectionIn(st, site, params.siteSectionId);
    if (section) deleteSection(st, site, section);
    else ctx.unchanged = true;
    return undefined;
  },

  moveSiteSection: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a section');
    const section = mustSection(st, site, params.siteSectionId);
    // To where it is already: nothing changes.
    unlessSame(ctx, siteRecords(st, site), () => moveSection(st, site, section, body));
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
    return groupView(ctx, site, createGroup(st, site, body), memberOpts(ctx, site));
  },

  updateSiteSectionGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a section group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    unlessSame(ctx, siteRecords(st, site), () => updateGroup(st, site, group, body));
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  deleteSiteSectionGroup: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a section group');
    const group = groupIn(st, site, params.siteSectionGroupId);
    if (group) deleteGroup(st, site, group);
    else ctx.unchanged = true;
    return undefined;
  },

  addSiteSectionToGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'adding a section to a group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    // The section at the end of the group already: nothing changes.
    unlessSame(ctx, siteRecords(st, site), () => addSectionToGroup(st, site, group, body));
    return groupView(ctx, site, group, memberOpts(ctx, site));
  },

  removeSiteSectionFromGroup: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'removing a section from a group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    const section = sectionIn(st, site, params.siteSectionId);
    if (section && section.group === group.id) removeSectionFromGroup(st, site, group, section);
    else ctx.unchanged = true;
    return undefined;
  },

  moveSiteSectionGroup: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a section group');
    const group = mustGroup(st, site, params.siteSectionGroupId);
    unlessSame(ctx, siteRecords(st, site), () => moveGroup(st, site, group, body));
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
    return siteSpaceView(ctx, site, createSiteSpace(ctx, st, site, body), memberOpts(ctx, site));
  },

  updateSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'updating a site space');
    const ss = mustSiteSpace(st, site, params.siteSpaceId);
    unlessSame(ctx, siteRecords(st, site), () => updateSiteSpace(ctx, st, site, ss, body));
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },

  deleteSiteSpace: (ctx, { params }) => {
    const { st, site } = open(ctx, params, 'admin', 'deleting a site space');
    const ss = siteSpaceIn(st, site, params.siteSpaceId);
    if (!ss) {
      ctx.unchanged = true;
      return undefined;
    }
    dropSiteSpace(st, site, ss);
    settle(st, site);
    return undefined;
  },

  moveSiteSpace: (ctx, { params, body }) => {
    const { st, site } = open(ctx, params, 'admin', 'moving a site space');
    const ss = mustSiteSpace(st, site, params.siteSpaceId);
    unlessSame(ctx, siteRecords(st, site), () => moveSiteSpace(st, site, ss, body));
    return siteSpaceView(ctx, site, ss, memberOpts(ctx, site));
  },
};

export const family = defineFamily({ ops, handlers, onSpacePurged: dropSpace });
