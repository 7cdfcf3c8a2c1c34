import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import del from './delete.js';
import restore from './restore.js';
import duplicate from './duplicate.js';
import move from './move.js';
import transfer from './transfer.js';
// Owned by the content family (the links of a space's pages), mounted here as `spaces links`.
import links from '../content/space-links.js';

export default defineGroup({
  name: 'spaces',
  summary: 'Spaces: create, list, move, delete and restore',
  commands: [list, get, create, update, del, restore, duplicate, move, transfer, links],
});
