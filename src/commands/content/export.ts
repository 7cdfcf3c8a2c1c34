import { stat } from 'node:fs/promises';
import type { Api } from '../../client/api.js';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { terminalLine } from '../../cli/escape.js';
import { displayWidth, plural } from '../../cli/text.js';
import { ops as crOps } from '../../contract/change-requests.js';
import { ops } from '../../contract/content.js';
import type { ContentSource, ExportSummary, SourceFile } from '../../contentfiles/exporter.js';
import type { TreePage } from '../../contentfiles/layout.js';
import { concurrencyOf, fileFlags } from '../orgs/orgfile.js';

const FORMATS = ['markdown', 'json'] as const;

/** The flags `content export` and `orgs backup` share. */
export const exportFlags = {
  prune: {
    type: 'boolean',
    description: 'remove the files of pages and files no longer in the content, and files the export never wrote (else they are listed)',
  },
  check: {
    type: 'boolean',
    description: 'write nothing; exit 1 listing the differences when the folder is not the content (a backup verified in CI)',
  },
  format: { description: 'markdown (default: GitBook’s Markdown, Git Sync’s layout) or json (each page’s document)', value: 'format', choices: FORMATS },
  concurrency: fileFlags.concurrency,
} as const;

export default defineCommand({
  name: 'export',
  summary: 'Write a space’s content to a folder in Git Sync’s layout: a Markdown file per page, SUMMARY.md, its files',
  description:
    'README.md for the first page, SUMMARY.md for the table of contents, a .md file per page at its path, files in .gitbook/assets ' +
    'with their exact bytes; links between pages relative to their files; GitBook’s blocks (hints, tabs, …) in GitBook’s syntax. ' +
    'A page whose document the Markdown cannot carry whole also keeps its document JSON in .gitbook/documents (counted on stderr). ' +
    'A rerun writes only what changed and resumes an interrupted export; --prune removes what the space no longer has and what the export never wrote; ' +
    '--check writes nothing and exits 1 on differences. See docs/content-export.md.',
  args: [{ name: 'space', description: 'space id' }],
  flags: {
    out: { short: 'o', description: 'the folder to write (made when missing)', value: 'dir' },
    cr: { description: 'export this change request’s content (its number or id) instead of the space’s', value: 'cr' },
    ...exportFlags,
  },
  examples: [
    'docsctl content export sp_123 --out docs/',
    'docsctl content export sp_123 --out docs/ --prune          # a rerun: only what changed, what is gone removed',
    'docsctl content export sp_123 --out docs/ --check          # in CI: exit 1 when docs/ is not the space',
    'docsctl content export sp_123 --cr 3 --out review/',
    'docsctl content export sp_123 --format json --out backup/ --json | jq .written',
  ],
  async run(ctx, { args, flags, print }) {
    if (!flags.out) throw new UsageError('--out DIR is required: the folder to write the space’s content to');
    await checkOutFolder(flags.out);
    const api = await ctx.api();
    const source = flags.cr !== undefined ? await crSource(api, args.space, flags.cr) : spaceSource(api, args.space);
    const summary = await runExport(ctx, source, flags.out, {
      format: flags.format ?? 'markdown',
      prune: Boolean(flags.prune),
      check: Boolean(flags.check),
      concurrency: concurrencyOf(flags.concurrency),
    });
    if (flags.check && summary.differences.length > 0) {
      // The summary first (with --json: its differences, for a script), then exit 1.
      if (flags.json || flags.jq) await print(summary);
      throw new CliError(
        `${summary.out} differs from the content (${plural(summary.differences.length, 'difference')})`,
        EXIT.FAILED,
        'export again without --check to update it',
      );
    }
    return flags.json || flags.jq ? summary : undefined;
  },
});

export interface RunExportOptions {
  format: 'markdown' | 'json';
  prune: boolean;
  check: boolean;
  concurrency: number;
  /** Said before each line on stderr (`orgs backup`: the space's key). */
  label?: string;
}

/** `--out`: a folder, or nothing yet (made when missing); anything else is refused before a request is sent. */
export async function checkOutFolder(out: string): Promise<void> {
  try {
    if (!(await stat(out)).isDirectory()) throw new UsageError(`--out: ${out} is not a folder`, 'give a folder (made when missing)');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`--out: cannot use ${out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Export `source` to `out` with the run's progress and messages (with `check`: the differences, in the summary). */
export async function runExport(ctx: Context, source: ContentSource, out: string, opts: RunExportOptions): Promise<ExportSummary> {
  const { exportContent, ForeignFolderError } = await import('../../contentfiles/exporter.js');
  const { Pool } = await import('../../orgfile/pool.js');
  const pool = new Pool(opts.concurrency);
  const what = opts.label ?? (source.changeRequest ? `change request ${source.changeRequest} of ${source.space}` : source.space);
  const spin = ctx.spinner(fitted(ctx, `exporting ${what}…`));
  // Ctrl-C: the progress line goes, the user is told the export resumes, exit 130. Each file is whole in
  // place or not there (a part file the next run removes), and the state file records each one placed.
  const endInterrupt = ctx.onInterrupt(
    `${opts.label ? `${opts.label}: ` : ''}interrupted: ${
      opts.check ? 'nothing was written' : `${out} keeps the files written so far; run it again: it downloads only what it does not have yet`
    }`,
  );
  let summary: ExportSummary;
  try {
    summary = await exportContent(source, {
      out,
      format: opts.format,
      prune: opts.prune,
      check: opts.check,
      limit: (task) => pool.run(task),
      progress: (done, total) => spin.update(fitted(ctx, `exporting ${what}: ${done}/${total} pages and files`, `${done}/${total} ${what}`)),
    });
  } catch (e) {
    if (e instanceof ForeignFolderError) throw new UsageError(e.message, 'nothing was written');
    const code = (e as NodeJS.ErrnoException).code;
    if (code && /^E[A-Z]+$/.test(code) && (e as NodeJS.ErrnoException).path !== undefined)
      throw new CliError(
        `${out}: cannot write (${code}: ${(e as NodeJS.ErrnoException).path})`,
        EXIT.FAILED,
        'run it again: what was written is kept, the rest follows',
      );
    throw e;
  } finally {
    endInterrupt();
    spin.stop();
  }
  reportExport(ctx, summary, opts);
  return summary;
}

/**
 * The first of `texts` that fits the terminal's width, leaving room for the spinner's frame and time
 * (` · 12s`), else the last (shorter) one, which the spinner cuts to the width.
 */
function fitted(ctx: Context, ...texts: string[]): string {
  const columns = ctx.io.stderr.columns;
  if (!columns) return texts[0];
  return texts.find((t) => displayWidth(terminalLine(t)) <= Math.max(columns - 12, 8)) ?? texts[texts.length - 1];
}

/** The summary on stderr: counts, what was written, removed, left, kept; `--check`'s differences. */
function reportExport(ctx: Context, s: ExportSummary, opts: Pick<RunExportOptions, 'check' | 'label' | 'prune'>): void {
  const head = opts.label ? `${opts.label}: ` : '';
  const lines: string[] = [];
  const counts = `${plural(s.pages, 'page')}, ${plural(s.assets, 'file')}`;
  if (opts.check) {
    if (s.differences.length === 0)
      lines.push(`${head}${s.out} is up to date with ${s.changeRequest ? `change request ${s.changeRequest} of ` : ''}${s.space} (${counts})`);
    else lines.push(`${head}${s.out} differs from ${s.space}: ${plural(s.differences.length, 'difference')}`, ...s.differences.map((d) => `  ${d}`));
  } else {
    lines.push(
      `${head}${s.out}: ${counts}; wrote ${plural(s.written.length, 'file')}, ${s.unchanged} unchanged${s.removed.length ? `, removed ${s.removed.length}` : ''}`,
      ...s.written.map((w) => `  + ${w}`),
      ...s.removed.map((r) => `  - ${r}`),
    );
    if (s.stale.length > 0)
      lines.push(`${head}${plural(s.stale.length, 'file')} no longer in the content, left in place (--prune removes them):`, ...s.stale.map((p) => `  ? ${p}`));
    if (s.extra.length > 0)
      lines.push(
        `${head}${plural(s.extra.length, 'file')} in the folder the export did not write, left in place (${
          opts.prune ? 'the folder held no export of this content before: a rerun with --prune removes them' : '--prune removes them'
        }):`,
        ...s.extra.map((p) => `  ? ${p}`),
      );
  }
  if (s.kept.length > 0) {
    lines.push(`${head}${plural(s.kept.length, 'page')} kept ${s.kept.length === 1 ? 'its' : 'their'} document JSON (the Markdown cannot carry all of it):`);
    for (const k of s.kept) lines.push(`  ${k.file} → ${k.document}: ${k.losses.join(', ')}`);
  }
  ctx.info(lines.join('\n'));
}

/** A file's bytes from its `downloadURL`, which must be an absolute http(s) URL. */
async function download(api: Api, file: SourceFile, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
  let url: URL | undefined;
  try {
    url = new URL(file.downloadURL);
  } catch {
    // Not a URL: said below.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new CliError(
      `file ${file.id} (${file.name}): its downloadURL ${JSON.stringify(file.downloadURL.slice(0, 100))} is not an http(s) URL: not downloaded`,
      EXIT.FAILED,
      'the other files and pages were written; run it again once the service gives the file a URL',
    );
  await api.download(url.toString(), (chunk) => sink(chunk));
}

/** A space's content through the official operations. */
export function spaceSource(api: Api, spaceId: string): ContentSource {
  return {
    space: spaceId,
    async pages() {
      return (await api.call(ops.listSpacePages, { params: { spaceId }, query: { metadata: false } })).pages as TreePage[];
    },
    async files() {
      const files: SourceFile[] = [];
      for await (const f of api.paginate(ops.listSpaceFiles, { params: { spaceId } })) files.push(f);
      return files;
    },
    async page(pageId) {
      return api.call(ops.getSpacePage, { params: { spaceId, pageId }, query: { format: 'document', metadata: false } });
    },
    download: (file, sink) => download(api, file, sink),
  };
}

/** A change request's content through the official operations (`--cr`: its number or id). */
async function crSource(api: Api, spaceId: string, cr: string): Promise<ContentSource> {
  const { crParams } = await import('../cr/columns.js');
  const params = crParams({ space: spaceId, cr });
  return {
    space: spaceId,
    changeRequest: params.changeRequestId,
    async pages() {
      return (await api.call(crOps.listChangeRequestPages, { params, query: { metadata: false } })).pages as TreePage[];
    },
    async files() {
      const files: SourceFile[] = [];
      for await (const f of api.paginate(crOps.listChangeRequestFiles, { params })) files.push(f);
      return files;
    },
    async page(pageId) {
      return api.call(crOps.getChangeRequestPage, { params: { ...params, pageId }, query: { format: 'document', metadata: false } });
    },
    download: (file, sink) => download(api, file, sink),
  };
}
