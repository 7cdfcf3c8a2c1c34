import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import post from './post.js';
import edit from './edit.js';
import resolve from './resolve.js';
import reopen from './reopen.js';
import react from './react.js';
import unreact from './unreact.js';
import del from './delete.js';
import replies from './replies.js';
import reply from './reply.js';
import commenters from './commenters.js';

export default defineGroup({
  name: 'comments',
  summary: 'Comments on a space or a change request: threads, replies, reactions',
  commands: [list, get, post, edit, resolve, reopen, react, unreact, del, replies, reply, commenters],
});
