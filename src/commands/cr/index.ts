import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'cr',
  aliases: ['change-requests'],
  summary: 'Change requests: propose, review and merge edits to a space',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('edit', () => import('./edit.js')),
    later('merge', () => import('./merge.js')),
    later('update', () => import('./update.js')),
    later('pdf', () => import('./pdf.js')),
    later('content', () => import('./content.js')),
    later('pages', () => import('./pages.js')),
    later('page', () => import('./page.js')),
    later('files', () => import('./files.js')),
    later('file', () => import('./file.js')),
    later('links', () => import('./links.js')),
    later('backlinks', () => import('./backlinks.js')),
    later('import', () => import('./import.js')),
  ],
});
