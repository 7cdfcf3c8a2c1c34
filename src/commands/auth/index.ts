import { defineGroup, later } from '../../cli/command.js';

export default defineGroup({
  name: 'auth',
  summary: 'Log in, show status, switch profiles, print the token, log out',
  commands: [
    later('login', () => import('./login.js')),
    later('status', () => import('./status.js')),
    later('switch', () => import('./switch.js')),
    later('logout', () => import('./logout.js')),
    later('token', () => import('./token.js')),
  ],
});
