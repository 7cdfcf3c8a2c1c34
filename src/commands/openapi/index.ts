import { defineGroup, later } from '../../cli/command.js';
import { publish, unpublish } from './visibility.js';

export default defineGroup({
  name: 'openapi',
  summary: 'OpenAPI specifications and their versions',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('put', () => import('./put.js')),
    publish,
    unpublish,
    later('delete', () => import('./delete.js')),
    later('versions', () => import('./versions.js')),
    later('version', () => import('./version.js')),
    later('content', () => import('./content.js')),
  ],
});
