import { defineGroup } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import setRole from './set-role.js';
import remove from './remove.js';
import sso from './sso.js';
import spaces from './spaces.js';
import teams from './teams.js';

export default defineGroup({
  name: 'members',
  summary: 'Organization members: roles, SSO, their spaces and teams',
  commands: [list, get, setRole, remove, sso, spaces, teams],
});
