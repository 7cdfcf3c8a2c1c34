/**
 * SAML single sign-on providers. Only admins manage them (they hold the identity provider's
 * certificate); every member may list the sign-in links of the active ones (`GET {o}/sso`).
 */
import { X509Certificate } from 'node:crypto';
import type { SAMLProvider } from '../../contract/saml.js';
import { ops, UNSET_SSO_URL } from '../../contract/saml.js';
import { orgFor, requireRole } from '../access.js';
import { badRequest, notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { Handlers, HandlerCtx } from '../handler.js';
import { newId } from '../ids.js';
import { paginate, scopeOf } from '../paginate.js';
import { providers, samlActive, samlProvidersOf, type SamlProviderRec } from '../saml/model.js';
import { teamView } from '../orgs/views.js';

/** The service side of the provider, on the sandbox's host: what the identity provider is told. */
function serviceOf(ctx: HandlerCtx, p: SamlProviderRec) {
  const base = `${ctx.baseUrl}/sso/saml/${p.org}/${p.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

function providerView(ctx: HandlerCtx, p: SamlProviderRec): SAMLProvider {
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
function checkReferences(ctx: HandlerCtx, orgId: string, body: Fields): void {
  if (body.certificate) readCertificate(body.certificate);
  // Members' browsers are sent to the sign-in URL: any URI, but none that runs script in the app's page.
  const scheme = body.ssoURL?.slice(0, body.ssoURL.indexOf(':')).toLowerCase();
  if (scheme === 'javascript' || scheme === 'data' || scheme === 'vbscript') {
    throw badRequest(`ssoURL: a ${scheme}: URL would run in the browser; give the identity provider's sign-in address`);
  }
  if (body.defaultTeam && ctx.store.data.teams.get(body.defaultTeam)?.org !== orgId) {
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

const handlers: Handlers<typeof ops> = {
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
      id: newId(),
      org: orgId,
      label: body.label,
      defaultRole: body.defaultRole === undefined ? 'read' : body.defaultRole,
      createdAt: ctx.store.now(),
    };
    applyFields(p, body);
    providers(ctx.store).set(p.id, p);
    return providerView(ctx, p);
  },

  getSamlProvider: (ctx, { params }) => providerView(ctx, providerFor(ctx, params.organizationId, params.samlProviderId, 'reading a SAML provider')),

  updateSamlProvider: (ctx, { params, body }) => {
    const p = providerFor(ctx, params.organizationId, params.samlProviderId, 'changing a SAML provider');
    checkReferences(ctx, params.organizationId, body);
    if (body.label !== undefined) p.label = body.label;
    applyFields(p, body);
    if (body.defaultRole !== undefined) p.defaultRole = body.defaultRole;
    return providerView(ctx, p);
  },

  deleteSamlProvider: (ctx, { params }) => {
    requireAdmin(ctx, params.organizationId, 'deleting a SAML provider');
    const p = providers(ctx.store).get(params.samlProviderId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (p && p.org === params.organizationId) providers(ctx.store).delete(p.id);
    return undefined;
  },

  listSsoProviders: (ctx, { params }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    return {
      items: samlProvidersOf(ctx.store, params.organizationId)
        .filter(samlActive)
        .map((p) => ({
          id: p.id,
          label: p.label,
          startURL: serviceOf(ctx, p).startURL,
        })),
    };
  },
};

export const family = defineFamily({ ops, handlers });
