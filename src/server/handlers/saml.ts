/**
 * SAML single sign-on providers (the model: saml/). Only admins manage them (they hold the identity
 * provider's certificate); every member may list the sign-in links of the active ones (`GET {o}/sso`).
 */
import { ops } from '../../contract/saml.js';
import { orgFor } from '../access.js';
import { unlessSame } from '../audit/model.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import { createProvider, providerFor, providers, requireAdmin, samlActive, samlProvidersOf, updateProvider } from '../saml/model.js';
import { providerView, serviceOf } from '../saml/views.js';

const handlers: Handlers<typeof ops> = {
  listSamlProviders: (ctx, { params, query }) => {
    requireAdmin(ctx, params.organizationId, 'listing SAML providers');
    const all = samlProvidersOf(ctx.store, params.organizationId);
    const page = paginate(all, query, (p) => p.id, scopeOf('saml', params.organizationId));
    return { ...page, items: page.items.map((p) => providerView(ctx, p)) };
  },

  createSamlProvider: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'adding a SAML provider');
    return providerView(ctx, createProvider(ctx.store, params.organizationId, body));
  },

  getSamlProvider: (ctx, { params }) => providerView(ctx, providerFor(ctx, params.organizationId, params.samlProviderId, 'reading a SAML provider')),

  updateSamlProvider: (ctx, { params, body }) => {
    const p = providerFor(ctx, params.organizationId, params.samlProviderId, 'changing a SAML provider');
    unlessSame(
      ctx,
      () => p,
      () => updateProvider(ctx.store, p, body),
    );
    return providerView(ctx, p);
  },
  deleteSamlProvider: (ctx, { params }) => {
    requireAdmin(ctx, params.organizationId, 'deleting a SAML provider');
    const p = providers(ctx.store).get(params.samlProviderId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (p && p.org === params.organizationId) providers(ctx.store).delete(p.id);
    else ctx.unchanged = true;
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
