/**
 * What a worker thread does for the sandbox (entry.ts runs it; pool.ts sends the work): CPU-bound
 * reading of untrusted text, whose time grows with the input, kept off the thread that answers
 * requests. Each task is a plain function of its (structured-clone) input; pages read for an import
 * stay here until written.
 */
import { readPage, writePage, type LinkTargets, type PageSummary, type ReadPage } from '../lib/html-page.js';
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

const pages = new Map<number, ReadPage>();
let nextPage = 0;

export const tasks = {
  /** Read a fetched HTML page: its summary and an id to write it by, or `tooDeep`. */
  readPage(input: { body: Uint8Array; contentType: string; url: string; origin: string }): { id: number; summary: PageSummary } | { tooDeep: string } {
    const read = readPage(input);
    if (read instanceof MarkdownTooDeep) return { tooDeep: read.message };
    const id = ++nextPage;
    pages.set(id, read);
    return { id, summary: read.summary };
  },

  /** The Markdown of a page read before (which is then forgotten). */
  writePage(input: { id: number; targets: LinkTargets }): string {
    const page = pages.get(input.id);
    if (!page) throw new Error(`no page ${input.id} was read`);
    pages.delete(input.id);
    return writePage(page, input.targets);
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
