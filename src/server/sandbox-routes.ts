/**
 * The routes the sandbox serves besides the contract's: its OpenAPI document and its control routes.
 * Below app.ts (which answers them) and openapi-document.ts (which describes them).
 */

/** Where the sandbox serves the OpenAPI document of the contract (no token needed: docs/api.md). */
export const OPENAPI_PATH = '/openapi.json';

/** The sandbox's control routes (outside /v1, sandbox admin only): what `sandboxControl` answers. */
export const SANDBOX_ROUTES: readonly { method: string; path: string; summary: string }[] = [
  { method: 'POST', path: '/_sandbox/reset', summary: 'Back to the seed' },
  { method: 'GET', path: '/_sandbox/state', summary: 'Export the whole state as JSON' },
  { method: 'PUT', path: '/_sandbox/state', summary: 'Load a state exported before' },
  { method: 'POST', path: '/_sandbox/clock', summary: 'Move the clock forward: {"advance": "8d"} (units ms, s, m, h, d, w)' },
  { method: 'GET', path: '/_sandbox/faults', summary: 'The scripted faults still to come' },
  { method: 'PUT', path: '/_sandbox/faults', summary: 'Script faults: {"rules": [{method, path, status, count, retryAfter, latencyMs, drop, probability}]}' },
  { method: 'DELETE', path: '/_sandbox/faults', summary: 'Clear the scripted faults' },
];
