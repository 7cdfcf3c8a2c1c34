import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/saml.js';
import { samlColumns } from './columns.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organization’s SAML providers',
  examples: ['docsctl saml list', 'docsctl saml list --json'],
  list: true,
  output: { columns: samlColumns },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.paginate(ops.listSamlProviders, { params: { organizationId } }, flags.page);
  },
});
