/**
 * SAML single sign-on providers. Only admins manage them (they hold the identity provider's
 * certificate); every member may list the sign-in links of the active ones (`GET {o}/sso`).
 */
import { X509Certificate } from 'node:crypto';
import type { Role } from '../../contract/op.js';
import type { SAMLProvider } from '../../contract/saml.js';
import { ops } from '../../contract/saml.js';
import { orgFor, requireRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import type { Store } from '../store.js';
import { teamView } from './orgs.js';

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

function providers(store: Store): Map<string, SamlProviderRec> {
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

/** The service side of the provider, on the sandbox's host: what the identity provider is told. */
function serviceOf(ctx: HandlerCtx, p: SamlProviderRec) {
  const base = `${ctx.baseUrl}/sso/saml/${p.org}/${p.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

function providerView(ctx: HandlerCtx, p: SamlProviderRec): SAMLProvider {
  const team = p.defaultTeam ? ctx.store.data.teams.get(p.defaultTeam) : undefined;
  return {
    object: 'saml-provider', id: p.id, label: p.label,
    ...(p.ssoURL !== undefined ? { ssoURL: p.ssoURL } : {}),
    ...(p.entityID !== undefined ? { entityID: p.entityID } : {}),
    ...(p.certificate !== undefined ? { certificate: p.certificate } : {}),
    ...(team ? { defaultTeam: teamView(ctx, team) } : {}),
    defaultRole: p.defaultRole, createdAt: p.createdAt,
    status: samlActive(p) ? 'active' : 'pending',
    service: serviceOf(ctx, p),
    urls: { location: `${ctx.baseUrl}/v1/orgs/${p.org}/saml/${p.id}` },
  };
}

/** The caller must administer the organization. */
function requireAdmin(ctx: HandlerCtx, orgId: string, what: string): void {
  requireRole(orgFor(ctx.store, ctx.caller, orgId).role, 'admin', what);
}

function providerFor(ctx: HandlerCtx, orgId: string, id: string, what: string): SamlProviderRec {
  requireAdmin(ctx, orgId, what);
  const p = providers(ctx.store).get(id);
  if (!p || p.org !== orgId) throw notFound(`no SAML provider ${id} in organization ${orgId}`);
  return p;
}

/** What the schema cannot check: the certificate parses as X.509, the default team exists here. */
function checkReferences(ctx: HandlerCtx, orgId: string, body: { certificate?: string; defaultTeam?: string }): void {
  if (body.certificate !== undefined) {
    try {
      new X509Certificate(body.certificate);
    } catch (e) {
      throw badRequest(`certificate: not a readable X.509 certificate (${(e as Error).message})`);
    }
  }
  if (body.defaultTeam !== undefined && ctx.store.data.teams.get(body.defaultTeam)?.org !== orgId) {
    throw badRequest(`defaultTeam: no team ${body.defaultTeam} in organization ${orgId}`);
  }
}

export const handlers: Handlers<typeof ops> = {
  listSamlProviders: (ctx, { params, query }) => {
    requireAdmin(ctx, params.organizationId, 'listing SAML providers');
    const all = samlProvidersOf(ctx.store, params.organizationId);
    const page = paginate(all, query, (p) => p.id, scopeOf('saml', params.organizationId));
    return { ...page, items: page.items.map((p) => providerView(ctx, p)) };
  },

  createSamlProvider: (ctx, { params, body }) => {
    const orgId = params.organizationId;
    requireAdmin(ctx, orgId, 'adding a SAML provider');
    checkReferences(ctx, orgId, body);
    const p: SamlProviderRec = {
      id: newId(), org: orgId, label: body.label,
      ...(body.entityID !== undefined ? { entityID: body.entityID } : {}),
      ...(body.certificate !== undefined ? { certificate: body.certificate } : {}),
      ...(body.ssoURL !== undefined ? { ssoURL: body.ssoURL } : {}),
      ...(body.defaultTeam !== undefined ? { defaultTeam: body.defaultTeam } : {}),
      defaultRole: body.defaultRole === undefined ? 'read' : body.defaultRole,
      createdAt: ctx.store.now(),
    };
    providers(ctx.store).set(p.id, p);
    return providerView(ctx, p);
  },

  getSamlProvider: (ctx, { params }) =>
    providerView(ctx, providerFor(ctx, params.organizationId, params.samlProviderId, 'reading a SAML provider')),

  updateSamlProvider: (ctx, { params, body }) => {
    const p = providerFor(ctx, params.organizationId, params.samlProviderId, 'changing a SAML provider');
    checkReferences(ctx, params.organizationId, body);
    if (body.label !== undefined) p.label = body.label;
    if (body.entityID !== undefined) p.entityID = body.entityID;
    if (body.certificate !== undefined) p.certificate = body.certificate;
    if (body.ssoURL !== undefined) p.ssoURL = body.ssoURL;
    if (body.defaultTeam !== undefined) p.defaultTeam = body.defaultTeam;
    if (body.defaultRole !== undefined) p.defaultRole = body.defaultRole;
    return providerView(ctx, p);
  },

  deleteSamlProvider: (ctx, { params }) => {
    requireAdmin(ctx, params.organizationId, 'deleting a SAML provider');
    const p = providers(ctx.store).get(params.samlProviderId);
    // A missing target answers 204 too (service-api.md, Errors rule 1).
    if (p && p.org === params.organizationId) providers(ctx.store).delete(p.id);
    return undefined;
  },

  listSsoProviders: (ctx, { params }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    return {
      items: samlProvidersOf(ctx.store, params.organizationId).filter(samlActive).map((p) => ({
        id: p.id, label: p.label, startURL: serviceOf(ctx, p).startURL,
      })),
    };
  },
};
