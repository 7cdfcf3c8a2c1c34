/** A change request's PDF: the download the family serves at a signed URL (downloads.ts). */
import { contentOf, findPage, pageMarkdown, walkPages, type PageRec } from '../content/index.js';
import { HttpError, notFound } from '../errors.js';
import { readBoundMs } from '../markdown-reads.js';
import type { Store } from '../store.js';
import { TaskStopped } from '../worker/pool.js';
import { sandboxWorker } from '../worker/shared.js';
import { crState, type ChangeRequestRec } from './model.js';

export const PDF_DOWNLOAD = 'change-request-pdf';

export const pdfFilename = (cr: ChangeRequestRec, page?: PageRec) => `change-request-${cr.number}${page ? `-${page.slug}` : ''}.pdf`;

/**
 * A change request's PDF, as it was when the link was made: its pages, or one page (and its subpages
 * unless `only`). Made in the sandbox's worker thread (it reads every page's Markdown), within the
 * time the worker may read that much Markdown (markdown-reads.ts); past it, a 503.
 */
export async function pdfDownload(store: Store, claims: Record<string, string>) {
  const space = store.data.spaces.get(claims.space);
  const cr = crState(store).byId.get(claims.cr);
  const rev = store.data.revisions.get(claims.revision);
  if (!space || space.deletedAt || !cr || !rev) throw notFound('no such download: its change request no longer exists');
  const content = contentOf(rev);
  let pages: PageRec[] = [...walkPages(content.pages)].map((e) => e.page);
  if (claims.page !== undefined) {
    const entry = findPage(content, claims.page);
    if (!entry) throw notFound(`no such download: page ${claims.page} is gone`);
    pages = claims.only ? [entry.page] : [...walkPages([entry.page])].map((e) => e.page);
  }
  const title = `${space.title}: change request #${cr.number}${cr.subject ? ` - ${cr.subject}` : ''}`;
  const input = { title, pages: pages.map((p) => ({ title: p.title, markdown: pageMarkdown(content, p, { evaluated: true }) ?? '' })) };
  const timeoutMs = readBoundMs(input.pages.reduce((n, p) => n + p.markdown.length, 0));
  let pdf: Uint8Array;
  try {
    pdf = await sandboxWorker().run('renderPdf', input, { timeoutMs });
  } catch (err) {
    if (err instanceof TaskStopped) throw new HttpError(503, `the PDF could not be made within ${timeoutMs} ms: its pages' Markdown takes too long to read`);
    throw err;
  }
  const body = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  return { contentType: 'application/pdf', filename: pdfFilename(cr, claims.page !== undefined ? pages[0] : undefined), body };
}
