/**
 * Bounds the sandbox puts on what a client can make it do (docs/security.md): how long a request
 * may take to arrive, how much a website import may fetch and store, how deep an OpenAPI document
 * may nest. The values are plain numbers in one object so that tests can lower them.
 *
 * It also knows, while a handler runs, which client connection asked: a long operation (a website
 * import) asks `clientGone()` for a signal that fires when that client goes away, and stops.
 */
import { EventEmitter } from 'node:events';
import type { ServerOptions } from 'node:http';

/** Deepest nesting of arrays and objects a JSON body may have (deeper values could not be stored and sent back). */
export const MAX_JSON_DEPTH = 64;

export const LIMITS = {
  server: {
    /** Time for a request's headers to arrive, in ms (node:http `headersTimeout`). */
    headersTimeoutMs: 10_000,
    /** Time for a whole request (headers and body) to arrive, in ms (node:http `requestTimeout`). */
    requestTimeoutMs: 30_000,
    /** How often node:http looks for requests past those times, in ms. */
    checkIntervalMs: 1_000,
  },
  import: {
    /** Deadline of a whole website import (every fetch, redirects and bodies), in ms. */
    deadlineMs: 60_000,
    /** Requests a website import may send, failed ones and redirects included. */
    maxFetches: 200,
    /** Bytes a website import may fetch, and so store, in all. */
    maxBytes: 50 * 1024 * 1024,
  },
  storage: {
    /**
     * `serve --data`: the log (`FILE-wal`) is folded into the database once writes pause this long,
     * in ms, and at the latest this long after the first write it holds (`checkpointEveryMs`), so
     * the database file alone is never further behind than that (docs/reliability.md, Backups).
     */
    checkpointIdleMs: 1_000,
    checkpointEveryMs: 5_000,
  },
  seed: {
    /** `serve --seed DIR` (a backup or a Git Sync folder, src/server/content/git-sync.ts): most files the folder may hold, all spaces together. */
    maxFiles: 20_000,
    /** Most bytes of all its files together (they are held in memory, as the sandbox holds every file). */
    maxBytes: 512 * 1024 * 1024,
    /** Most bytes of one file. */
    maxFileBytes: 100 * 1024 * 1024,
    /** Most pages of one space's SUMMARY.md. */
    maxPages: 10_000,
    /** Deepest nesting of pages in a SUMMARY.md. */
    maxDepth: 20,
  },
  audit: {
    /** Audit events the sandbox keeps, all organizations together; past it the oldest are dropped (src/server/audit/model.ts). */
    maxEvents: 10_000,
  },
  loop: {
    /**
     * Longest a request's work over many items (the pages indexed for a first search, merged, or
     * whose links are read) runs before it lets other requests in, in ms (src/server/slices.ts).
     */
    sliceMs: 10,
    /** Longest the sandbox's worker thread may read one OpenAPI document, in ms; past it the document fails to process. */
    workerTaskMs: 30_000,
    /**
     * Markdown read on the sandbox's thread up to this cost (markdownCost in lib/markdown.ts: about
     * its length in characters, more for long paragraphs dense in punctuation); costlier Markdown is
     * read in the sandbox's worker thread (markdown-reads.ts).
     */
    markdownOnThread: 1_024,
    /**
     * Longest the worker may read one Markdown text, in ms: `markdownMs` plus `markdownMsPerKiB` for
     * each KiB of it (ordinary Markdown takes up to ~20 ms a KiB of CPU). Past it the text reads as
     * one paragraph of its source (no links; one section), remembered for 10 minutes.
     */
    markdownMs: 2_000,
    markdownMsPerKiB: 50,
    /**
     * How much lower than the thread answering requests the worker threads run (a nice increment,
     * 0-19; Linux, where a thread has a priority of its own): requests go first when cores are short.
     */
    workerNice: 10,
    /**
     * A worker task's deadline is CPU time (where the thread's can be read): past this many times it
     * in wall time, waiting for a core included, the task ends all the same.
     */
    workerWaitFactor: 10,
  },
};

/** The options of the sandbox's node:http server that cut requests which stall (see serve.ts). */
export function serverTimeouts(): Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> {
  const { headersTimeoutMs, requestTimeoutMs, checkIntervalMs } = LIMITS.server;
  return {
    // node:http wants headersTimeout ≤ requestTimeout.
    headersTimeout: Math.min(headersTimeoutMs, requestTimeoutMs),
    requestTimeout: requestTimeoutMs,
    connectionsCheckingInterval: checkIntervalMs,
  };
}

/**
 * A signal aborted when the client of a request goes away (its `connection` closes; an explicit
 * argument rather than an AsyncLocalStorage, whose promise hooks would slow every request), and
 * the function that stops watching; undefined for a request not on a socket.
 */
export function clientGone(connection: object | undefined): { signal: AbortSignal; stop: () => void } | undefined {
  if (!(connection instanceof EventEmitter)) return undefined;
  const controller = new AbortController();
  const onClose = () => controller.abort(new Error('the client went away'));
  if ((connection as { destroyed?: boolean }).destroyed) onClose();
  else connection.once('close', onClose);
  return { signal: controller.signal, stop: () => connection.off('close', onClose) };
}

/** Whether JSON text opens more than `max` arrays or objects at once (strings skipped). One pass, no parse. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}
