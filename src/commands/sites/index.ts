import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'sites',
  summary: 'Sites: publish spaces, with sections, section groups and site spaces',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
    later('publish', () => import('./publish.js')),
    later('unpublish', () => import('./unpublish.js')),
    later('published', () => import('./published.js')),
    later('sections', () => import('./sections/index.js')),
    later('section-groups', () => import('./section-groups/index.js')),
    later('spaces', () => import('./spaces/index.js')),
    later('schema', () => import('./schema/index.js')),
    later('permissions', () => import('./permissions.js')),
  ],
});
