import { defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';

export default defineCommand({
  name: 'conditions',
  summary: 'List the template conditions that a site’s adaptive schema offers',
  args: [{ name: 'site', description: 'site id' }],
  examples: ['docsctl sites schema conditions site_123', 'docsctl sites schema conditions site_123 --json'],
  output: { columns: ['condition', 'description'] },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return (await api.call(ops.listTemplateConditions, { params: { organizationId, siteId: args.site } })).items;
  },
});
