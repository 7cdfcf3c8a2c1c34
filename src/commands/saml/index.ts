import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'saml',
  summary: 'SAML single sign-on providers: add, change, remove',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('create', () => import('./create.js')),
    later('update', () => import('./update.js')),
    later('delete', () => import('./delete.js')),
  ],
});
