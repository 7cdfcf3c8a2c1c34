/**
 * Every operation of the contract, by family. The sandbox walks this list to register its routes;
 * the CLI imports only the family file it needs (start-up cost).
 */
import { ops as orgs } from './orgs.js';
import { ops as collections } from './collections.js';
import { ops as spaces } from './spaces.js';

export const families = { orgs, collections, spaces };
