/**
 * The SAML family's state: the organizations' single sign-on providers. Kept below the handlers:
 * handlers/saml.ts manages them, handlers/orgs.ts reads them for the organization's `sso` flag.
 */
import type { Role } from '../../contract/op.js';
import type { Store } from '../store.js';

export interface SamlProviderRec {
  id: string;
  /** The organization (handlers/orgs.ts reads it for the organization's `sso` flag). */
  org: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole: Role | null;
  createdAt: string;
}

export function providers(store: Store): Map<string, SamlProviderRec> {
  return store.slice('saml', () => ({ providers: new Map<string, SamlProviderRec>() })).providers;
}

/** The organization's providers, in creation order. */
export function samlProvidersOf(store: Store, orgId: string): SamlProviderRec[] {
  return [...providers(store).values()].filter((p) => p.org === orgId);
}

/** Signing in works once the identity provider's entityID, certificate and sign-in URL are all known. */
export function samlActive(p: SamlProviderRec): boolean {
  return p.entityID !== undefined && p.certificate !== undefined && p.ssoURL !== undefined;
}
