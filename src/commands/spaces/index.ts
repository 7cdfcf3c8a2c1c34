import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';

export default defineGroup({
  name: 'spaces',
  summary: 'Spaces: create, list, move, delete and restore',
  commands: [list, get, create],
});
