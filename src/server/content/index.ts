/**
 * The content model, for the space content endpoints and the change-requests family:
 * revisions of page trees and files (model), their API views under any app URL (views), links
 * and backlinks (links), search (search), website import (import), templates (templates), and
 * page-level comparison and three-way merge (merge).
 */
export * from './model.js';
export * from './views.js';
export * from './links.js';
export * from './search.js';
export { applyImport, importWebsite } from './import.js';
export { applyTemplate, filesOfReadableSpaces, type TemplateParams } from './templates.js';
export * from './merge.js';
