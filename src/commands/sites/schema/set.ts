import { defineCommand } from '../../../cli/command.js';
import { readFileOrStdin } from '../../../cli/input.js';
import { UsageError } from '../../../cli/errors.js';
import { describeIssue, issuePath } from '../../../contract/op.js';
import { ops } from '../../../contract/sites.js';

export default defineCommand({
  name: 'set',
  summary: 'Replace the adaptive-content schema of a site with a JSON Schema (draft-07) file',
  description:
    'The file is the JSON Schema itself: an object whose properties.unsigned is an object of boolean claims ' +
    'with additionalProperties false; further properties are boolean claims. It is checked before sending.',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'file', description: 'JSON file, or - for stdin', files: true },
  ],
  examples: ['docsctl sites schema set site_123 schema.json', 'cat schema.json | docsctl sites schema set site_123 -'],
  output: { fields: ['updatedAt', 'jsonSchema'] },
  async run(ctx, { args }) {
    const text = await readFileOrStdin(ctx, args.file);
    let jsonSchema: unknown;
    try {
      jsonSchema = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${args.file}: not valid JSON (${(e as Error).message})`);
    }
    const checked = ops.putAdaptiveSchema.body.safeParse({ jsonSchema });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issuePath(issue).replace(/^jsonSchema\.?/, '') || '(the schema)';
      throw new UsageError(`${args.file}: ${where}: ${describeIssue(issue, { jsonSchema })}`);
    }
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.putAdaptiveSchema, { params: { organizationId, siteId: args.site }, body: checked.data });
  },
});
