import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm', 'delete'],
  summary: 'Remove a section and its site spaces from a site (the spaces themselves stay)',
  args: [{ name: 'site', description: 'site id' }, { name: 'section', description: 'section id' }],
  examples: ['docsctl sites sections remove site_123 sec_456 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Remove section ${args.section} and its site spaces from site ${args.site}?`, flags.yes);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteSiteSection, { params: { organizationId, siteId: args.site, siteSectionId: args.section } });
    ctx.info(`removed section ${args.section}`);
  },
});
