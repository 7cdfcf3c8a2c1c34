import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/saml.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a SAML provider (its members can no longer sign in through it)',
  args: [{ name: 'provider', description: 'SAML provider id' }],
  examples: ['docsctl saml delete sp_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    await ctx.confirm(`Delete SAML provider ${args.provider}? Members can no longer sign in through it.`, flags.yes);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await api.call(ops.deleteSamlProvider, { params: { organizationId, samlProviderId: args.provider } });
    ctx.info(`deleted SAML provider ${args.provider}`);
  },
});
