import { defineGroup } from '../../../cli/command.js';
import list from './list.js';
import add from './add.js';
import update from './update.js';
import move from './move.js';
import remove from './remove.js';

export default defineGroup({
  name: 'spaces',
  summary: 'Site spaces (the spaces a site publishes): list, add, update, move, remove',
  commands: [list, add, update, move, remove],
});
