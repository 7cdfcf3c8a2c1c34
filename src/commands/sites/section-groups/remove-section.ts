import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';

export default defineCommand({
  name: 'remove-section',
  summary: 'Take a section out of a section group (it goes just after the group)',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'group', description: 'section group id' },
    { name: 'section', description: 'section id' },
  ],
  examples: ['docsctl sites section-groups remove-section site_123 grp_456 sec_789'],
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.removeSiteSectionFromGroup, {
      params: { organizationId, siteId: args.site, siteSectionGroupId: args.group, siteSectionId: args.section },
    });
    ctx.info(`section ${args.section} is not in group ${args.group}`);
  },
});
