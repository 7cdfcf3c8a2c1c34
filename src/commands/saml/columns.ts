/** How SAML providers show in tables and key/value lines. */
import { withExtras, type Column } from '../../cli/output.js';
import { UNSET_SSO_URL, type SAMLProvider } from '../../contract/saml.js';
import { plural } from '../../cli/text.js';

/** The sign-in URL, blank while it is not set (the API shows about:blank then). */
const ssoURL: Column<SAMLProvider> = { key: 'ssoURL', value: (p) => (p.ssoURL === UNSET_SSO_URL ? undefined : p.ssoURL) };

/** `PEM, 19 lines` or `base64, 1012 characters`; blank while not set. */
function certificateOf(p: SAMLProvider): string | undefined {
  const text = p.certificate.trim();
  if (text === '') return undefined;
  return text.includes('-----BEGIN') ? `PEM, ${plural(text.split('\n').length, 'line')}` : `base64, ${plural(text.replace(/\s+/g, '').length, 'character')}`;
}

export const samlFields: Column<SAMLProvider>[] = [
  'id',
  'label',
  'status',
  { key: 'entityID', value: (p) => p.entityID || undefined },
  ssoURL,
  { key: 'defaultTeam', value: (p) => p.defaultTeam?.id },
  'defaultRole',
  { key: 'certificate', value: certificateOf },
  'createdAt',
  { key: 'acsURL', value: (p) => p.service.acsURL },
  { key: 'serviceEntityID', value: (p) => p.service.entityID },
  { key: 'startURL', value: (p) => p.service.startURL },
];
export const samlColumns: Column<SAMLProvider>[] = withExtras(['id', 'label', 'status', ssoURL, 'defaultRole', 'createdAt'], samlFields);
