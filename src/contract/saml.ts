/** Single sign-on: an organization's SAML identity providers. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, pathText, Role, Timestamp } from './op.js';
import { Team, uri } from './orgs.js';

export const samlLabel = z.string().min(1).max(30);
export const samlEntityId = z.string().max(1024);
/**
 * The identity provider's X.509 certificate: PEM, or its bare base64 body (the form an identity
 * provider's metadata carries). The sandbox checks that it reads as a certificate; the schema
 * takes any text within the official document's limit.
 */
export const samlCertificate = z.string().max(10000);
export const SAML_STATUSES = ['pending', 'active'] as const;

/**
 * How a provider shows a field that is not set yet (the official document requires all three, and
 * `ssoURL` to be a URI): entityID and certificate empty, ssoURL `about:blank`. Sending these values
 * back clears the field, so a provider read and sent back is unchanged.
 */
export const UNSET_SSO_URL = 'about:blank';

export const SAMLProvider = z.lazy(() =>
  z.object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string(),
    ssoURL: z.string(),
    entityID: z.string(),
    certificate: z.string(),
    defaultTeam: Team.optional(),
    defaultRole: Role.nullable(),
    createdAt: Timestamp,
    /** `pending` until entityID, certificate and ssoURL are all set, then `active`. */
    status: z.enum(SAML_STATUSES),
    /** What the identity provider needs to know about the service. */
    service: z.object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() }),
    urls: z.object({ location: z.string() }),
  }),
);
export type SAMLProvider = z.infer<typeof SAMLProvider>;

export const SsoProviderLink = z.lazy(() => z.object({ id: z.string(), label: z.string(), startURL: z.string() }));
export type SsoProviderLink = z.infer<typeof SsoProviderLink>;

const fields = {
  entityID: samlEntityId.optional(),
  certificate: samlCertificate.optional(),
  ssoURL: uri(2048).optional(),
  defaultTeam: z.string().optional(),
  defaultRole: Role.nullable().optional(),
};
export const CreateSamlBody = z.strictObject({ label: samlLabel, ...fields });
export const UpdateSamlBody = z.strictObject({ label: samlLabel.optional(), ...fields });

const org = z.object({ organizationId: pathId() });
const provider = z.object({ organizationId: pathId(), samlProviderId: pathText() });

export const ops = {
  listSamlProviders: defineOp({
    id: 'listSamlProviders',
    method: 'GET',
    path: '/orgs/{organizationId}/saml',
    params: org,
    query: z.object(pageQuery),
    response: listOf(SAMLProvider),
    paginated: true,
  }),
  createSamlProvider: defineOp({
    id: 'createSamlProvider',
    method: 'POST',
    path: '/orgs/{organizationId}/saml',
    params: org,
    body: CreateSamlBody,
    response: SAMLProvider,
    status: 201,
  }),
  getSamlProvider: defineOp({
    id: 'getSamlProvider',
    method: 'GET',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    params: provider,
    response: SAMLProvider,
  }),
  updateSamlProvider: defineOp({
    id: 'updateSamlProvider',
    method: 'PATCH',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    params: provider,
    body: UpdateSamlBody,
    response: SAMLProvider,
  }),
  deleteSamlProvider: defineOp({
    id: 'deleteSamlProvider',
    method: 'DELETE',
    path: '/orgs/{organizationId}/saml/{samlProviderId}',
    params: provider,
    status: 204,
  }),
  listSsoProviders: defineOp({
    id: 'listSsoProviders',
    method: 'GET',
    path: '/orgs/{organizationId}/sso',
    params: org,
    response: z.object({ items: z.array(SsoProviderLink) }),
  }),
};
