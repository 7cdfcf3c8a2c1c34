import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'collections',
  summary: 'Collections: nested groups of spaces',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
    later('move', () => import('./move.js')),
    later('transfer', () => import('./transfer.js')),
    later('spaces', () => import('./spaces.js')),
    later('permissions', () => import('./permissions.js')),
  ],
});
