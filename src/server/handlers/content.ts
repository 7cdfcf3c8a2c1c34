/** Space content: the active revision, pages, files, links, backlinks, search, import and templates. */
import { ops } from '../../contract/content.js';
import {
  applyTemplate,
  backlinks,
  commitToSpace,
  contentOf,
  dropSearchIndexes,
  dropUnusedBlobs,
  fileView,
  findFile,
  findPage,
  linkItemsInSlices,
  linkList,
  linksInSlices,
  pageTree,
  pageView,
  importWebsite,
  revisionOf,
  revisionView,
  searchHits,
  spaceScope,
  type ContentScope,
} from '../content/index.js';
import { forbidden, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import { withDocuments } from '../markdown-reads.js';
import { paginate, scopeOf } from '../paginate.js';
import { applyTemplateToChangeRequest, changeRequestViewById, templateFiles } from './change-requests.js';
import { spaceFor } from './spaces.js';

/** The active revision of a space the caller may view (a merge revision names its change request as they see it). */
function readable(ctx: HandlerCtx, spaceId: string): ContentScope {
  return { ...spaceScope(ctx.store, ctx.baseUrl, spaceFor(ctx, spaceId).space), changeRequest: (id) => changeRequestViewById(ctx, id) };
}

/** A space whose content the caller may edit: 403 for a locked space or a role below edit. */
function editable(ctx: HandlerCtx, spaceId: string) {
  const { space, permissions } = spaceFor(ctx, spaceId);
  if (!permissions.edit) {
    throw forbidden(
      space.editMode === 'locked'
        ? `space ${spaceId} is locked: its content cannot be edited (unlock it with editMode live)`
        : `editing the content of space ${spaceId} needs the edit role or above on it`,
    );
  }
  return space;
}

function pageIn(scope: ContentScope, pageId: string) {
  const entry = findPage(scope.content, pageId);
  if (!entry) throw notFound(`no page ${pageId} in space ${scope.space}`);
  return entry;
}

function fileIn(scope: ContentScope, fileId: string) {
  const file = findFile(scope.content, fileId);
  if (!file) throw notFound(`no file ${fileId} in space ${scope.space}`);
  return file;
}

const handlers: Handlers<typeof ops> = {
  getSpaceContent: (ctx, { params, query }) => revisionView(readable(ctx, params.spaceId), query),

  importSpaceContent: async (ctx, { params, body }) => {
    editable(ctx, params.spaceId);
    // The space may change while the site is read: checked again, and the pages placed on its latest revision.
    const { committed, ...counts } = await importWebsite(ctx.store, body.url, ctx.connection, {
      latest: () => contentOf(revisionOf(ctx.store, editable(ctx, params.spaceId).revision)),
      commit: (content) => commitToSpace(ctx.store, editable(ctx, params.spaceId), content, `Import from ${body.url}`),
    });
    return { revision: committed.id, ...counts };
  },

  applySpaceTemplate: (ctx, { params, body }) => {
    // With `changeRequestId` (its id or number), the template goes into that change request's content.
    if (body.changeRequestId !== undefined) {
      applyTemplateToChangeRequest(ctx, params.spaceId, body.changeRequestId, body.id, body.params);
      return undefined;
    }
    const space = editable(ctx, params.spaceId);
    const content = applyTemplate(ctx.store, space.id, contentOf(revisionOf(ctx.store, space.revision)), body.id, body.params, templateFiles(ctx));
    commitToSpace(ctx.store, space, content, `Apply template ${body.id}`);
    return undefined;
  },

  listSpacePages: (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    return { pages: pageTree(scope, scope.content.pages, '', query) };
  },

  listSpaceFiles: (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    const page = paginate(scope.content.files, query, (f) => f.id, scopeOf('space-files', scope.space));
    return { ...page, items: page.items.map((f) => fileView(scope, f, query)) };
  },

  getSpaceFile: (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    return fileView(scope, fileIn(scope, params.fileId), query);
  },

  listSpaceFileBacklinks: async (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    const file = fileIn(scope, params.fileId);
    const all = backlinks(scope, await linksInSlices(scope.content, ctx.baseUrl), { file: file.id });
    return paginate(all, query, (b) => b.page ?? '', scopeOf('file-backlinks', scope.space, file.id));
  },

  getSpacePage: (ctx, { params, query }) =>
    withDocuments((documentOf) => {
      const scope = readable(ctx, params.spaceId);
      const { page, path } = pageIn(scope, params.pageId);
      // Every variable is deterministic, so `deterministic-only` evaluates them all; the sandbox has no
      // reusable contents, so `dereferenced` leaves every page as it is.
      return pageView(scope, page, path, { ...query, format: query.format ?? 'document', evaluated: Boolean(query.evaluated), documentOf });
    }),

  listSpacePageLinks: async (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    const { page } = pageIn(scope, params.pageId);
    const links = (await linksInSlices(scope.content, ctx.baseUrl)).filter((l) => l.from.id === page.id);
    return linkList(await linkItemsInSlices(scope, links), query, scopeOf('page-links', scope.space, page.id, query.status));
  },

  listSpacePageBacklinks: async (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    const { page } = pageIn(scope, params.pageId);
    const all = backlinks(scope, await linksInSlices(scope.content, ctx.baseUrl), { page: page.id });
    return paginate(all, query, (b) => b.page ?? '', scopeOf('page-backlinks', scope.space, page.id));
  },

  listSpaceLinks: async (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    return linkList(await linkItemsInSlices(scope, await linksInSlices(scope.content, ctx.baseUrl)), query, scopeOf('space-links', scope.space, query.status));
  },

  searchSpaceContent: (ctx, { params, query }) => {
    const scope = readable(ctx, params.spaceId);
    // Ranked first, rendered (with each hit's matching sections) only for the page answered.
    return searchHits(scope, scope.space, query.query, (hits, view) => {
      const page = paginate(hits, query, (r) => r.id, scopeOf('search', scope.space, query.query));
      return { ...page, items: page.items.map(view) };
    });
  },
};

/** The content family owns the content model: a purged space's search indexes and unused file bytes go with it. */
export const family = defineFamily({
  ops,
  handlers,
  onSpacePurged: (store, spaceId) => {
    dropSearchIndexes(store, spaceId);
    dropUnusedBlobs(store, spaceId);
  },
});
