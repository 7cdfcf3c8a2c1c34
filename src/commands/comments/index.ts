import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'comments',
  summary: 'Comments on a space or a change request: threads, replies, reactions',
  commands: [
    later('list', () => import('./list.js')),
    later('get', () => import('./get.js')),
    later('post', () => import('./post.js')),
    later('edit', () => import('./edit.js')),
    later('resolve', () => import('./resolve.js')),
    later('reopen', () => import('./reopen.js')),
    later('react', () => import('./react.js')),
    later('unreact', () => import('./unreact.js')),
    later('delete', () => import('./delete.js')),
    later('replies', () => import('./replies.js')),
    later('reply', () => import('./reply.js')),
    later('commenters', () => import('./commenters.js')),
  ],
});
