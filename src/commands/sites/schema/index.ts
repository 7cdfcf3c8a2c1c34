import { defineGroup } from '../../../cli/command.js';
import get from './get.js';
import set from './set.js';
import conditions from './conditions.js';

export default defineGroup({
  name: 'schema',
  summary: 'Adaptive content: the schema of visitor claims, and the conditions it offers',
  commands: [get, set, conditions],
});
