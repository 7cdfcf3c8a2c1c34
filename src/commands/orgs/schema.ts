import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'schema',
  summary: 'Print the JSON Schema of the organization file (for editors and CI checks)',
  description:
    'Generated from the same definitions docsctl checks the file with. Save it beside the file: the first line of an export, # yaml-language-server: $schema=org.schema.json, points editors to it.',
  examples: ['docsctl orgs schema > org.schema.json'],
  noJson: true,
  async run(ctx) {
    const { orgFileJsonSchema } = await import('../../orgfile/schema.js');
    ctx.out(JSON.stringify(orgFileJsonSchema(), null, 2) + '\n');
  },
});
