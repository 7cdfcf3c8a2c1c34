import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { plural } from '../../cli/text.js';
import { concurrencyOf, fileFlags, orgFileMaxBytes } from './orgfile.js';

const FORMATS = ['yaml', 'json'] as const;

export default defineCommand({
  name: 'export',
  summary: 'Write the organization as a file: settings, collections, spaces, sites and their structure, teams, grants, members, SAML, OpenAPI',
  description:
    'YAML by default (JSON with --format json), to stdout or --out. Every item has a key (from its title) and its id; ' +
    'references are by key. Page content is not in it. Review changes to it like code, then docsctl orgs plan and apply. ' +
    'With --update FILE, FILE is rewritten from the organization keeping its keys, comments, order, ${env:…} references and ' +
    'the fields it leaves out (what changed goes to stderr); --check only says whether it would change (exit 1). See docs/org-as-code.md.',
  flags: {
    out: { short: 'o', description: 'write to this file instead of stdout', value: 'file' },
    format: { description: 'yaml (default) or json', value: 'format', choices: FORMATS },
    schema: { description: 'what the file’s $schema line points to (default: org.schema.json, beside the file; docsctl orgs schema writes it)', value: 'url' },
    update: { description: 'rewrite this organization file from the organization, keeping its keys, comments, order and ${env:…} references', value: 'file' },
    check: { type: 'boolean', description: 'with --update: write nothing, exit 1 when the file would change (drift detection in CI)' },
    concurrency: fileFlags.concurrency,
  },
  examples: [
    'docsctl orgs export > org.yaml',
    'docsctl orgs export --out org.json --format json',
    'docsctl orgs export --update org.yaml',
    'docsctl orgs export --update org.yaml --check   # in CI: exit 1 when the organization drifted from the file',
    'docsctl orgs schema > org.schema.json',
  ],
  noJson: true,
  async run(ctx, { flags }) {
    if (flags.check && !flags.update) throw new UsageError('--check goes with --update FILE: the file to compare with the organization');
    if (flags.update) {
      if (flags.out !== undefined || flags.format !== undefined || flags.schema !== undefined)
        throw new UsageError(`--update rewrites ${flags.update} in its own format: --out, --format and --schema do not go with it`);
      await update(ctx, flags.update, Boolean(flags.check), concurrencyOf(flags.concurrency));
      return;
    }
    const format = flags.format ?? (flags.out?.endsWith('.json') ? 'json' : 'yaml');
    const concurrency = concurrencyOf(flags.concurrency);
    const { reader, exportOrganization } = await import('../../orgfile/workflow.js');
    const { formatFile } = await import('../../orgfile/export.js');
    const { stringify } = await import('yaml');
    const org = await ctx.org();
    const { data } = await ctx.spinning(`reading organization ${org}…`, exportOrganization(reader(await ctx.api(), concurrency), org));
    const text = formatFile(data, format, flags.schema ?? 'org.schema.json', (v) => stringify(v, { lineWidth: 0 }));
    // A specification made from a document has no URL to name: the file cannot make it again without its document.
    const documentMade = (data.openapi ?? []).filter((s) => s.url === undefined).map((s) => s.slug);
    if (documentMade.length)
      ctx.info(
        `openapi ${documentMade.join(', ')}: made from a document, written without url or file: give each its file: (docsctl openapi content SLUG writes the document; docsctl orgs backup writes and names them)`,
      );
    if (!flags.out) {
      ctx.out(text);
      return;
    }
    try {
      await writeFile(flags.out, text);
    } catch (e) {
      throw new UsageError(`--out: cannot write ${flags.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    ctx.info(`wrote ${flags.out}`);
  },
});

/** `--update FILE`: the file checked before anything is read (exit 2), rewritten atomically, what changed on stderr. */
async function update(ctx: Context, file: string, check: boolean, concurrency: number): Promise<void> {
  const { readOrgFileText } = await import('../../orgfile/read.js');
  const { OrgFileError } = await import('../../orgfile/source.js');
  const { FILE_BYTES_VARIABLE } = await import('../../orgfile/limits.js');
  const { checkForUpdate, stillPlanned, updateFile } = await import('../../orgfile/update.js');
  const { reader, readAll } = await import('../../orgfile/workflow.js');
  const maxBytes = await orgFileMaxBytes(ctx.env);
  let text: string;
  try {
    text = readOrgFileText(file, maxBytes, `${FILE_BYTES_VARIABLE} raises it`);
  } catch (e) {
    throw new UsageError(`--update: ${file}: ${(e as Error).message}`, 'nothing was written');
  }
  // Checked before the organization is read: a bad file costs no request, and is never written.
  let desired: Awaited<ReturnType<typeof checkForUpdate>>;
  try {
    desired = checkForUpdate(text, file, { env: ctx.env, baseDir: dirname(resolve(file)), maxBytes });
  } catch (e) {
    if (e instanceof OrgFileError) throw new UsageError(e.message, `nothing was written; fix ${file} (or export it afresh with --out)`);
    throw e;
  }
  const org = await ctx.org();
  const live = await ctx.spinning(`reading organization ${org}…`, readAll(reader(await ctx.api(), concurrency), org));
  const result = updateFile(text, desired, live);
  const remaining = stillPlanned(result.text, file, live, { env: ctx.env, baseDir: dirname(resolve(file)), maxBytes });
  if (remaining.length) result.kept.push(`plan would still change (the file asks for what export does not write): ${remaining.join(', ')}`);
  const { added, removed, changed, kept } = result;
  const lines = [...added.map((a) => `  + ${a}`), ...removed.map((r) => `  - ${r}`), ...changed.map((c) => `  ~ ${c}`), ...kept.map((k) => `  = ${k}`)];
  const summary = `${plural(added.length, 'item')} added, ${removed.length} removed, ${changed.length} changed`;
  if (result.text === text) {
    ctx.info(`${file}: up to date with organization ${org}${kept.length ? `\n${lines.join('\n')}` : ''}`);
    return;
  }
  if (check) {
    ctx.info(`${file} would change: ${summary}\n${lines.join('\n')}`);
    throw new CliError(`${file} differs from organization ${org} (docsctl orgs export --update ${file} rewrites it)`, EXIT.FAILED);
  }
  const temp = join(dirname(resolve(file)), `.${basename(file)}.${process.pid}.tmp`);
  try {
    const mode = (await stat(file)).mode & 0o777;
    await writeFile(temp, result.text, { mode, flag: 'wx' });
    await rename(temp, file);
  } catch (e) {
    await unlink(temp).catch(() => {});
    throw new UsageError(`--update: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  ctx.info(`wrote ${file}: ${summary}\n${lines.join('\n')}`);
}
