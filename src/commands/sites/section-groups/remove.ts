import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';

export default defineCommand({
  name: 'remove',
  aliases: ['rm', 'delete'],
  summary: 'Remove a section group; its sections and groups take its place',
  args: [{ name: 'site', description: 'site id' }, { name: 'group', description: 'section group id' }],
  examples: ['docsctl sites section-groups remove site_123 grp_456 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Remove section group ${args.group}? Its sections stay, in its place.`, flags.yes);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group } });
    ctx.info(`removed section group ${args.group}`);
  },
});
