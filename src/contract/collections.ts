/** Collections: nested groups of spaces. */
import { z } from 'zod';
import { DefaultLevel, defineOp, id, listOf, pageQuery, pathId, Permissions, positionOf, qBool, Urls } from './op.js';
import { Space } from './spaces.js';

export const collectionTitle = z.string().max(50);
export const collectionDescription = z.string().max(100);

export const Collection = z.lazy(() =>
  z.object({
    object: z.literal('collection'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    organization: z.string(),
    parent: z.string().optional(),
    defaultLevel: DefaultLevel,
    urls: Urls,
    permissions: Permissions,
  }),
);
export type Collection = z.infer<typeof Collection>;

const org = z.object({ organizationId: pathId() });
const collection = z.object({ collectionId: pathId() });

export const CreateCollectionBody = z.strictObject({
  title: collectionTitle.optional(),
  parent: id().optional(),
});
export type CreateCollectionBody = z.output<typeof CreateCollectionBody>;
export const UpdateCollectionBody = z.strictObject({
  title: collectionTitle.optional(),
  description: collectionDescription.optional(),
  defaultLevel: DefaultLevel.optional(),
});
export const MoveCollectionBody = z.strictObject({
  parent: id().nullable().optional(),
  position: positionOf('space', 'collection').optional(),
});
export type MoveCollectionBody = z.output<typeof MoveCollectionBody>;
export const TransferCollectionBody = z.strictObject({ organization: id() });

export const ops = {
  listCollections: defineOp({
    id: 'listCollections',
    method: 'GET',
    path: '/orgs/{organizationId}/collections',
    params: org,
    query: z.object({ ...pageQuery, nested: qBool().optional() }),
    response: listOf(Collection),
    paginated: true,
  }),
  createCollection: defineOp({
    id: 'createCollection',
    method: 'POST',
    path: '/orgs/{organizationId}/collections',
    params: org,
    body: CreateCollectionBody,
    response: Collection,
    status: 201,
  }),
  getCollection: defineOp({
    id: 'getCollection',
    method: 'GET',
    path: '/collections/{collectionId}',
    params: collection,
    response: Collection,
    cacheable: true,
  }),
  updateCollection: defineOp({
    id: 'updateCollection',
    method: 'PATCH',
    path: '/collections/{collectionId}',
    params: collection,
    body: UpdateCollectionBody,
    response: Collection,
  }),
  deleteCollection: defineOp({
    id: 'deleteCollection',
    method: 'DELETE',
    path: '/collections/{collectionId}',
    params: collection,
    status: 204,
  }),
  listCollectionSpaces: defineOp({
    id: 'listCollectionSpaces',
    method: 'GET',
    path: '/collections/{collectionId}/spaces',
    params: collection,
    query: z.object(pageQuery),
    response: listOf(Space),
    paginated: true,
  }),
  moveCollection: defineOp({
    id: 'moveCollection',
    method: 'POST',
    path: '/collections/{collectionId}/move',
    params: collection,
    body: MoveCollectionBody,
    response: Collection,
    status: 200,
  }),
  transferCollection: defineOp({
    id: 'transferCollection',
    method: 'POST',
    path: '/collections/{collectionId}/transfer',
    params: collection,
    body: TransferCollectionBody,
    response: Collection,
    status: 200,
  }),
};
