import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'audit',
  summary: 'The organization’s audit log: who changed what, when (admins)',
  commands: [later('list', () => import('./list.js')), later('get', () => import('./get.js')), later('actions', () => import('./actions.js'))],
});
