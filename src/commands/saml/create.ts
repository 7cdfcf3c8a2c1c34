import { checkBody, defineCommand } from '../../cli/command.js';
import { ops, samlLabel } from '../../contract/saml.js';
import { flagOf, providerFields, providerFlags } from './body.js';
import { samlFields } from './columns.js';
import { characters } from '../flags.js';

export default defineCommand({
  name: 'create',
  summary: 'Add a SAML provider (active once entity ID, certificate and sign-in URL are set)',
  flags: {
    label: { description: `name shown on the sign-in button (${characters(samlLabel)}, required)`, value: 'label' },
    ...providerFlags,
  },
  examples: [
    'docsctl saml create --label Okta',
    'docsctl saml create --label Okta --entity-id http://www.okta.com/abc --sso-url https://acme.okta.com/app/abc/sso/saml --certificate-file okta.pem',
    'xmllint --xpath "string(//*[local-name()=\'X509Certificate\'])" metadata.xml | docsctl saml create --label Okta --certificate-file -',
  ],
  output: { fields: samlFields },
  async run(ctx, { flags }) {
    const body = checkBody(ops.createSamlProvider, { label: flags.label, ...(await providerFields(ctx, flags)) }, flagOf);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    return api.call(ops.createSamlProvider, { params: { organizationId }, body });
  },
});
