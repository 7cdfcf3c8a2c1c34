/**
 * The SAML family's state and rules: the organizations' single sign-on providers, who manages them
 * (admins: they hold the identity provider's certificate), and what a provider's fields may hold.
 * handlers/saml.ts manages them; the orgs model reads them for the organization's `sso` flag.
 */
import { X509Certificate } from 'node:crypto';
import { UNSET_SSO_URL } from '../../contract/saml.js';
import type { Role } from '../../contract/op.js';
import { orgFor, requireRole, type Actor } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Store } from '../store.js';

export interface SamlProviderRec {
  id: string;
  /** The organization (the orgs model reads it for the organization's `sso` flag). */
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

/** The caller must administer the organization. */
export function requireAdmin(actor: Actor, orgId: string, what: string): void {
  requireRole(orgFor(actor.store, actor.caller, orgId).role, 'admin', what);
}

/** A provider of the organization, for an admin; 404 when it is not there. */
export function providerFor(actor: Actor, orgId: string, id: string, what: string): SamlProviderRec {
  requireAdmin(actor, orgId, what);
  const p = providers(actor.store).get(id);
  if (!p || p.org !== orgId) throw notFound(`no SAML provider ${id} in organization ${orgId}`);
  return p;
}

/**
 * The certificate as X.509: PEM (`-----BEGIN CERTIFICATE-----` …), or its bare base64 body, the
 * form an identity provider's metadata carries (`<ds:X509Certificate>`), line breaks allowed.
 * Throws a 400 naming `certificate` when it is neither.
 */
function readCertificate(text: string): X509Certificate {
  try {
    if (text.includes('-----BEGIN')) return new X509Certificate(text);
    const body = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new Error('neither PEM nor base64');
    return new X509Certificate(Buffer.from(body, 'base64'));
  } catch (e) {
    throw badRequest(`certificate: not a readable X.509 certificate, in PEM or as its base64 body (${(e as Error).message})`);
  }
}

type Fields = { entityID?: string; certificate?: string; ssoURL?: string; defaultTeam?: string };

/**
 * What the schema cannot check: the certificate reads as X.509, the sign-in URL runs no script,
 * the default team exists here. An empty value (and ssoURL `about:blank`) clears the field
 * instead, and is not checked.
 */
function checkReferences(store: Store, orgId: string, body: Fields): void {
  if (body.certificate) readCertificate(body.certificate);
  // Members' browsers are sent to the sign-in URL: any URI, but none that runs script in the app's page.
  const scheme = body.ssoURL?.slice(0, body.ssoURL.indexOf(':')).toLowerCase();
  if (scheme === 'javascript' || scheme === 'data' || scheme === 'vbscript') {
    throw badRequest(`ssoURL: a ${scheme}: URL would run in the browser; give the identity provider's sign-in address`);
  }
  if (body.defaultTeam && store.data.teams.get(body.defaultTeam)?.org !== orgId) {
    throw badRequest(`defaultTeam: no team ${body.defaultTeam} in organization ${orgId}`);
  }
}

/** Set the given fields; an empty one (ssoURL `about:blank`) is cleared. */
function applyFields(p: SamlProviderRec, body: Fields): void {
  for (const key of ['entityID', 'certificate', 'ssoURL', 'defaultTeam'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    if (value === '' || (key === 'ssoURL' && value === UNSET_SSO_URL)) delete p[key];
    else p[key] = value;
  }
}

/** A new provider of the organization (checked first: nothing is stored when a field is refused). */
export function createProvider(store: Store, orgId: string, body: Fields & { label: string; defaultRole?: Role | null }): SamlProviderRec {
  checkReferences(store, orgId, body);
  const p: SamlProviderRec = {
    id: newId(),
    org: orgId,
    label: body.label,
    defaultRole: body.defaultRole === undefined ? 'read' : body.defaultRole,
    createdAt: store.now(),
  };
  applyFields(p, body);
  providers(store).set(p.id, p);
  return p;
}

/** Change a provider's label, fields and default role (checked first). */
export function updateProvider(store: Store, p: SamlProviderRec, body: Fields & { label?: string; defaultRole?: Role | null }): void {
  checkReferences(store, p.org, body);
  if (body.label !== undefined) p.label = body.label;
  applyFields(p, body);
  if (body.defaultRole !== undefined) p.defaultRole = body.defaultRole;
}
