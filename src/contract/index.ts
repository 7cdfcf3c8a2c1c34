/**
 * The families of the contract, declared once, and every operation by family (for what needs them
 * all: `api --paginate` and id completion find an operation by its path; tests check that the
 * sandbox routes each exactly once). The sandbox keys its families by these names (server/routes.ts:
 * the compiler checks it has one for each, each naming its operations) and serves them in this
 * order; its OpenAPI document takes their tags, titles and modules from here. A command imports only
 * the family file it needs (start-up cost).
 */
import * as orgs from './orgs.js';
import * as collections from './collections.js';
import * as spaces from './spaces.js';
import * as members from './members.js';
import * as saml from './saml.js';
import * as openapi from './openapi.js';
import * as changeRequests from './change-requests.js';
import * as comments from './comments.js';
import * as sites from './sites.js';
import * as content from './content.js';
import * as teams from './teams.js';
import * as invites from './invites.js';
import * as audit from './audit.js';
import * as permissions from './permissions.js';

/**
 * Each family: its name, its tag in the OpenAPI document and the tag's description, its place in
 * docs/api.md and in the document (which name the named schemas of the families shown first), its module.
 * (Tuples: knip 6 takes a module that is an object's property for one none of whose exports is
 * used, webpro-nl/knip#1669; the OpenAPI document reads all of them.)
 */
export const FAMILY_TABLE = [
  ['orgs', 'organizations', 'Organizations and users', 1, orgs],
  ['collections', 'collections', 'Collections', 2, collections],
  ['spaces', 'spaces', 'Spaces', 3, spaces],
  ['members', 'members', 'Members', 8, members],
  ['saml', 'saml', 'SAML single sign-on', 9, saml],
  ['openapi', 'openapi', 'OpenAPI specifications', 10, openapi],
  ['changeRequests', 'change-requests', 'Change requests', 5, changeRequests],
  ['comments', 'comments', 'Comments', 6, comments],
  ['sites', 'sites', 'Sites', 7, sites],
  ['content', 'content', 'Space content', 4, content],
  ['teams', 'teams', 'Teams', 11, teams],
  ['invites', 'invites', 'Invitations', 12, invites],
  ['audit', 'audit', 'The audit log', 13, audit],
  ['permissions', 'permissions', 'Permission grants', 14, permissions],
] as const;

type Row = (typeof FAMILY_TABLE)[number];

/** Every operation of the contract, by family (in the order of FAMILY_TABLE). */
export const families = Object.fromEntries(FAMILY_TABLE.map(([name, , , , module]) => [name, module.ops])) as { [R in Row as R[0]]: R[4]['ops'] };
