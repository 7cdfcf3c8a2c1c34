import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import edit from './edit.js';
import merge from './merge.js';
import update from './update.js';
import pdf from './pdf.js';
import content from './content.js';
import pages from './pages.js';
import page from './page.js';
import importCmd from './import.js';

export default defineGroup({
  name: 'cr',
  aliases: ['change-requests'],
  summary: 'Change requests: propose, review and merge edits to a space',
  commands: [list, get, create, edit, merge, update, pdf, content, pages, page, importCmd],
});
