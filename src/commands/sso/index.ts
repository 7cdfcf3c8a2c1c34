import { defineCommand, defineGroup } from '../../cli/command.js';
import type { Column } from '../../cli/output.js';
import { ops, type SsoProviderLink } from '../../contract/saml.js';

const columns: Column<SsoProviderLink>[] = ['id', 'label', 'startURL'];

const list = defineCommand({
  name: 'list',
  aliases: ['ls'],
  summary: 'List the organization’s single sign-on links (its active SAML providers)',
  examples: ['docsctl sso list', 'docsctl sso list --json'],
  output: { columns },
  async run(ctx) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return (await api.call(ops.listSsoProviders, { params: { organizationId } })).items;
  },
});

export default defineGroup({ name: 'sso', summary: 'Single sign-on links of the organization', commands: [list] });
