/**
 * Who may see a site, and the API objects of a site and its structure as the caller sees them.
 *
 * Members with the read role or above see every site of their organization, published or not.
 * Everybody else (guests, other organizations' users) is a visitor: a visitor sees a site only
 * through its published profile and its section and site-space lists, only when it is published,
 * and only when its visibility lets them: `public` and `unlisted` always, `share-link` with the
 * right `shareKey`, `visitor-auth` never (the sandbox has no visitor JWT). A `shareKey` that does
 * not match a share-link site answers 404 to everyone, members included. Anything else a visitor
 * asks for answers 404, as if the site did not exist.
 */
import type { Role } from '../../contract/op.js';
import type { Site, SiteSection, SiteSectionGroup, SiteSpace, PublishedStructure } from '../../contract/sites.js';
import { atLeast, orgFor, requireRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import type { HandlerCtx } from '../handler.js';
import { sameSecret } from '../ids.js';
import type { SpaceRec } from '../store.js';
import { spaceView } from '../handlers/spaces.js';
import {
  isDefaultSiteSpace, siteSpacesOf, sitesState, walk,
  type GroupRec, type SectionRec, type SiteRec, type SiteSpaceRec, type SitesState,
} from './state.js';

export interface ViewOpts {
  /** URLs of a share-link site carry its key (admins, and visitors who brought the key). */
  keyed: boolean;
  /** Leave out site spaces whose space is deleted or no longer in the site's organization. */
  live: boolean;
}

export interface SiteParams {
  organizationId: string;
  siteId: string;
}

/** A site of the organization for a member with at least `min`: 404 for non-members and unknown sites, 403 below `min`. */
export function siteAs(ctx: HandlerCtx, params: SiteParams, min: Role, what: string): SiteRec {
  const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
  const site = sitesState(ctx.store).sites.get(params.siteId);
  if (!site || site.org !== params.organizationId) throw notFound(`no site ${params.siteId}`);
  requireRole(role, min, what);
  return site;
}

/** How a member sees a site's objects: admins get the share link in URLs. */
export function memberOpts(ctx: HandlerCtx, site: SiteRec): ViewOpts {
  return { keyed: atLeast(roleIn(ctx, site.org), 'admin'), live: false };
}

/** A site as a member or a visitor may read it (see the module comment), with how to show it. */
export function siteAsReader(ctx: HandlerCtx, params: SiteParams, shareKey: string | undefined): { site: SiteRec; opts: ViewOpts } {
  const site = sitesState(ctx.store).sites.get(params.siteId);
  const missing = notFound(`no site ${params.siteId}`);
  if (!site || site.org !== params.organizationId) throw missing;
  const shareLink = site.visibility === 'share-link';
  const keyOk = shareLink && sameSecret(shareKey, site.shareKey);
  if (shareLink && shareKey !== undefined && !keyOk) throw missing;
  const role = roleIn(ctx, site.org);
  if (atLeast(role, 'read')) return { site, opts: { keyed: keyOk || atLeast(role, 'admin'), live: false } };
  const open = site.visibility === 'public' || site.visibility === 'unlisted' || keyOk;
  if (!site.published || !open) throw missing;
  return { site, opts: { keyed: keyOk, live: true } };
}

function roleIn(ctx: HandlerCtx, orgId: string): Role | null {
  const member = ctx.store.member(orgId, ctx.caller.user.id);
  return member && !member.disabled ? member.role : null;
}

/** A space that a site of `orgId` may show: it exists, is not deleted, and is in the organization. 400 otherwise. */
export function spaceForSite(ctx: HandlerCtx, orgId: string, spaceId: string, field: string): SpaceRec {
  const space = ctx.store.data.spaces.get(spaceId);
  if (!space || space.deletedAt || space.org !== orgId) throw badRequest(`${field}: no space ${spaceId} in this organization`);
  return space;
}

function isLive(ctx: HandlerCtx, site: SiteRec, ss: SiteSpaceRec): boolean {
  const space = ctx.store.data.spaces.get(ss.space);
  return Boolean(space && !space.deletedAt && space.org === site.org);
}

/** The site spaces to show from a list of ids. */
function shown(ctx: HandlerCtx, st: SitesState, site: SiteRec, ids: string[], opts: ViewOpts): SiteSpaceRec[] {
  const all = ids.map((id) => st.siteSpaces.get(id)!);
  return opts.live ? all.filter((ss) => isLive(ctx, site, ss)) : all;
}

/** Where the site is served: its proxy, its hostname, or the sandbox's own address; then its basename. */
function siteRoot(ctx: HandlerCtx, site: SiteRec): string {
  if (site.proxy) return `https://${site.proxy}`;
  const root = site.hostname ? `https://${site.hostname}` : `${ctx.baseUrl}/s/${site.id}`;
  return site.basename ? `${root}/${site.basename}` : root;
}

function keyed(url: string, site: SiteRec, opts: ViewOpts): string {
  return opts.keyed && site.visibility === 'share-link' ? `${url}?shareKey=${encodeURIComponent(site.shareKey)}` : url;
}

/** A section's URL below the site's: the default section is served at the site's root. */
function sectionRoot(ctx: HandlerCtx, site: SiteRec, section: SectionRec | undefined): string {
  const root = siteRoot(ctx, site);
  return section && site.defaultSection !== section.id ? `${root}/${section.path}` : root;
}

export function siteView(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): Site {
  const st = sitesState(ctx.store);
  return {
    object: 'site', id: site.id, type: site.type, title: site.title,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxy ? { proxy: { origin: `https://${site.proxy}`, target: `${ctx.baseUrl}/s/${site.id}` } } : {}),
    visibility: site.visibility, published: site.published,
    siteSpaces: siteSpacesOf(st, site).length,
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    urls: {
      location: `${ctx.baseUrl}/v1/orgs/${site.org}/sites/${site.id}`,
      app: `${ctx.baseUrl}/app/o/${site.org}/sites/${site.id}`,
      published: keyed(siteRoot(ctx, site), site, opts),
    },
  };
}

export function siteSpaceView(ctx: HandlerCtx, site: SiteRec, ss: SiteSpaceRec, opts: ViewOpts): SiteSpace {
  const st = sitesState(ctx.store);
  const space = ctx.store.data.spaces.get(ss.space)!;
  const isDefault = isDefaultSiteSpace(st, site, ss);
  const base = sectionRoot(ctx, site, ss.section ? st.sections.get(ss.section) : undefined);
  return {
    object: 'site-space', id: ss.id, path: ss.path,
    ...(ss.section ? { section: ss.section } : {}),
    space: spaceView(ctx, space),
    title: space.title,
    default: isDefault,
    ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
    hasAdvancedCustomizationFeature: site.type !== 'basic',
    urls: { published: keyed(isDefault ? base : `${base}/${ss.path}`, site, opts) },
    hidden: ss.hidden,
  };
}

export function sectionView(ctx: HandlerCtx, site: SiteRec, section: SectionRec, opts: ViewOpts): SiteSection {
  const st = sitesState(ctx.store);
  return {
    object: 'site-section', id: section.id, title: section.title,
    ...(section.description !== undefined ? { description: section.description } : {}),
    default: site.defaultSection === section.id,
    path: section.path,
    ...(section.condition !== undefined ? { condition: section.condition } : {}),
    ...(section.group ? { sectionGroup: section.group } : {}),
    siteSpaces: shown(ctx, st, site, section.siteSpaces, opts).map((ss) => siteSpaceView(ctx, site, ss, opts)),
    urls: { published: keyed(sectionRoot(ctx, site, section), site, opts) },
    ...(section.icon !== undefined ? { icon: section.icon } : {}),
  };
}

export function groupView(ctx: HandlerCtx, site: SiteRec, group: GroupRec, opts: ViewOpts): SiteSectionGroup {
  return {
    object: 'site-section-group', id: group.id, title: group.title,
    ...(group.group ? { sectionGroup: group.group } : {}),
    children: treeView(ctx, site, group.children, opts),
    ...(group.icon !== undefined ? { icon: group.icon } : {}),
  };
}

/** Sections and groups of one level of the tree, in order. */
function treeView(ctx: HandlerCtx, site: SiteRec, ids: string[], opts: ViewOpts): (SiteSection | SiteSectionGroup)[] {
  const st = sitesState(ctx.store);
  return ids.map((id) => {
    const section = st.sections.get(id);
    return section ? sectionView(ctx, site, section, opts) : groupView(ctx, site, st.groups.get(id)!, opts);
  });
}

/** The published structure: the tree of sections and groups, or the site spaces of a site without sections. */
export function structureView(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): PublishedStructure {
  const st = sitesState(ctx.store);
  if (walk(st, site).sections.length) return { type: 'sections', structure: treeView(ctx, site, site.structure, opts) };
  return { type: 'siteSpaces', structure: shown(ctx, st, site, site.siteSpaces, opts).map((ss) => siteSpaceView(ctx, site, ss, opts)) };
}

/** Site spaces of a site as a list shows them. */
export function listedSiteSpaces(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): SiteSpaceRec[] {
  const st = sitesState(ctx.store);
  const all = siteSpacesOf(st, site);
  return opts.live ? all.filter((ss) => isLive(ctx, site, ss)) : all;
}
