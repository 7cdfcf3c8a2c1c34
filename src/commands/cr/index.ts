import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import edit from './edit.js';

export default defineGroup({
  name: 'cr',
  aliases: ['change-requests'],
  summary: 'Change requests: propose, review and merge edits to a space',
  commands: [list, get, create, edit],
});
