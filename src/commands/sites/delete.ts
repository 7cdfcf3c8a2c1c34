import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a site with its sections, groups and site spaces (the spaces themselves stay)',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites delete site_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await confirmAction(ctx, flags.yes, {
      verb: 'Delete',
      kind: 'site',
      id: args.site,
      then: 'Its structure goes with it; its spaces are not deleted.',
      title: async () => (await api.call(ops.getSite, { params: { organizationId, siteId: args.site } })).title,
    });
    await api.call(ops.deleteSite, { params: { organizationId, siteId: args.site } });
    ctx.info(`deleted site ${args.site}`);
  },
});
