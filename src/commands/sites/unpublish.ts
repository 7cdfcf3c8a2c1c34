import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';
import { siteFields } from './columns.js';

export default defineCommand({
  name: 'unpublish',
  summary: 'Unpublish a site: only members of the organization can see it',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites unpublish site_123'],
  output: { fields: siteFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.unpublishSite, { params: { organizationId, siteId: args.site } });
  },
});
