import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'spaces',
  summary: 'Site spaces (the spaces a site publishes): list, add, update, move, remove',
  commands: [
    later('list', () => import('./list.js')),
    later('add', () => import('./add.js')),
    later('update', () => import('./update.js')),
    later('move', () => import('./move.js')),
    later('remove', () => import('./remove.js')),
  ],
});
