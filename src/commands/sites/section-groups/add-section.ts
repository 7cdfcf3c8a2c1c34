import { checkBody, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupColumns } from '../columns.js';

export default defineCommand({
  name: 'add-section',
  summary: 'Put a section at the end of a section group',
  args: [
    { name: 'site', description: 'site id' },
    { name: 'group', description: 'section group id' },
    { name: 'section', description: 'section id' },
  ],
  examples: ['docsctl sites section-groups add-section site_123 grp_456 sec_789'],
  output: { fields: groupColumns },
  async run(ctx, { args }) {
    const body = checkBody(ops.addSiteSectionToGroup, { sectionId: args.section }, { sectionId: '<section>' });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.addSiteSectionToGroup, { params: { organizationId, siteId: args.site, siteSectionGroupId: args.group }, body });
  },
});
