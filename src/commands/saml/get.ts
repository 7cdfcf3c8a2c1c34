import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/saml.js';
import { samlFields } from './columns.js';

export default defineCommand({
  name: 'get',
  aliases: ['view'],
  summary: 'Show one SAML provider, with the URLs to give the identity provider',
  args: [{ name: 'provider', description: 'SAML provider id' }],
  examples: ['docsctl saml get sp_123', 'docsctl saml get sp_123 --json | jq -r .certificate > idp.pem'],
  output: { fields: samlFields },
  async run(ctx, { args }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.getSamlProvider, { params: { organizationId, samlProviderId: args.provider } });
  },
});
