/**
 * What a worker thread does for the sandbox (entry.ts runs it; pool.ts sends the work): work whose
 * time grows with an untrusted input, kept off the thread that answers requests. Each task is a
 * function of its (structured-clone) input: reading Markdown, a PDF, an OpenAPI document, and a
 * website import as a whole (its crawl, fetches and pages), whose texts stay here until the
 * sandbox takes them, a few at a time.
 */
import { createHash } from 'node:crypto';
import type { ResolveName } from '../lib/fetch.js';
import { importWebsite } from '../lib/html-import.js';
import {
  checkMarkdown,
  documentToMarkdown,
  extractLinks,
  markdownToDocument,
  MarkdownTooDeep,
  splitSections,
  type DocumentNode,
  type ExtractedLink,
  type Section,
} from '../lib/markdown.js';
import { parseOpenApiText, type OpenApiParseResult } from '../lib/openapi-source.js';
import { renderPdf, type PdfDocumentInput } from '../lib/pdf.js';
import { callParent } from './parent.js';

/** A website import to run (content/import.ts): the site, its bounds and the fetch policy. */
export interface SiteImportInput {
  url: string;
  maxPages: number;
  maxFiles: number;
  /** Each fetch's bounds and the policy's allow-list. */
  fetch: { timeoutMs: number; maxBytes: number; allowHosts: readonly string[] };
  /** The import's bounds as a whole, and what to say when they are reached. */
  budget: { fetches: number; bytes: number; fetchesSpent: string; bytesSpent: string };
  /** Names are resolved by the sandbox's thread (`lookup` call: the policy's injected resolver), not here. */
  resolveInParent: boolean;
}

/** A website import read (`importSite`): what the sandbox places. Texts are taken with `importTexts`. */
export interface SiteSummary {
  /** The pages in crawl order; `bytes`: their Markdown's length in UTF-8, links written as tokens. */
  pages: { sourceUrl: string; urlPath: string; title: string; description?: string; bytes: number }[];
  /** The files; `blob`: the key of their bytes in the content's blob table (SHA-256, hex). */
  files: { sourceUrl: string; name: string; contentType: string; size: number; dimensions?: { width: number; height: number }; blob: string }[];
  importedResources: number;
  totalResources: number;
  /** The URL paths the pages' page tokens stand for (html-page.ts LinkTargets); file tokens stand for `files`, by index. */
  paths: string[];
}

/** The import this thread read last (one per thread: an import has a thread of its own). */
let site: { nonce: string; markdown: string[]; written: string[]; blobs: string[] } | undefined;

/** Most characters of texts in one answer of `importTexts` (each answer holds at least one text). */
const TEXTS_PER_ANSWER = 1024 * 1024;

export const tasks = {
  /** A website import read, pages written with links as tokens; its texts kept here. */
  async importSite(input: SiteImportInput): Promise<SiteSummary> {
    site = undefined;
    const lookup: ResolveName | undefined = input.resolveInParent ? (hostname) => callParent('lookup', hostname) as ReturnType<ResolveName> : undefined;
    const { budget } = input;
    const result = await importWebsite(input.url, {
      maxPages: input.maxPages,
      maxFiles: input.maxFiles,
      fetch: {
        ...input.fetch,
        ...(lookup ? { lookup } : {}),
        budget: { fetchesLeft: budget.fetches, bytesLeft: budget.bytes, fetchesSpent: budget.fetchesSpent, bytesSpent: budget.bytesSpent },
      },
      tokens: true,
    });
    const tokens = result.tokens!;
    site = {
      nonce: tokens.nonce,
      markdown: result.pages.map((p) => p.markdown),
      written: [],
      blobs: result.files.map((f) => f.data.toString('base64')),
    };
    return {
      pages: result.pages.map(({ markdown, ...page }) => ({ ...page, bytes: Buffer.byteLength(markdown) })),
      files: result.files.map(({ data, key: _key, ...file }) => ({ ...file, blob: createHash('sha256').update(data).digest('hex') })),
      importedResources: result.importedResources,
      totalResources: result.totalResources,
      paths: tokens.paths,
    };
  },

  /** The pages of the import read last written for where they landed: each token replaced by `paths[i]` or `files[i]`. */
  importWrite(input: { paths: (string | null)[]; files: string[] }): void {
    if (!site) throw new Error('no website import was read');
    const token = new RegExp(`${site.nonce}-([pf])(\\d+)`, 'g');
    const place = (match: string, kind: string, i: string) => (kind === 'p' ? input.paths[Number(i)] : input.files[Number(i)]) ?? match;
    site.written = site.markdown.map((markdown) => markdown.replace(token, place));
  },

  /** Texts of the import read last from index `from`: its pages' Markdown as written last, or its files' bytes in base64. */
  importTexts(input: { of: 'pages' | 'blobs'; from: number }): string[] {
    if (!site) throw new Error('no website import was read');
    const all = input.of === 'pages' ? site.written : site.blobs;
    const out: string[] = [];
    for (let i = input.from, size = 0; i < all.length && (out.length === 0 || size + all[i].length <= TEXTS_PER_ANSWER); i++) {
      out.push(all[i]);
      size += all[i].length;
    }
    return out;
  },

  /** Markdown read (markdown-reads.ts sends what is too costly to read on the sandbox's thread). */
  markdownDocument(input: { markdown: string }): DocumentNode {
    return markdownToDocument(input.markdown);
  },
  markdownSections(input: { markdown: string }): Section[] {
    return splitSections(input.markdown);
  },
  markdownLinks(input: { markdown: string }): ExtractedLink[] {
    return extractLinks(input.markdown, { written: false });
  },
  /** A document (a comment's body as sent) written as Markdown. */
  documentMarkdown(input: { document: DocumentNode }): string {
    return documentToMarkdown(input.document);
  },
  /** Markdown checked for nesting (as written): the message when it nests too deeply. */
  markdownCheck(input: { markdown: string }): { tooDeep?: string } {
    try {
      checkMarkdown(input.markdown);
      return {};
    } catch (err) {
      if (err instanceof MarkdownTooDeep) return { tooDeep: err.message };
      throw err;
    }
  },

  /** A change request's PDF (its pages' Markdown read and laid out). */
  renderPdf(input: PdfDocumentInput): Uint8Array {
    return renderPdf(input);
  },

  /** An OpenAPI document's text parsed and checked. */
  parseOpenApi(input: { text: string; maxDepth: number }): OpenApiParseResult {
    return parseOpenApiText(input.text, input.maxDepth);
  },
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
