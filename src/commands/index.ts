/**
 * The command tree. Each entry loads its group only when named on the command line; add a family
 * here with its section (the heading of top-level help). Its summary and aliases are its
 * definition's (`defineGroup`/`defineCommand`), read at build time into the manifest.
 */
import type { LazyEntry } from '../cli/program.js';

export const entries: LazyEntry[] = [
  { name: 'auth', section: 'Setup:', load: () => import('./auth/index.js') },
  { name: 'serve', section: 'Setup:', load: () => import('./serve.js') },
  { name: 'api', section: 'Setup:', load: () => import('./api.js') },
  { name: 'completion', section: 'Setup:', load: () => import('./completion.js') },
  { name: '__complete', section: 'Setup:', hidden: true, load: () => import('./complete-ids.js') },
  { name: '__docs', section: 'Setup:', hidden: true, load: () => import('./docs.js') },
  { name: 'orgs', section: 'Organization:', load: () => import('./orgs/index.js') },
  { name: 'members', section: 'Organization:', load: () => import('./members/index.js') },
  { name: 'teams', section: 'Organization:', load: () => import('./teams/index.js') },
  { name: 'invites', section: 'Organization:', load: () => import('./invites/index.js') },
  { name: 'audit', section: 'Organization:', load: () => import('./audit/index.js') },
  { name: 'access', section: 'Organization:', load: () => import('./access/index.js') },
  { name: 'ping', section: 'Organization:', load: () => import('./ping.js') },
  { name: 'saml', section: 'Organization:', load: () => import('./saml/index.js') },
  { name: 'sso', section: 'Organization:', load: () => import('./sso/index.js') },
  { name: 'openapi', section: 'Organization:', load: () => import('./openapi/index.js') },
  { name: 'tree', section: 'Content:', load: () => import('./tree.js') },
  { name: 'collections', section: 'Content:', load: () => import('./collections/index.js') },
  { name: 'spaces', section: 'Content:', load: () => import('./spaces/index.js') },
  { name: 'content', section: 'Content:', load: () => import('./content/index.js') },
  { name: 'cr', section: 'Content:', load: () => import('./cr/index.js') },
  { name: 'comments', section: 'Content:', load: () => import('./comments/index.js') },
  { name: 'sites', section: 'Publishing:', load: () => import('./sites/index.js') },
];
