import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { defineCommand } from '../../cli/command.js';
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
    const { bytes, contentType } = await api.download(url);
    if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) {
      throw new CliError(`the download at ${url} is not a PDF (${contentType || 'no content type'})`, EXIT.FAILED);
    }
    if (out === '-') {
      ctx.io.stdout.write(bytes);
      return undefined;
    }
    await writeFile(out, bytes);
    ctx.info(`saved the PDF of change request ${params.changeRequestId} to ${out} (${bytes.length} bytes)`);
    return { url, file: resolve(out), size: bytes.length };
  },
});

/** --out must name a file in an existing directory (checked before anything is sent). */
function checkWritable(file: string): void {
  const dir = statSync(dirname(resolve(file)), { throwIfNoEntry: false });
  if (!dir?.isDirectory()) throw new UsageError(`--out: no directory ${dirname(resolve(file))}`);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--out: ${file} is a directory`);
}
