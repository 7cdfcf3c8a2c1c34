import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'content',
  summary: 'Space content: revisions, pages, files, search, import, templates and links',
  commands: [
    later('show', () => import('./show.js')),
    later('pages', () => import('./pages.js')),
    later('page', () => import('./page.js')),
    later('files', () => import('./files.js')),
    later('file', () => import('./file.js')),
    later('search', () => import('./search.js')),
    later('import', () => import('./import.js')),
    later('template', () => import('./template.js')),
    later('links', () => import('./links.js')),
    later('backlinks', () => import('./backlinks.js')),
    later('export', () => import('./export.js')),
  ],
});
