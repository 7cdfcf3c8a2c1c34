import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'section-groups',
  summary: 'Section groups of a site: list, add, update, move, add and remove sections, remove',
  commands: [
    later('list', () => import('./list.js')),
    later('add', () => import('./add.js')),
    later('update', () => import('./update.js')),
    later('move', () => import('./move.js')),
    later('add-section', () => import('./add-section.js')),
    later('remove-section', () => import('./remove-section.js')),
    later('remove', () => import('./remove.js')),
  ],
});
