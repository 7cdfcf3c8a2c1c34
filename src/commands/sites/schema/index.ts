import { defineGroup, later } from '../../../cli/command.js';

export default defineGroup({
  name: 'schema',
  summary: 'Adaptive content: the schema of visitor claims, and the conditions it offers',
  commands: [later('get', () => import('./get.js')), later('set', () => import('./set.js')), later('conditions', () => import('./conditions.js'))],
});
