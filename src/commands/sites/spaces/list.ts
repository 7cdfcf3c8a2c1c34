import { checkQuery, defineCommand } from '../../../cli/command.js';
import { ops } from '../../../contract/sites.js';
import { siteSpaceColumns } from '../columns.js';
import { BOOLEAN_CHOICES } from '../flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the site spaces of a site, section by section in structure order',
  args: [{ name: 'site', description: 'site id' }],
  flags: {
    default: { description: 'only defaults of their section (true) or only the others (false)', value: 'bool', choices: BOOLEAN_CHOICES },
    shareKey: { description: 'the key of a share-link site, as a visitor brings it', value: 'key' },
  },
  examples: ['docsctl sites spaces list site_123', 'docsctl sites spaces list site_123 --default true --json'],
  list: true,
  output: { columns: siteSpaceColumns },
  async run(ctx, { args, flags }) {
    const query = checkQuery(ops.listSiteSpaces, { default: flags.default, shareKey: flags.shareKey });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listSiteSpaces, { params: { organizationId, siteId: args.site }, query }, flags.page);
  },
});
