import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';
import { siteFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one site',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites get site_123', 'docsctl sites get site_123 --json | jq .urls.published'],
  output: { fields: siteFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getSite, { params: { organizationId, siteId: args.site } });
  },
});
