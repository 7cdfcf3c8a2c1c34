import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'members',
  summary: 'Members of a team: list, add and remove (by user id or email, many at once)',
  commands: [later('list', () => import('./list.js')), later('add', () => import('./add.js')), later('remove', () => import('./remove.js'))],
});
