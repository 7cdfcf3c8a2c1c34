import { defineCommand } from '../../cli/command.js';
import { ops } from '../../contract/saml.js';
import { confirmAction } from '../prompts.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a SAML provider (its members can no longer sign in through it)',
  args: [{ name: 'provider', description: 'SAML provider id' }],
  examples: ['docsctl saml delete sp_123 --yes'],
  destructive: true,
  async run(ctx, { args, flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    await confirmAction(ctx, flags.yes, {
      verb: 'Delete',
      kind: 'SAML provider',
      id: args.provider,
      then: 'Members can no longer sign in through it.',
      title: async () => (await api.call(ops.getSamlProvider, { params: { organizationId, samlProviderId: args.provider } })).label,
    });
    await api.call(ops.deleteSamlProvider, { params: { organizationId, samlProviderId: args.provider } });
    ctx.info(`deleted SAML provider ${args.provider}`);
  },
});
