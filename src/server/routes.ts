/** The route table: every family's operations with its handlers. */
import { ops as orgOps } from '../contract/orgs.js';
import { ops as collectionOps } from '../contract/collections.js';
import { ops as spaceOps } from '../contract/spaces.js';
import { ops as memberOps } from '../contract/members.js';
import { ops as samlOps } from '../contract/saml.js';
import { ops as openapiOps } from '../contract/openapi.js';
import { ops as changeRequestOps } from '../contract/change-requests.js';
import { ops as commentOps } from '../contract/comments.js';
import { ops as siteOps } from '../contract/sites.js';
import { ops as contentOps } from '../contract/content.js';
import { family } from './handler.js';
import { handlers as siteHandlers } from './handlers/sites.js';
import { handlers as changeRequestHandlers } from './handlers/change-requests.js';
import { handlers as commentHandlers } from './handlers/comments.js';
import { handlers as orgHandlers } from './handlers/orgs.js';
import { handlers as collectionHandlers } from './handlers/collections.js';
import { handlers as spaceHandlers } from './handlers/spaces.js';
import { handlers as memberHandlers } from './handlers/members.js';
import { handlers as samlHandlers } from './handlers/saml.js';
import { handlers as openapiHandlers } from './handlers/openapi.js';
import { handlers as contentHandlers } from './handlers/content.js';

export const routes = [
  ...family(orgOps, orgHandlers),
  ...family(collectionOps, collectionHandlers),
  ...family(spaceOps, spaceHandlers),
  ...family(memberOps, memberHandlers),
  ...family(samlOps, samlHandlers),
  ...family(openapiOps, openapiHandlers),
  ...family(changeRequestOps, changeRequestHandlers),
  ...family(commentOps, commentHandlers),
  ...family(siteOps, siteHandlers),
  ...family(contentOps, contentHandlers),
];
