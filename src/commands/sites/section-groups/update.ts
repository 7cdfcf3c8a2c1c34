import { checkBody, nonEmpty, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupFields } from '../columns.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a section group’s title or icon',
  args: [{ name: 'site', description: 'site id' }, { name: 'group', description: 'section group id' }],
  flags: {
    title: { description: 'new title (1 to 128 characters)', value: 'title' },
    icon: { description: 'icon name, or null to remove', value: 'name', nullable: true },
  },
  examples: ['docsctl sites section-groups update site_123 grp_456 --title Platform --icon layers'],
  output: { fields: groupFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateSiteSectionGroup, { title: flags.title, icon: flags.icon });
    nonEmpty(body, 'pass --title or --icon');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSiteSectionGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body });
  },
});
