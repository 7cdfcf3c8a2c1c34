import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';
import { siteFields } from './columns.js';

export default defineCommand({
  name: 'publish',
  summary: 'Publish a site: its audience (set by its visibility) can see it',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites publish site_123'],
  output: { fields: siteFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.publishSite, { params: { organizationId, siteId: args.site } });
  },
});
