/** Single sign-on: an organization's SAML identity providers. */
import { z } from 'zod';
import { defineOp, id, listOf, pageQuery, pathId, Role, Timestamp } from './op.js';
import { httpUrl } from './openapi.js';
import { Team } from './orgs.js';

/** One PEM-encoded certificate: the BEGIN/END lines around base64 (surrounding blank space allowed). */
export const PEM_CERTIFICATE = /^\s*-----BEGIN CERTIFICATE-----\r?\n(?:[A-Za-z0-9+/=]+\r?\n)+-----END CERTIFICATE-----\s*$/;

export const samlLabel = z.string().min(1).max(30);
export const samlEntityId = z.string().min(1).max(1024);
export const samlCertificate = z.string().max(10000).refine((v) => PEM_CERTIFICATE.test(v), {
  message: 'must be one PEM certificate (-----BEGIN CERTIFICATE-----, base64 lines, -----END CERTIFICATE-----)',
});
export const SAML_STATUSES = ['pending', 'active'] as const;

export const SAMLProvider = z.lazy(() => z.object({
  object: z.literal('saml-provider'),
  id: z.string(),
  label: z.string(),
  ssoURL: z.string().optional(),
  entityID: z.string().optional(),
  certificate: z.string().optional(),
  defaultTeam: Team.optional(),
  defaultRole: Role.nullable(),
  createdAt: Timestamp,
  /** `pending` until entityID, certificate and ssoURL are all set, then `active` (decisions.md). */
  status: z.enum(SAML_STATUSES),
  /** What the identity provider needs to know about the service. */
  service: z.object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() }),
  urls: z.object({ location: z.string() }),
}));
export type SAMLProvider = z.infer<typeof SAMLProvider>;

export const SsoProviderLink = z.lazy(() => z.object({ id: z.string(), label: z.string(), startURL: z.string() }));
export type SsoProviderLink = z.infer<typeof SsoProviderLink>;

const fields = {
  entityID: samlEntityId.optional(),
  certificate: samlCertificate.optional(),
  ssoURL: httpUrl(2048).optional(),
  defaultTeam: id().optional(),
  defaultRole: Role.nullable().optional(),
};
export const CreateSamlBody = z.strictObject({ label: samlLabel, ...fields });
export const UpdateSamlBody = z.strictObject({ label: samlLabel.optional(), ...fields });

const org = z.object({ organizationId: pathId() });
const provider = z.object({ organizationId: pathId(), samlProviderId: pathId() });

export const ops = {
  listSamlProviders: defineOp({
    id: 'listSamlProviders', method: 'GET', path: '/orgs/{organizationId}/saml',
    params: org, query: z.object(pageQuery), response: listOf(SAMLProvider), paginated: true,
  }),
  createSamlProvider: defineOp({
    id: 'createSamlProvider', method: 'POST', path: '/orgs/{organizationId}/saml',
    params: org, body: CreateSamlBody, response: SAMLProvider, status: 201,
  }),
  getSamlProvider: defineOp({
    id: 'getSamlProvider', method: 'GET', path: '/orgs/{organizationId}/saml/{samlProviderId}', params: provider, response: SAMLProvider,
  }),
  updateSamlProvider: defineOp({
    id: 'updateSamlProvider', method: 'PATCH', path: '/orgs/{organizationId}/saml/{samlProviderId}',
    params: provider, body: UpdateSamlBody, response: SAMLProvider,
  }),
  deleteSamlProvider: defineOp({
    id: 'deleteSamlProvider', method: 'DELETE', path: '/orgs/{organizationId}/saml/{samlProviderId}', params: provider, status: 204,
  }),
  listSsoProviders: defineOp({
    id: 'listSsoProviders', method: 'GET', path: '/orgs/{organizationId}/sso',
    params: org, response: z.object({ items: z.array(SsoProviderLink) }),
  }),
};
