/** SAML providers as the API shows them to an admin, and the service side members sign in through. */
import type { SAMLProvider } from '../../contract/saml.js';
import { UNSET_SSO_URL } from '../../contract/saml.js';
import type { HandlerCtx } from '../handler.js';
import { teamView } from '../orgs/views.js';
import { samlActive, type SamlProviderRec } from './model.js';

/** The service side of the provider, on the sandbox's host: what the identity provider is told. */
export function serviceOf(ctx: HandlerCtx, p: SamlProviderRec) {
  const base = `${ctx.baseUrl}/sso/saml/${p.org}/${p.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

export function providerView(ctx: HandlerCtx, p: SamlProviderRec): SAMLProvider {
  const team = p.defaultTeam ? ctx.store.data.teams.get(p.defaultTeam) : undefined;
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    // The official document requires the three, ssoURL as a URI: a field not set yet shows as the
    // value that clears it (contract/saml.ts, UNSET_SSO_URL).
    ssoURL: p.ssoURL ?? UNSET_SSO_URL,
    entityID: p.entityID ?? '',
    certificate: p.certificate ?? '',
    ...(team ? { defaultTeam: teamView(ctx, team) } : {}),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: samlActive(p) ? 'active' : 'pending',
    service: serviceOf(ctx, p),
    urls: { location: `${ctx.baseUrl}/v1/orgs/${p.org}/saml/${p.id}` },
  };
}
