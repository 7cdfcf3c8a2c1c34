/**
 * Who may see a site, and the API objects of a site and its structure as the caller sees them.
 *
 * A member's role on a site is computed as on spaces (access.ts `siteRole`: the site's grants to them
 * and their teams, its `defaultLevel`, their organization role). Members with the read role or above on a
 * site see it, published or not, drafts included. Everybody else (guests not invited to it, other organizations' users) is a
 * visitor: a visitor sees a site only through its published profile and its section and site-space
 * lists, only when it is published, and only when its visibility lets them: `public` and `unlisted`
 * always, `share-link` with the right `shareKey`, `visitor-auth` never (the sandbox has no visitor
 * JWT); and a visitor never sees drafts. A `shareKey` that does not match a share-link site answers
 * 404 to everyone, members included. Anything else a visitor asks for answers 404, as if the site
 * did not exist.
 */
import type { Role } from '../../contract/op.js';
import type { PublishedStructure, Site, SiteSection, SiteSectionGroup, SiteSpace } from '../../contract/sites.js';
import { atLeast, orgFor, requireRole, siteRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import type { HandlerCtx } from '../handler.js';
import { sameSecret } from '../ids.js';
import type { SpaceRec } from '../store.js';
import { spaceView } from '../handlers/spaces.js';
import { featuresOf, hasPlan } from './features.js';
import {
  isDefaultSiteSpace,
  siteSpacesOf,
  sitesState,
  walk,
  type GroupRec,
  type SectionRec,
  type SiteRec,
  type SiteSpaceRec,
  type SitesState,
} from './state.js';

export interface ViewOpts {
  /** The caller's role on the site (null: a visitor). */
  role: Role | null;
  /** A visitor: drafts are left out, and so are site spaces whose space is gone. */
  visitor: boolean;
  /** URLs of a share-link site carry its key (admins, and visitors who brought the key). */
  keyed: boolean;
  /** Leave out site spaces whose space is deleted or no longer in the site's organization. */
  live: boolean;
}

export interface SiteParams {
  organizationId: string;
  siteId: string;
}

/** A site of the organization for a member with at least `min` on it: 404 for non-members and unknown sites, 403 below `min`. */
export function siteAs(ctx: HandlerCtx, params: SiteParams, min: Role, what: string): SiteRec {
  orgFor(ctx.store, ctx.caller, params.organizationId);
  const site = sitesState(ctx.store).sites.get(params.siteId);
  if (!site || site.org !== params.organizationId) throw notFound(`no site ${params.siteId}`);
  requireRole(siteRole(ctx.store, ctx.caller.user.id, site), min, what);
  return site;
}

/** How a member sees a site's objects: admins get the share link in URLs. */
export function memberOpts(ctx: HandlerCtx, site: SiteRec): ViewOpts {
  const role = roleOn(ctx, site);
  return { role, visitor: false, keyed: atLeast(role, 'admin'), live: false };
}

/** A site as a member or a visitor may read it (see the module comment), with how to show it. */
export function siteAsReader(ctx: HandlerCtx, params: SiteParams, shareKey: string | undefined): { site: SiteRec; opts: ViewOpts } {
  const site = sitesState(ctx.store).sites.get(params.siteId);
  const missing = notFound(`no site ${params.siteId}`);
  if (!site || site.org !== params.organizationId) throw missing;
  const shareLink = site.visibility === 'share-link';
  const keyOk = shareLink && sameSecret(shareKey, site.shareKey);
  if (shareLink && shareKey !== undefined && !keyOk) throw missing;
  const role = roleOn(ctx, site);
  if (atLeast(role, 'read')) return { site, opts: { role, visitor: false, keyed: keyOk || atLeast(role, 'admin'), live: false } };
  const open = site.visibility === 'public' || site.visibility === 'unlisted' || keyOk;
  if (!site.published || !open) throw missing;
  return { site, opts: { role: null, visitor: true, keyed: keyOk, live: true } };
}

/** The caller's role on a site (null for non-members and for guests not invited to it). */
function roleOn(ctx: HandlerCtx, site: SiteRec): Role | null {
  return siteRole(ctx.store, ctx.caller.user.id, site);
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

/** Whether the caller sees an item: visitors see no draft, nor anything inside a draft group. */
function seen(st: SitesState, item: { draft?: boolean; group?: string }, opts: ViewOpts): boolean {
  if (!opts.visitor) return true;
  for (
    let it: { draft?: boolean; group?: string } | undefined = item, depth = 0;
    it && depth < 256;
    it = it.group ? st.groups.get(it.group) : undefined, depth++
  ) {
    if (it.draft) return false;
  }
  return true;
}

/** The site spaces to show from a list of ids. */
function shown(ctx: HandlerCtx, st: SitesState, site: SiteRec, ids: string[], opts: ViewOpts): SiteSpaceRec[] {
  const all = ids.map((id) => st.siteSpaces.get(id)!);
  return all.filter((ss) => (!opts.live || isLive(ctx, site, ss)) && seen(st, ss, opts));
}

/** Where the site is served: its proxy, or the sandbox's own address; then its basename. */
function siteRoot(ctx: HandlerCtx, site: SiteRec): string {
  if (site.proxy) return `https://${site.proxy}`;
  const root = `${ctx.baseUrl}/s/${site.id}`;
  return site.basename ? `${root}/${encodeURIComponent(site.basename)}` : root;
}

function keyed(url: string, site: SiteRec, opts: ViewOpts): string {
  return opts.keyed && site.visibility === 'share-link' ? `${url}?shareKey=${encodeURIComponent(site.shareKey)}` : url;
}

/** A section's URL below the site's: the default section is served at the site's root. */
function sectionRoot(ctx: HandlerCtx, site: SiteRec, section: SectionRec | undefined): string {
  const root = siteRoot(ctx, site);
  return section && site.defaultSection !== section.id ? `${root}/${encodeURIComponent(section.path)}` : root;
}

/**
 * The official document's site permissions, for the caller's role on the site. They say what this
 * sandbox allows: viewing and the adaptive schema need read, editing content edit; managing the
 * structure and publishing (`create`), settings (`admin`), integrations and the adaptive schema's
 * changes need admin. A visitor views the site and nothing more.
 */
function sitePermissions(role: Role | null, visitor: boolean) {
  const admin = atLeast(role, 'admin');
  return {
    view: visitor || atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    edit: atLeast(role, 'edit'),
    create: admin,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: atLeast(role, 'read'),
    editAdaptiveSchema: admin,
  };
}

export function siteView(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): Site {
  const st = sitesState(ctx.store);
  const location = `${ctx.baseUrl}/v1/orgs/${site.org}/sites/${site.id}`;
  const app = `${ctx.baseUrl}/app/o/${site.org}/sites/${site.id}`;
  return {
    object: 'site',
    id: site.id,
    type: site.type,
    // The official document: a frozen site's applied type is basic. The sandbox freezes no site.
    appliedType: site.type,
    title: site.title,
    ...(site.basename ? { basename: site.basename } : {}),
    // The official SiteProxy: `origin` as set (a host plus a path), `target` the sandbox's own address of the site.
    ...(site.proxy ? { proxy: { origin: site.proxy, target: `${ctx.baseUrl}/s/${site.id}` } } : {}),
    visibility: site.visibility,
    defaultLevel: site.defaultLevel === undefined ? 'inherit' : site.defaultLevel,
    permissions: sitePermissions(opts.role, opts.visitor),
    published: site.published,
    siteSpaces: siteSpacesOf(st, site).length,
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    agentsContext: site.agentsContext,
    features: featuresOf(site, st),
    urls: {
      location,
      app,
      published: keyed(siteRoot(ctx, site), site, opts),
      // The app's preview of the site, drafts included (members).
      preview: `${app}/preview`,
    },
  };
}

export function siteSpaceView(ctx: HandlerCtx, site: SiteRec, ss: SiteSpaceRec, opts: ViewOpts): SiteSpace {
  const st = sitesState(ctx.store);
  const space = ctx.store.data.spaces.get(ss.space)!;
  const isDefault = isDefaultSiteSpace(st, site, ss);
  const base = sectionRoot(ctx, site, ss.section ? st.sections.get(ss.section) : undefined);
  return {
    object: 'site-space',
    id: ss.id,
    path: ss.path,
    ...(ss.section ? { section: ss.section } : {}),
    space: spaceView(ctx, space),
    title: ss.title ?? space.title,
    default: isDefault,
    ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
    ...(ss.pageId !== undefined ? { pageId: ss.pageId } : {}),
    draft: ss.draft === true,
    hasAdvancedCustomizationFeature: hasPlan(site, 'premium'),
    urls: { published: keyed(isDefault ? base : `${base}/${encodeURIComponent(ss.path)}`, site, opts) },
    hidden: ss.hidden,
  };
}

export function sectionView(ctx: HandlerCtx, site: SiteRec, section: SectionRec, opts: ViewOpts): SiteSection {
  const st = sitesState(ctx.store);
  return {
    object: 'site-section',
    id: section.id,
    title: section.title,
    ...(section.localizedTitle ? { localizedTitle: section.localizedTitle } : {}),
    ...(section.description !== undefined ? { description: section.description } : {}),
    ...(section.localizedDescription ? { localizedDescription: section.localizedDescription } : {}),
    default: site.defaultSection === section.id,
    draft: section.draft === true,
    path: section.path,
    ...(section.condition !== undefined ? { condition: section.condition } : {}),
    ...(section.group ? { sectionGroup: section.group } : {}),
    siteSpaces: shown(ctx, st, site, section.siteSpaces, opts).map((ss) => siteSpaceView(ctx, site, ss, opts)),
    urls: { published: keyed(sectionRoot(ctx, site, section), site, opts) },
    ...(section.icon !== undefined ? { icon: section.icon } : {}),
  };
}

export function groupView(ctx: HandlerCtx, site: SiteRec, group: GroupRec, opts: ViewOpts): SiteSectionGroup {
  const children = treeView(ctx, site, group.children, opts);
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.localizedTitle ? { localizedTitle: group.localizedTitle } : {}),
    // Deprecated by the document in favour of `children`: the group's own sections.
    sections: children.filter((c): c is SiteSection => c.object === 'site-section'),
    ...(group.group ? { sectionGroup: group.group } : {}),
    draft: group.draft === true,
    children,
    ...(group.icon !== undefined ? { icon: group.icon } : {}),
  };
}

/** Sections and groups of one level of the tree that the caller sees, in order. */
function treeView(ctx: HandlerCtx, site: SiteRec, ids: string[], opts: ViewOpts): (SiteSection | SiteSectionGroup)[] {
  const st = sitesState(ctx.store);
  const out: (SiteSection | SiteSectionGroup)[] = [];
  for (const id of ids) {
    const section = st.sections.get(id);
    const group = section ? undefined : st.groups.get(id)!;
    if (opts.visitor && (section ?? group)!.draft) continue;
    out.push(section ? sectionView(ctx, site, section, opts) : groupView(ctx, site, group!, opts));
  }
  return out;
}

/** The published structure: the tree of sections and groups, or the site spaces of a site without sections. */
export function structureView(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): PublishedStructure {
  const st = sitesState(ctx.store);
  if (walk(st, site).sections.length) return { type: 'sections', structure: treeView(ctx, site, site.structure, opts) };
  return { type: 'siteSpaces', structure: shown(ctx, st, site, site.siteSpaces, opts).map((ss) => siteSpaceView(ctx, site, ss, opts)) };
}

/** Sections of a site as its list shows them to the caller, in structure order. */
export function listedSections(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): SectionRec[] {
  const st = sitesState(ctx.store);
  return walk(st, site).sections.filter((s) => seen(st, s, opts));
}

/** Site spaces of a site as a list shows them to the caller. */
export function listedSiteSpaces(ctx: HandlerCtx, site: SiteRec, opts: ViewOpts): SiteSpaceRec[] {
  const st = sitesState(ctx.store);
  return siteSpacesOf(st, site).filter((ss) => {
    if (opts.live && !isLive(ctx, site, ss)) return false;
    if (!seen(st, ss, opts)) return false;
    const section = ss.section ? st.sections.get(ss.section) : undefined;
    return !section || seen(st, section, opts);
  });
}
