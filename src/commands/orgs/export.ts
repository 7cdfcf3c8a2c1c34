import { writeFile } from 'node:fs/promises';
import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { concurrencyOf, fileFlags } from './orgfile.js';

const FORMATS = ['yaml', 'json'] as const;

export default defineCommand({
  name: 'export',
  summary: 'Write the organization as a file: collections, spaces, sites and their structure, members, SAML, OpenAPI',
  description:
    'YAML by default (JSON with --format json), to stdout or --out. Every item has a key (from its title) and its id; ' +
    'references are by key. Page content is not in it. Review changes to it like code, then docsctl orgs plan and apply. ' +
    'See docs/org-as-code.md.',
  flags: {
    out: { short: 'o', description: 'write to this file instead of stdout', value: 'file' },
    format: { description: 'yaml (default) or json', value: 'format', choices: FORMATS },
    schema: { description: 'what the file’s $schema line points to (default: org.schema.json, beside the file; docsctl orgs schema writes it)', value: 'url' },
    concurrency: fileFlags.concurrency,
  },
  examples: ['docsctl orgs export > org.yaml', 'docsctl orgs export --out org.json --format json', 'docsctl orgs schema > org.schema.json'],
  noJson: true,
  async run(ctx, { flags }) {
    const format = flags.format ?? (flags.out?.endsWith('.json') ? 'json' : 'yaml');
    const concurrency = concurrencyOf(flags.concurrency);
    const { reader, exportOrganization } = await import('../../orgfile/workflow.js');
    const { formatFile } = await import('../../orgfile/export.js');
    const { stringify } = await import('yaml');
    const org = await ctx.org();
    const { data } = await ctx.spinning(`reading organization ${org}…`, exportOrganization(reader(await ctx.api(), concurrency), org));
    const text = formatFile(data, format, flags.schema ?? 'org.schema.json', (v) => stringify(v, { lineWidth: 0 }));
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
