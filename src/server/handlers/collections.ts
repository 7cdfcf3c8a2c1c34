/** Collections: nested groups of spaces, ordered among the spaces of their container (the model: collections/). */
import { ops } from '../../contract/collections.js';
import { unlessSame } from '../audit/model.js';
import { collectionPermissions, collectionRole, orgFor } from '../access.js';
import { collectionFor, createCollection, deleteCollection, moveCollection, requireAdmin, transferCollection, treeOrder } from '../collections/model.js';
import { collectionView } from '../collections/views.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import { visibleSpaces } from '../spaces/model.js';
import { spaceView } from '../spaces/views.js';

const handlers: Handlers<typeof ops> = {
  listCollections: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const nested = query.nested ?? true;
    const all = treeOrder(ctx.store, params.organizationId, nested).filter((c) => collectionPermissions(collectionRole(ctx.store, ctx.caller.user.id, c)).view);
    const page = paginate(all, query, (c) => c.id, scopeOf('collections', params.organizationId, nested));
    return { ...page, items: page.items.map((c) => collectionView(ctx, c)) };
  },

  createCollection: (ctx, { params, body }) => collectionView(ctx, createCollection(ctx, params.organizationId, body)),

  getCollection: (ctx, { params }) => collectionView(ctx, collectionFor(ctx, params.collectionId).collection),

  updateCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'updating a collection');
    unlessSame(
      ctx,
      () => collection,
      () => {
        if (body.title !== undefined) collection.title = body.title;
        if (body.description !== undefined) collection.description = body.description;
        if (body.defaultLevel !== undefined) collection.defaultLevel = body.defaultLevel;
      },
    );
    return collectionView(ctx, collection);
  },

  deleteCollection: (ctx, { params }) => {
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (!ctx.store.data.collections.has(params.collectionId)) {
      ctx.unchanged = true;
      return undefined;
    }
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'deleting a collection');
    deleteCollection(ctx.store, collection);
    return undefined;
  },

  listCollectionSpaces: (ctx, { params, query }) => {
    const { collection } = collectionFor(ctx, params.collectionId);
    const order = ctx.store.data.children.get(collection.id) ?? [];
    const rank = new Map(order.map((id, i) => [id, i]));
    const spaces = visibleSpaces(ctx, collection.org, (s) => s.parent === collection.id).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    const page = paginate(spaces, query, (s) => s.id, scopeOf('collection-spaces', collection.id));
    return { ...page, items: page.items.map((s) => spaceView(ctx, s)) };
  },

  moveCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'moving a collection');
    moveCollection(ctx.store, collection, body);
    return collectionView(ctx, collection);
  },

  transferCollection: (ctx, { params, body }) => {
    const { collection, permissions } = collectionFor(ctx, params.collectionId);
    requireAdmin(permissions, 'transferring a collection');
    transferCollection(ctx, collection, body.organization);
    return collectionView(ctx, collection);
  },
};

export const family = defineFamily({ ops, handlers });
