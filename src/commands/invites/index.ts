import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'invites',
  summary: 'Invite people to the organization: by email, or with invite links',
  commands: [later('create', () => import('./create.js')), later('join', () => import('./join.js')), later('links', () => import('./links/index.js'))],
});
