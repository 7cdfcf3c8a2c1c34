/**
 * Change requests: numbered per space, listed with filters in a space and across an organization
 * (the model: change-requests/). `update` merges the space's newer content into one, `merge` makes
 * it the space's new revision, and `pdf` exports it at a signed URL (downloads.ts).
 */
import { ops } from '../../contract/change-requests.js';
import { orgFor } from '../access.js';
import {
  commitToChangeRequest,
  contentAt,
  createChangeRequest,
  crBase,
  crFor,
  dropSpace,
  editChangeRequest,
  fileIn,
  filterScope,
  introducedBrokenLinks,
  listOfOrganization,
  listOfSpace,
  mergeChangeRequest,
  pageIn,
  spaceCountersOf,
  touchChangeRequest,
  updateFromSpace,
  writable,
} from '../change-requests/model.js';
import { PDF_DOWNLOAD, pdfDownload, pdfFilename } from '../change-requests/pdf.js';
import { changeRequestView, readable } from '../change-requests/views.js';
import { backlinks, fileView, linkItemsInSlices, linkList, linksInSlices, pageTree, pageView, importWebsite, revisionView } from '../content/index.js';
import { downloadUrl } from '../downloads.js';
import { badRequest } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { withDocuments } from '../markdown-reads.js';
import { paginate, scopeOf } from '../paginate.js';
import { spaceFor } from '../spaces/model.js';

const handlers: Handlers<typeof ops> = {
  listChangeRequests: (ctx, { params, query }) => {
    const { space, permissions } = spaceFor(ctx, params.spaceId);
    const page = paginate(listOfSpace(ctx.store, space, query), query, (cr) => cr.id, scopeOf('change-requests', space.id, ...filterScope(query)));
    return { ...page, items: page.items.map((cr) => changeRequestView(ctx, space, cr, permissions)) };
  },

  createChangeRequest: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    return changeRequestView(ctx, found.space, createChangeRequest(ctx, found, body), found.permissions);
  },

  getChangeRequest: (ctx, { params }) => {
    const { space, cr, permissions } = crFor(ctx, params.spaceId, params.changeRequestId);
    return changeRequestView(ctx, space, cr, permissions);
  },

  updateChangeRequest: (ctx, { params, body }) => {
    const found = crFor(ctx, params.spaceId, params.changeRequestId);
    if (!editChangeRequest(ctx, found, body)) ctx.unchanged = true;
    return changeRequestView(ctx, found.space, found.cr, found.permissions);
  },

  listOrganizationChangeRequests: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const found = listOfOrganization(ctx, params.organizationId, query);
    const page = paginate(found, query, (x) => x.cr.id, scopeOf('org-change-requests', params.organizationId, ...filterScope(query)));
    return {
      ...page,
      items: page.items.map(({ space, cr, permissions }) => changeRequestView(ctx, space, cr, permissions)),
    };
  },

  mergeChangeRequest: (ctx, { params }) => mergeChangeRequest(ctx, params.spaceId, params.changeRequestId),

  updateChangeRequestFromSpace: (ctx, { params }) => updateFromSpace(ctx, params.spaceId, params.changeRequestId),

  getChangeRequestPdf: (ctx, { params, query }) => {
    const { space, cr, scope } = readable(ctx, params);
    // The document accepts `only` without `page`; the sandbox has no page to make it alone.
    if (query.only && query.page === undefined) throw badRequest('page: only=true needs a page');
    const page = query.page === undefined ? undefined : pageIn(scope, cr, query.page).page;
    const claims = { space: space.id, cr: cr.id, revision: cr.revision, ...(page ? { page: page.id } : {}), ...(query.only ? { only: 'true' } : {}) };
    return { url: downloadUrl(ctx.store, ctx.baseUrl, PDF_DOWNLOAD, claims, pdfFilename(cr, page)) };
  },

  getChangeRequestContent: (ctx, { params, query }) => revisionView(readable(ctx, params).scope, query),

  importChangeRequestContent: async (ctx, { params, body }) => {
    const what = 'importing content into a change request';
    writable(ctx, params, what);
    // The change request may change while the site is read: checked again, and the pages placed on its latest revision.
    const { committed, ...counts } = await importWebsite(ctx.store, body.url, ctx.connection, {
      latest: () => contentAt(ctx.store, writable(ctx, params, what).cr.revision),
      commit: (content) => {
        const { cr } = writable(ctx, params, what);
        const rev = commitToChangeRequest(ctx.store, cr, content, `Import from ${body.url}`);
        touchChangeRequest(ctx, cr);
        return rev;
      },
    });
    return { revision: committed.id, ...counts };
  },

  listChangeRequestPages: (ctx, { params, query }) => {
    const { scope } = readable(ctx, params);
    return { pages: pageTree(scope, scope.content.pages, '', query) };
  },

  listChangeRequestFiles: (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const page = paginate(scope.content.files, query, (f) => f.id, scopeOf('cr-files', cr.id));
    return { ...page, items: page.items.map((f) => fileView(scope, f, query)) };
  },

  getChangeRequestFile: (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    return fileView(scope, fileIn(scope, cr, params.fileId), query);
  },

  listChangeRequestFileBacklinks: async (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const file = fileIn(scope, cr, params.fileId);
    const all = backlinks(scope, await linksInSlices(scope.content, ctx.baseUrl), { file: file.id });
    return paginate(all, query, (b) => b.page ?? '', scopeOf('cr-file-backlinks', cr.id, file.id));
  },

  getChangeRequestPage: (ctx, { params, query }) =>
    withDocuments((documentOf) => {
      const { cr, scope } = readable(ctx, params);
      const { page, path } = pageIn(scope, cr, params.pageId);
      // Every variable is deterministic, so `deterministic-only` evaluates them all; the sandbox has no
      // reusable contents, so `dereferenced` leaves every page as it is.
      return pageView(scope, page, path, { ...query, format: query.format ?? 'document', evaluated: Boolean(query.evaluated), documentOf });
    }),

  listChangeRequestPageLinks: async (ctx, { params, query }) => {
    const { cr, scope } = readable(ctx, params);
    const { page } = pageIn(scope, cr, params.pageId);
    const base = contentAt(ctx.store, crBase(cr));
    const items = await linkItemsInSlices(
      scope,
      (await linksInSlices(scope.content, ctx.baseUrl)).filter((l) => l.from.id === page.id),
    );
    const introduced = introducedBrokenLinks(items, await linksInSlices(base, ctx.baseUrl), page.id);
    return linkList(items, query, scopeOf('cr-page-links', cr.id, page.id), introduced);
  },
};

export const family = defineFamily({
  ops,
  handlers,
  counters: { space: spaceCountersOf },
  onSpacePurged: dropSpace,
  downloads: { [PDF_DOWNLOAD]: pdfDownload },
});
