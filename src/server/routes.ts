/** The sandbox's families, assembled: the route table is theirs, and the store is given the list (its hooks). */
import type { Family } from './family.js';
import { family as changeRequests } from './handlers/change-requests.js';
import { family as collections } from './handlers/collections.js';
import { family as comments } from './handlers/comments.js';
import { family as content } from './handlers/content.js';
import { family as members } from './handlers/members.js';
import { family as openapi } from './handlers/openapi.js';
import { family as orgs } from './handlers/orgs.js';
import { family as permissions } from './permissions/handlers.js';
import { family as saml } from './handlers/saml.js';
import { family as sites } from './handlers/sites.js';
import { family as spaces } from './handlers/spaces.js';
import { family as teams } from './handlers/teams.js';

export const families: readonly Family[] = [orgs, collections, spaces, members, saml, openapi, changeRequests, comments, sites, content, teams, permissions];

export const routes = families.flatMap((f) => f.routes);
