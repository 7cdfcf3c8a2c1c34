/**
 * The routes the sandbox serves besides the contract's: its OpenAPI document and its control
 * routes, each control route declared once with what it does and what it takes. Below app.ts
 * (which answers them) and openapi-document.ts (which describes them).
 */
import type { z } from 'zod';
import { parseDuration } from './clock.js';
import { HttpError } from './errors.js';
import { FaultRules, type Faults } from './faults.js';
import type { Store } from './store.js';

/** Where the sandbox serves the OpenAPI document of the contract (no token needed: docs/api.md). */
export const OPENAPI_PATH = '/openapi.json';

/** What a control route works on, and how it reads its request (app.ts gives it). */
export interface SandboxControl {
  store: Store;
  faults: Faults;
  /** Reload the seed. */
  reset: () => void;
  /** The body as sent, as text. */
  text(): string;
  /** The body as JSON (undefined when there is none); 400 when it is malformed. */
  json(): unknown;
  /** The JSON body read by `schema`; 400 naming each field and its rule. */
  valid<T extends z.ZodType>(schema: T): z.output<T>;
}

/** A control route's answer: `body` as JSON, `text` (JSON already) as it is, or neither (no content). */
interface ControlAnswer {
  status: number;
  body?: unknown;
  text?: string;
}

interface SandboxRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  /** The JSON Schema of its request body, for the OpenAPI document; none when it takes no body. */
  body?: Record<string, unknown>;
  answer: (ctl: SandboxControl) => ControlAnswer;
}

/** The sandbox's control routes (outside /v1, sandbox admin only). */
export const SANDBOX_ROUTES: readonly SandboxRoute[] = [
  {
    method: 'POST',
    path: '/_sandbox/reset',
    summary: 'Back to the seed',
    answer: (ctl) => {
      ctl.reset();
      return { status: 200, body: { reset: true } };
    },
  },
  {
    method: 'GET',
    path: '/_sandbox/state',
    summary: 'Export the whole state as JSON',
    answer: (ctl) => ({ status: 200, text: ctl.store.exportState() }),
  },
  {
    method: 'PUT',
    path: '/_sandbox/state',
    summary: 'Load a state exported before',
    body: { type: 'object', description: 'a state exported by GET /_sandbox/state' },
    answer: (ctl) => {
      try {
        ctl.store.importState(ctl.text());
      } catch (e) {
        throw new HttpError(400, e instanceof SyntaxError ? `body: malformed JSON: ${e.message}` : (e as Error).message);
      }
      return { status: 200, body: { loaded: true } };
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/clock',
    summary: 'Move the clock forward: {"advance": "8d"} (units ms, s, m, h, d, w)',
    body: {
      type: 'object',
      required: ['advance'],
      properties: { advance: { type: 'string', description: 'a duration: a number and a unit (ms, s, m, h, d, w)', examples: ['8d', '36h'] } },
    },
    answer: (ctl) => {
      const body = ctl.json() as { advance?: unknown } | undefined;
      const ms = typeof body?.advance === 'string' ? parseDuration(body.advance) : null;
      if (ms === null) throw new HttpError(400, 'advance: must be a duration such as "8d", "36h", "90m" or "500ms"');
      ctl.store.clock.advance(ms);
      ctl.store.purgeExpired();
      return { status: 200, body: { now: ctl.store.now(), offsetMs: ctl.store.clock.offset } };
    },
  },
  {
    method: 'GET',
    path: '/_sandbox/faults',
    summary: 'The scripted faults still to come',
    answer: (ctl) => {
      const chaos = ctl.faults.chaosReport();
      return { status: 200, body: { rules: ctl.faults.list(), ...(chaos ? { chaos } : {}) } };
    },
  },
  {
    method: 'PUT',
    path: '/_sandbox/faults',
    summary: 'Script faults: {"rules": [{method, path, status, count, retryAfter, latencyMs, drop, probability}]}',
    body: { type: 'object', required: ['rules'], properties: { rules: { type: 'array', items: { type: 'object' } } } },
    answer: (ctl) => {
      ctl.faults.set(ctl.valid(FaultRules).rules);
      return { status: 200, body: { rules: ctl.faults.list() } };
    },
  },
  {
    method: 'DELETE',
    path: '/_sandbox/faults',
    summary: 'Clear the scripted faults',
    answer: (ctl) => {
      ctl.faults.set([]);
      return { status: 204 };
    },
  },
];
