import { checkBody, nonEmpty, defineCommand } from '../../cli/command.js';
import { ops, samlLabel } from '../../contract/saml.js';
import { flagOf, providerFields, providerFlags } from './body.js';
import { samlFields } from './columns.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'update',
  aliases: ['edit'],
  summary: 'Change a SAML provider',
  args: [{ name: 'provider', description: 'SAML provider id' }],
  flags: {
    label: { description: `name shown on the sign-in button (${characters(samlLabel)})`, value: 'label' },
    ...providerFlags,
  },
  examples: [
    'docsctl saml update sp_123 --certificate-file renewed.pem',
    'docsctl saml update sp_123 --default-role edit',
    'docsctl saml update sp_123 --entity-id "" --certificate-file /dev/null   # clear both: pending again',
  ],
  output: { fields: samlFields },
  async run(ctx, { args, flags }) {
    const body = checkBody(ops.updateSamlProvider, { label: flags.label, ...(await providerFields(ctx, flags)) }, flagOf);
    nonEmpty(body, 'pass --label, --entity-id, --sso-url, --certificate-file, --default-team or --default-role');
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.updateSamlProvider, { params: { organizationId, samlProviderId: args.provider }, body });
  },
});
