import { defineCommand } from '../../../cli/command.js';
import { ops, type SiteAdaptiveSchema } from '../../../contract/sites.js';

export default defineCommand({
  name: 'get',
  summary: 'Show the adaptive-content schema of a site (the claims its visitors bring)',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites schema get site_123', 'docsctl sites schema get site_123 --json | jq .jsonSchema > schema.json'],
  output: {
    fields: ['updatedAt', 'jsonSchema'],
    human: (s: SiteAdaptiveSchema) => `${JSON.stringify(s.jsonSchema, null, 2)}\n`,
  },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getAdaptiveSchema, { params: { organizationId, siteId: args.site } });
  },
});
