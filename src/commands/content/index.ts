import { defineGroup } from '../../cli/command.js';
import show from './show.js';
import pages from './pages.js';
import page from './page.js';
import files from './files.js';
import file from './file.js';
import search from './search.js';
import importCmd from './import.js';
import template from './template.js';
import links from './links.js';
import backlinks from './backlinks.js';

export default defineGroup({
  name: 'content',
  summary: 'Space content: revisions, pages, files, search, import, templates and links',
  commands: [show, pages, page, files, file, search, importCmd, template, links, backlinks],
});
