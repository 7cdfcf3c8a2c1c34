import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'members',
  summary: 'Organization members: roles, SSO, their spaces and teams',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('set-role', () => import('./set-role.js')),
    later('remove', () => import('./remove.js')),
    later('sso', () => import('./sso.js')),
    later('spaces', () => import('./spaces.js')),
    later('teams', () => import('./teams.js')),
  ],
});
