/** How a space shows in tables and key/value lines (shared by the family's commands). */
import type { Column } from '../../cli/output.js';
import type { Space } from '../../contract/spaces.js';

export const spaceColumns: Column<Space>[] = ['id', 'title', 'visibility', 'parent', 'updatedAt'];
export const spaceFields: Column<Space>[] = [
  'id', 'title', 'emoji', 'visibility', 'organization', 'parent', 'editMode', 'language', 'defaultLevel',
  'revision', 'createdAt', 'updatedAt', 'deletedAt', 'changeRequestsOpen', 'comments',
  { key: 'app', header: 'url', value: (s) => s.urls.app },
];
