import { checkQuery, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { sectionColumns } from '../columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the sections of a site, in structure order',
  args: [{ name: 'site', description: 'site id' }],
  flags: { shareKey: { description: 'the key of a share-link site, as a visitor brings it', value: 'key' } },
  examples: ['docsctl sites sections list site_123', 'docsctl sites sections list site_123 --json'],
  list: true,
  output: { columns: sectionColumns },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.listSiteSections, { shareKey: flags.shareKey });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listSiteSections, { params: { organizationId, siteId: args.site }, query }, flags.page);
  },
});
