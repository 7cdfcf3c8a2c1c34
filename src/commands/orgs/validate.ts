import { defineCommand } from '../../cli/command.js';
import { UsageError } from '../../cli/errors.js';
import { plural } from '../../cli/text.js';
import { KINDS, type Kind } from '../../orgfile/schema.js';
import { fileFlags, filesOf, orgFileMaxBytes } from './orgfile.js';

const NAMES: Record<Kind, string> = {
  collections: 'collection',
  spaces: 'space',
  sites: 'site',
  teams: 'team',
  members: 'member',
  saml: 'SAML provider',
  openapi: 'OpenAPI specification',
};

export default defineCommand({
  name: 'validate',
  summary: 'Check organization files without a network or a token: every problem at once, exit 2 when any',
  description:
    'The checks plan and apply make before they read the organization, in one pass over every file given: the schema, keys unique across the files, ' +
    'references between them, cycles of collections, values (lengths, enums, paths, certificates), ${env:NAME} where a secret goes, and what each file owns. ' +
    'Each problem at its file:line:column (stderr), exit 2 when there is any, 0 when there is none. An unset ${env:NAME} is a note, not a problem ' +
    '(its certificate is not checked). References to kinds the files do not declare, and to teams, need the organization: plan checks them. See docs/org-as-code.md.',
  flags: { file: fileFlags.file },
  noJson: true,
  examples: ['docsctl orgs validate -f org.yaml', 'docsctl orgs validate -f org.yaml -f teams/   # several files, as plan reads them'],
  async run(ctx, { flags }) {
    const given = filesOf(flags.file, 'validate');
    const { checkOrgFilePaths, formatProblems } = await import('../../orgfile/source.js');
    const checked = checkOrgFilePaths(given, { env: ctx.env, maxBytes: await orgFileMaxBytes(ctx.env), unsetEnv: 'note' });
    for (const n of checked.notes) ctx.info(`note: ${n.where}: ${n.path ? `${n.path}: ` : ''}${n.message}`);
    const source = checked.files.length === 1 ? checked.files[0] : plural(checked.files.length, 'file');
    if (!checked.desired) throw new UsageError(formatProblems(source, checked.problems), 'fix the files (docsctl orgs schema prints their JSON Schema)');
    const d = checked.desired;
    const counts = KINDS.filter((k) => d.kinds.has(k)).map((k) => plural(d[k].length, NAMES[k]));
    ctx.info(`${source}: valid${counts.length ? ` (${counts.join(', ')})` : ''}`);
  },
});
