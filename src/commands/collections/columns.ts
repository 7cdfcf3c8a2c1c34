/** How a collection shows in tables and key/value lines (shared by the family's commands). */
import { withExtras, type Column } from '../../cli/output.js';
import type { Collection } from '../../contract/collections.js';

export const collectionFields: Column<Collection>[] = [
  'id',
  'title',
  'description',
  'organization',
  'parent',
  'defaultLevel',
  { key: 'app', header: 'url', value: (c) => c.urls.app },
];
export const collectionColumns: Column<Collection>[] = withExtras(['id', 'title', 'parent', 'defaultLevel', 'description'], collectionFields);
