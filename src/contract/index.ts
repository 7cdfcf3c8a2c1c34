/**
 * Every operation of the contract, by family: for what needs them all (`api --paginate` and id
 * completion find an operation by its path; tests check that the sandbox routes each exactly once).
 * The sandbox does not use this list: its routes are its families' (`src/server/routes.ts`), each
 * naming its operations. A command imports only the family file it needs (start-up cost).
 */
import { ops as orgs } from './orgs.js';
import { ops as collections } from './collections.js';
import { ops as spaces } from './spaces.js';
import { ops as members } from './members.js';
import { ops as saml } from './saml.js';
import { ops as openapi } from './openapi.js';
import { ops as changeRequests } from './change-requests.js';
import { ops as comments } from './comments.js';
import { ops as sites } from './sites.js';
import { ops as content } from './content.js';
import { ops as teams } from './teams.js';
import { ops as invites } from './invites.js';
import { ops as audit } from './audit.js';
import { ops as permissions } from './permissions.js';

export const families = { orgs, collections, spaces, members, saml, openapi, changeRequests, comments, sites, content, teams, invites, audit, permissions };
