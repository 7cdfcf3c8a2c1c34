import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import del from './delete.js';
import move from './move.js';
import transfer from './transfer.js';
import spaces from './spaces.js';

export default defineGroup({
  name: 'collections',
  summary: 'Collections: nested groups of spaces',
  commands: [list, get, create, update, del, move, transfer, spaces],
});
