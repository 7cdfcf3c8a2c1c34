import { defineGroup } from '../../cli/command.js';
import login from './login.js';
import status from './status.js';
import logout from './logout.js';
import token from './token.js';

export default defineGroup({ name: 'auth', summary: 'Log in, show status, print the token, log out', commands: [login, status, logout, token] });
