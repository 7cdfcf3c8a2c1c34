import { defineGroup } from '../../../cli/command.js';
import list from './list.js';
import add from './add.js';
import update from './update.js';
import move from './move.js';
import addSection from './add-section.js';
import removeSection from './remove-section.js';
import remove from './remove.js';

export default defineGroup({
  name: 'section-groups',
  summary: 'Section groups of a site: list, add, update, move, add and remove sections, remove',
  commands: [list, add, update, move, addSection, removeSection, remove],
});
