/** The route table: every family's operations with its handlers. */
import { ops as orgOps } from '../contract/orgs.js';
import { ops as collectionOps } from '../contract/collections.js';
import { ops as spaceOps } from '../contract/spaces.js';
import { family } from './handler.js';
import { handlers as orgHandlers } from './handlers/orgs.js';
import { handlers as collectionHandlers } from './handlers/collections.js';
import { handlers as spaceHandlers } from './handlers/spaces.js';

export const routes = [
  ...family(orgOps, orgHandlers),
  ...family(collectionOps, collectionHandlers),
  ...family(spaceOps, spaceHandlers),
];
