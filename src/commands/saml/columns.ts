/** How SAML providers show in tables and key/value lines. */
import type { Column } from '../../cli/output.js';
import type { SAMLProvider } from '../../contract/saml.js';

export const samlColumns: Column<SAMLProvider>[] = ['id', 'label', 'status', 'ssoURL', 'defaultRole', 'createdAt'];
export const samlFields: Column<SAMLProvider>[] = [
  'id', 'label', 'status', 'entityID', 'ssoURL', { key: 'defaultTeam', value: (p) => p.defaultTeam?.id }, 'defaultRole',
  { key: 'certificate', value: (p) => (p.certificate === undefined ? undefined : `${p.certificate.trim().split('\n').length} lines of PEM`) },
  'createdAt', { key: 'acsURL', value: (p) => p.service.acsURL }, { key: 'serviceEntityID', value: (p) => p.service.entityID },
  { key: 'startURL', value: (p) => p.service.startURL },
];
