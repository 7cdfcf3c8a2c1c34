/**
 * The command tree. Each entry loads its group only when named on the command line; add a family
 * here with its section (the heading of top-level help).
 */
import type { LazyEntry } from '../cli/program.js';

export const entries: LazyEntry[] = [
  { name: 'auth', summary: 'Log in, show status, switch profiles, print the token, log out', section: 'Setup:', load: () => import('./auth/index.js') },
  { name: 'serve', summary: 'Run the sandbox: a stateful, in-memory server of the whole API', section: 'Setup:', load: () => import('./serve.js') },
  { name: 'api', summary: 'Send a raw request to any endpoint', section: 'Setup:', load: () => import('./api.js') },
  { name: 'completion', summary: 'Print the shell completion script for bash, zsh or fish', section: 'Setup:', load: () => import('./completion.js') },
  { name: '__complete', summary: 'Ids for shell completion (internal)', section: 'Setup:', hidden: true, load: () => import('./complete-ids.js') },
  { name: '__docs', summary: 'Print docs/commands.md (internal)', section: 'Setup:', hidden: true, load: () => import('./docs.js') },
  { name: 'orgs', summary: 'Organizations you belong to', section: 'Organization:', load: () => import('./orgs/index.js') },
  { name: 'members', summary: 'Organization members: roles, SSO, their spaces and teams', section: 'Organization:', load: () => import('./members/index.js') },
  { name: 'teams', summary: 'Teams of the organization', section: 'Organization:', load: () => import('./teams/index.js') },
  { name: 'ping', summary: 'Record that you were active in the organization (last seen)', section: 'Organization:', load: () => import('./ping.js') },
  { name: 'saml', summary: 'SAML single sign-on providers: add, change, remove', section: 'Organization:', load: () => import('./saml/index.js') },
  { name: 'sso', summary: 'Single sign-on links of the organization', section: 'Organization:', load: () => import('./sso/index.js') },
  { name: 'openapi', summary: 'OpenAPI specifications and their versions', section: 'Organization:', load: () => import('./openapi/index.js') },
  { name: 'tree', summary: 'Draw the organization: collections, their spaces, visibility and deleted spaces', section: 'Content:', load: () => import('./tree.js') },
  { name: 'collections', summary: 'Collections: nested groups of spaces', section: 'Content:', load: () => import('./collections/index.js') },
  { name: 'spaces', summary: 'Spaces: create, list, move, delete and restore', section: 'Content:', load: () => import('./spaces/index.js') },
  { name: 'content', summary: 'Space content: pages, files, search, import, templates and links', section: 'Content:', load: () => import('./content/index.js') },
  { name: 'cr', aliases: ['change-requests'], summary: 'Change requests: propose, review and merge edits to a space', section: 'Content:', load: () => import('./cr/index.js') },
  { name: 'comments', summary: 'Comments on a space or a change request: threads, replies, reactions', section: 'Content:', load: () => import('./comments/index.js') },
  { name: 'sites', summary: 'Sites: publish spaces, with sections, section groups and site spaces', section: 'Publishing:', load: () => import('./sites/index.js') },
];
