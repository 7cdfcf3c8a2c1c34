import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import del from './delete.js';

export default defineGroup({
  name: 'saml',
  summary: 'SAML single sign-on providers: add, change, remove',
  commands: [list, get, create, update, del],
});
