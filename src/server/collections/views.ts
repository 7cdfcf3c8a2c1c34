/** Collections as the API shows them to the caller. */
import type { Collection } from '../../contract/collections.js';
import { collectionPermissions, collectionRole } from '../access.js';
import type { HandlerCtx } from '../handler.js';
import type { CollectionRec } from '../store.js';

export function collectionView(ctx: HandlerCtx, c: CollectionRec): Collection {
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.org,
    ...(c.parent ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel,
    urls: { location: `${ctx.baseUrl}/v1/collections/${c.id}`, app: `${ctx.baseUrl}/app/o/${c.org}/c/${c.id}` },
    permissions: collectionPermissions(collectionRole(ctx.store, ctx.caller.user.id, c)),
  };
}
