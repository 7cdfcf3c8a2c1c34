/**
 * Markdown read for a request (a page or a comment shown as a document, a page searched or its
 * links listed, a comment checked when written), without holding the sandbox's thread: micromark
 * reads ordinary Markdown in a few µs a character, but some paragraphs in time that grows with the
 * square of their length (markdownCost in lib/markdown.ts), and neither can be made to yield.
 *
 * - Markdown that costs at most LIMITS.loop.markdownOnThread is read here, at once (most pages and
 *   comments: a few ms at most).
 * - Costlier Markdown is read in the sandbox's worker thread (worker/shared.ts), within
 *   LIMITS.loop.markdownMs plus markdownMsPerKiB a KiB. Past that the worker is replaced, and the
 *   text reads as one paragraph of its source (lib/markdown.ts ReadOptions.source: no links, one
 *   section), as a text nested too deeply does. Such texts are remembered (by digest, for
 *   REMEMBER_MS) so that they cost the worker once; a write whose nesting check could not read the
 *   text in time accepts it (what reads it later reads its source: never deeper than the bound).
 *   The bounds are wall time: on a machine so loaded that the worker gets little of a core, an
 *   ordinary long text may pass them, and reads as its source until it is forgotten.
 *
 * Reading the same text twice at the same time waits for one read.
 */
import { createHash } from 'node:crypto';
import {
  checkMarkdown,
  documentCost,
  documentToMarkdown,
  extractLinks,
  markdownCost,
  markdownToDocument,
  MarkdownTooDeep,
  MAX_NESTING,
  nestingBound,
  splitSections,
  type DocumentNode,
  type ExtractedLink,
  type ReadOptions,
  type Section,
} from './lib/markdown.js';
import { LIMITS } from './limits.js';
import { slicer } from './slices.js';
import { TaskStopped } from './worker/pool.js';
import type { Tasks } from './worker/tasks.js';
import { sandboxWorker } from './worker/shared.js';

/** What a text is read as. */
export interface Readings {
  document: DocumentNode;
  sections: Section[];
  /** Without where each is written (`written`). */
  links: ExtractedLink[];
}

const HERE: { [K in keyof Readings]: (markdown: string, opts?: ReadOptions) => Readings[K] } = {
  document: markdownToDocument,
  sections: splitSections,
  links: (markdown, opts) => extractLinks(markdown, { ...opts, written: false }),
};
const TASKS = { document: 'markdownDocument', sections: 'markdownSections', links: 'markdownLinks' } as const;

/** Markdown the worker could not read within its bound. */
class MarkdownTooCostly extends Error {
  constructor(readonly ms: number) {
    super(`could not be read within ${ms} ms`);
    this.name = 'MarkdownTooCostly';
  }
}

/** Whether `markdown` is read on the sandbox's thread (else in its worker). */
export function readsHere(markdown: string): boolean {
  const most = LIMITS.loop.markdownOnThread;
  return markdown.length <= most && markdownCost(markdown) <= most;
}

/** How long the worker may read Markdown `length` characters long, in ms. */
export function readBoundMs(length: number): number {
  return Math.round(LIMITS.loop.markdownMs + (LIMITS.loop.markdownMsPerKiB * length) / 1024);
}

/** `markdown` read as a document, its search sections or its links. */
export function readMarkdown<K extends keyof Readings>(markdown: string, as: K): Promise<Readings[K]> {
  if (readsHere(markdown)) return Promise.resolve(HERE[as](markdown));
  return inWorker(TASKS[as], markdown).then(
    (value) => value as Readings[K],
    (err: unknown) => {
      if (err instanceof MarkdownTooCostly) return HERE[as](markdown, { source: true });
      throw err;
    },
  );
}

/**
 * The Markdown of a document a client sent (a comment's body): written here when its cost
 * (documentCost) is at most LIMITS.loop.markdownOnThread, else in the worker within the bound of
 * reading as much Markdown, past which it fails (TaskStopped). MarkdownTooDeep when it nests too deeply.
 */
export async function writeDocument(document: DocumentNode): Promise<string> {
  const cost = documentCost(document);
  if (cost <= LIMITS.loop.markdownOnThread) return documentToMarkdown(document);
  try {
    return await sandboxWorker().run('documentMarkdown', { document }, { timeoutMs: readBoundMs(cost) });
  } catch (err) {
    if ((err as Error).name === 'MarkdownTooDeep') throw new MarkdownTooDeep();
    throw err;
  }
}

/**
 * Check Markdown being written: MarkdownTooDeep when it nests too deeply. A text the worker cannot
 * read within its bound passes (it is remembered as too costly: it reads as its source).
 */
export async function checkWritten(markdown: string): Promise<void> {
  // Most texts have too few markers to nest too deeply: no need to read them (checkMarkdown's shortcut).
  if (nestingBound(markdown) <= MAX_NESTING || readsHere(markdown)) return checkMarkdown(markdown);
  let tooDeep: string | undefined;
  try {
    ({ tooDeep } = await inWorker('markdownCheck', markdown));
  } catch (err) {
    if (err instanceof MarkdownTooCostly) return;
    throw err;
  }
  if (tooDeep !== undefined) throw new MarkdownTooDeep();
}

type Task = (typeof TASKS)[keyof typeof TASKS] | 'markdownCheck';

/** Digest → the bound (ms) a text was not read within, and until when that is remembered; the oldest forgotten past MAX_REMEMBERED. */
const tooCostly = new Map<string, { bound: number; until: number }>();
const MAX_REMEMBERED = 1_000;
/** How long a text past its bound is remembered, in ms. */
const REMEMBER_MS = 10 * 60_000;
/** Reads under way, by task and digest. */
const reading = new Map<string, Promise<unknown>>();

/** `task` run on `markdown` in the worker within its bound, or MarkdownTooCostly. */
function inWorker<T extends Task>(task: T, markdown: string): Promise<ReturnType<Tasks[T]>> {
  const digest = createHash('sha256').update(markdown).digest('base64');
  const bound = readBoundMs(markdown.length);
  const known = tooCostly.get(digest);
  if (known && known.bound >= bound && known.until > Date.now()) return Promise.reject(new MarkdownTooCostly(bound));
  const key = `${task} ${digest}`;
  let pending = reading.get(key);
  if (!pending) {
    pending = sandboxWorker()
      .run(task, { markdown }, { timeoutMs: bound })
      .catch((err: unknown) => {
        if (!(err instanceof TaskStopped)) throw err;
        tooCostly.delete(digest);
        tooCostly.set(digest, { bound, until: Date.now() + REMEMBER_MS });
        if (tooCostly.size > MAX_REMEMBERED) tooCostly.delete(tooCostly.keys().next().value!);
        throw new MarkdownTooCostly(bound);
      });
    reading.set(key, pending);
    const done = () => void reading.delete(key);
    pending.then(done, done);
  }
  return pending as never;
}

/** What a view calls to show a text as a document (see `withDocuments`). */
export type DocumentOf = (markdown: string) => DocumentNode;

/** Passes of `withDocuments` before what is still missing reads as its source. */
const MAX_PASSES = 4;

/**
 * A view that shows Markdown as documents, built with the texts read beforehand: `build` runs once
 * to learn which texts it shows (the documents it gets then are placeholders), they are read (in
 * slices, the costly ones in the worker), and it runs again with them, again if what it shows
 * changed meanwhile. A view that shows no document is built once.
 */
export async function withDocuments<T>(build: (documentOf: DocumentOf) => T): Promise<T> {
  const documents = new Map<string, DocumentNode>();
  for (let pass = 1; ; pass++) {
    const missing = new Set<string>();
    const last = pass === MAX_PASSES;
    const view = build(
      (markdown) => documents.get(markdown) ?? (last ? HERE.document(markdown, { source: !readsHere(markdown) }) : (missing.add(markdown), PLACEHOLDER)),
    );
    if (missing.size === 0) return view;
    const slice = slicer();
    for (const markdown of missing) {
      if (slice.due()) await slice.pause();
      documents.set(markdown, await readMarkdown(markdown, 'document'));
    }
  }
}

const PLACEHOLDER: DocumentNode = { object: 'document', data: { schemaVersion: 1 }, nodes: [] };
