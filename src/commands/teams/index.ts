import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'teams',
  summary: 'Teams of the organization and their members',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
    later('members', () => import('./members/index.js')),
  ],
});
