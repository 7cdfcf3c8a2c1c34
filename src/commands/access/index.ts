import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'access',
  summary: 'Audit access: who reaches a space, collection or site, and what a person reaches — with the role and why',
  commands: [later('who', () => import('./who.js')), later('of', () => import('./of.js'))],
});
