import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'spaces',
  summary: 'Spaces: create, list, move, delete and restore',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
    later('restore', () => import('./restore.js')),
    later('duplicate', () => import('./duplicate.js')),
    later('move', () => import('./move.js')),
    later('transfer', () => import('./transfer.js')),
    // Owned by the content family (the links of a space's pages), mounted here as `spaces links`.
    later('links', () => import('../content/space-links.js')),
    later('permissions', () => import('./permissions.js')),
  ],
});
