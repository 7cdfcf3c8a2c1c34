import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'links',
  summary: 'Invite links: anyone holding one joins with its role (in the organization, or on a space or collection)',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
  ],
});
