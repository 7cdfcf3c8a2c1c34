import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'sections',
  summary: 'Sections of a site: list, add, update, move, remove',
  commands: [
    later('list', () => import('./list.js')),
    later('add', () => import('./add.js')),
    later('update', () => import('./update.js')),
    later('move', () => import('./move.js')),
    later('remove', () => import('./remove.js')),
  ],
});
