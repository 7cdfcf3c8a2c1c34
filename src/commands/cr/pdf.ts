import { statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { ops } from '../../contract/change-requests.js';
import { CR_ARGS, crParams } from './columns.js';
import { resolveCrPage } from './lookup.js';
import { pageIdFlags, pageIdOf } from '../flags.js';

export default defineCommand({
  name: 'pdf',
  summary: 'Export a change request as a PDF: print its download URL, or save it with --out FILE',
  description:
    'The URL is signed and expires after an hour: it opens in a browser without a token. --page-id exports one page ' +
    'and its subpages, --only that page alone.',
  args: CR_ARGS,
  flags: {
    out: { description: 'download the PDF to FILE (- for stdout)', value: 'file', short: 'o' },
    ...pageIdFlags('only this page and its subpages (id or path)', 'page'),
    only: { type: 'boolean', description: 'with --page-id: that page alone, without its subpages' },
  },
  examples: [
    'docsctl cr pdf sp_123 3',
    'docsctl cr pdf sp_123 3 --out review.pdf',
    'docsctl cr pdf sp_123 3 --page-id getting-started/install --only --out install.pdf',
  ],
  output: { fields: ['url', 'file', 'size'] },
  async run(ctx, { args, flags }) {
    const pageRef = pageIdOf(ctx, flags);
    if (flags.only && pageRef === undefined) throw new UsageError('--only needs --page-id');
    const out = flags.out;
    if (out === '-' && ctx.tty) throw new UsageError('--out -: stdout is a terminal', 'redirect it: --out - > file.pdf');
    if (out !== undefined && out !== '-') checkWritable(out);
    const api = await ctx.api();
    const params = crParams(args);
    const page = pageRef === undefined ? undefined : (await resolveCrPage(api, params, pageRef)).id;
    const { url } = await api.call(ops.getChangeRequestPdf, { params, query: { ...(page ? { page } : {}), ...(flags.only ? { only: true } : {}) } });
    if (out === undefined) return { url };
    // Streamed to its destination as it comes (a PDF may be large): nothing is written before its
    // first bytes say it is a PDF, and a file is written beside --out, then renamed, so that a
    // download that fails leaves --out as it was.
    const notPdf = (contentType: string | undefined) => new CliError(`the download at ${url} is not a PDF (${contentType || 'no content type'})`, EXIT.FAILED);
    const dest = out === '-' ? toStdout(ctx) : await toFile(out);
    let head: Buffer | undefined = Buffer.alloc(0);
    let size = 0;
    try {
      const { contentType } = await api.download(url, async (chunk, headers) => {
        size += chunk.length;
        if (head !== undefined) {
          head = Buffer.concat([head, chunk]);
          if (head.length < 5) return;
          if (!head.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw notPdf(headers['content-type']);
          [chunk, head] = [head, undefined];
        }
        await dest.write(chunk);
      });
      if (head !== undefined) throw notPdf(contentType);
      await dest.done();
    } catch (e) {
      await dest.abandon();
      throw e;
    }
    if (out === '-') return undefined;
    ctx.info(`saved the PDF of change request ${params.changeRequestId} to ${out} (${size} bytes)`);
    return { url, file: resolve(out), size };
  },
});

interface Destination {
  write(chunk: Buffer): Promise<void>;
  /** The whole download has come. */
  done(): Promise<void>;
  /** It failed: leave nothing behind. */
  abandon(): Promise<void>;
}

/** stdout, at its reader's pace (a reader gone stops the download). */
function toStdout(ctx: Context): Destination {
  return {
    async write(chunk) {
      ctx.out(chunk);
      await ctx.stillRead();
    },
    async done() {},
    async abandon() {},
  };
}

/** A file beside `out`, renamed to it once complete. */
async function toFile(out: string): Promise<Destination> {
  const part = join(dirname(resolve(out)), `.${basename(out)}.${process.pid}.part`);
  const file = await open(part, 'w');
  let closed = false;
  const close = async () => {
    if (!closed) await file.close();
    closed = true;
  };
  return {
    async write(chunk) {
      await file.write(chunk);
    },
    async done() {
      await close();
      await rename(part, out);
    },
    async abandon() {
      await close().catch(() => undefined);
      await rm(part, { force: true });
    },
  };
}

/** --out must name a file in an existing directory (checked before anything is sent). */
function checkWritable(file: string): void {
  const dir = statSync(dirname(resolve(file)), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`--out: no directory ${dirname(resolve(file))}`);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--out: ${file} is a directory`);
}
