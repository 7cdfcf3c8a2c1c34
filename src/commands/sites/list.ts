import { checkQuery, defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/sites.js';
import { siteColumns } from './columns.js';
import { BOOLEAN_CHOICES } from './flags.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the sites of the organization',
  flags: {
    space: { description: 'only sites that publish this space', value: 'space' },
    title: { description: 'only sites whose title contains this text (any case)', value: 'text' },
    published: { description: 'only published (true) or unpublished (false) sites', value: 'bool', choices: BOOLEAN_CHOICES },
    type: { type: 'list', description: 'only sites of this type (repeatable: any of them)', value: 'type' },
  },
  examples: [
    'docsctl sites list',
    'docsctl sites list --published true --json',
    'docsctl sites list --space sp_123',
    'docsctl sites list --type premium --type ultimate',
  ],
  list: true,
  output: { columns: siteColumns },
  async run(ctx, { flags }) {
    const query = checkQuery(ops.listSites, {
      space: flags.space,
      title: flags.title,
      published: flags.published,
      type: flags.type?.length ? flags.type : undefined,
    });
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listSites, { params: { organizationId }, query }, flags.page);
  },
});
