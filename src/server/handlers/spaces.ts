/** Spaces: create, read, list, update, and the lifecycle (delete, restore, duplicate, move, transfer). The model: spaces/. */
import { ops } from '../../contract/spaces.js';
import { collectionRole, orgFor, requireRole } from '../access.js';
import { commitToSpace } from '../content/model.js';
import { newSpaceContent, type TemplateParams } from '../content/templates.js';
import { badRequest } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { sameSecret } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import {
  collectionIn,
  createSpaceRec,
  duplicateSpace,
  moveSpace,
  requireSpaceAdmin,
  restoreSpace,
  spaceFor,
  templateFiles,
  transferSpace,
  trashedSpaces,
  trashSpace,
  updateSpace,
  visibleSpaces,
} from '../spaces/model.js';
import { spaceView, trashView } from '../spaces/views.js';

const handlers: Handlers<typeof ops> = {
  createSpace: (ctx, { params, body }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    // In a collection, the role on it (its `permissions.create` says so).
    const parent = body.parent === undefined ? undefined : collectionIn(ctx.store, params.organizationId, body.parent, 'parent');
    requireRole(parent ? collectionRole(ctx.store, ctx.caller.user.id, parent) : role, 'create', 'creating a space');
    if (body.computedSource !== undefined) throw badRequest('computedSource: content from a computed source (an integration) is not supported by the sandbox');
    if (body.empty && body.template) throw badRequest('empty: a space made from a template is not empty; give one of empty and template');
    // Checked before the space exists: a template's error changes nothing.
    const content = body.template && newSpaceContent(ctx.store, body.template as { id: string; params?: TemplateParams }, templateFiles(ctx));
    // `empty: true` asks for a space without pages: a new space has none.
    const space = createSpaceRec(ctx.store, {
      org: params.organizationId,
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.emoji !== undefined ? { emoji: body.emoji } : {}),
      ...(body.parent !== undefined ? { parent: body.parent } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
      ...(body.editMode !== undefined ? { editMode: body.editMode } : {}),
    });
    if (content) commitToSpace(ctx.store, space, content, `Apply template ${body.template!.id}`);
    return spaceView(ctx, space);
  },

  listSpaces: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    if (query.deleted) {
      const trash = trashedSpaces(ctx.store, params.organizationId, ctx.caller.user.id);
      const page = paginate(trash, query, (s) => s.id, scopeOf('spaces', params.organizationId, 'deleted'));
      return { ...page, items: page.items.map((s) => trashView(ctx, s)) };
    }
    const page = paginate(visibleSpaces(ctx, params.organizationId), query, (s) => s.id, scopeOf('spaces', params.organizationId));
    return { ...page, items: page.items.map((s) => spaceView(ctx, s)) };
  },

  getSpace: (ctx, { params, query }) => {
    const space = ctx.store.data.spaces.get(params.spaceId);
    // A share link lets anyone with its key view a live `share-link` space, as a reader.
    if (space && !space.deletedAt && space.visibility === 'share-link' && sameSecret(query.shareKey, space.shareKey)) {
      return spaceView(ctx, space, 'read');
    }
    return spaceView(ctx, spaceFor(ctx, params.spaceId).space);
  },

  updateSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    if (!updateSpace(ctx.store, found, body)) ctx.unchanged = true;
    return spaceView(ctx, found.space);
  },

  deleteSpace: (ctx, { params }) => {
    // A missing target answers 204, not 404 (the official document gives a delete's 204 as "the target did not exist"); so does one already in the trash.
    const existing = ctx.store.data.spaces.get(params.spaceId);
    if (!existing || existing.deletedAt) {
      ctx.unchanged = true;
      return undefined;
    }
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'deleting a space');
    trashSpace(ctx.store, found.space);
    return undefined;
  },

  restoreSpace: (ctx, { params }) => {
    const found = spaceFor(ctx, params.spaceId, { deleted: true });
    requireSpaceAdmin(found, 'restoring a space');
    restoreSpace(ctx.store, found.space);
    return spaceView(ctx, found.space);
  },

  duplicateSpace: (ctx, { params }) => spaceView(ctx, duplicateSpace(ctx.store, spaceFor(ctx, params.spaceId), ctx.caller.user.id)),

  moveSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'moving a space');
    moveSpace(ctx.store, found.space, body);
    return spaceView(ctx, found.space);
  },

  transferSpace: (ctx, { params, body }) => {
    const found = spaceFor(ctx, params.spaceId);
    requireSpaceAdmin(found, 'transferring a space');
    transferSpace(ctx, found.space, body);
    return spaceView(ctx, found.space);
  },
};

export const family = defineFamily({ ops, handlers });
