import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a site with its sections, groups and site spaces (the spaces themselves stay)',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites delete site_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Delete site ${args.site} and its structure? Its spaces are not deleted.`, flags.yes);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteSite, { params: { organizationId, siteId: args.site } });
    ctx.info(`deleted site ${args.site}`);
  },
});
