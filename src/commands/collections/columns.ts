/** How a collection shows in tables and key/value lines (shared by the family's commands). */
import type { Column } from '../../cli/output.js';
import type { Collection } from '../../contract/collections.js';

export const collectionColumns: Column<Collection>[] = ['id', 'title', 'parent', 'defaultLevel', 'description'];
export const collectionFields: Column<Collection>[] = [
  'id', 'title', 'description', 'organization', 'parent', 'defaultLevel',
  { key: 'app', header: 'url', value: (c) => c.urls.app },
];
