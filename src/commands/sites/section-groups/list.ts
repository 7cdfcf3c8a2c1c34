import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { groupColumns } from '../columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the section groups of a site, in structure order, with their children',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites section-groups list site_123', 'docsctl sites section-groups list site_123 --json'],
  list: true,
  output: { columns: groupColumns },
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listSiteSectionGroups, { params: { organizationId, siteId: args.site } }, flags.page);
  },
});
