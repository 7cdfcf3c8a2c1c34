/** OpenAPI specifications (the model: openapi/): created or put, processed after the answer, their versions read. */
import { ops } from '../../contract/openapi.js';
import { orgFor } from '../access.js';
import { defineFamily } from '../family.js';
import { Reply, type Handlers } from '../handler.js';
import { createSpec, deleteSpec, findSpec, putSpec, requireAdmin, resumeProcessing, specFor, versionFor, versionsOf, visibleSpecs } from '../openapi/model.js';
import { contentView, specView, versionView } from '../openapi/views.js';
import { paginate, scopeOf } from '../paginate.js';

const handlers: Handlers<typeof ops> = {
  listOpenAPISpecs: (ctx, { params, query }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const page = paginate(visibleSpecs(ctx, params.organizationId), query, (s) => s.id, scopeOf('openapi', params.organizationId));
    return { ...page, items: page.items.map((s) => specView(ctx, s)) };
  },

  createOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'adding an OpenAPI specification');
    return specView(ctx, createSpec(ctx.store, params.organizationId, body.slug, body.source));
  },

  getOpenAPISpec: (ctx, { params }) => specView(ctx, specFor(ctx, params.organizationId, params.specSlug)),

  putOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'replacing an OpenAPI specification');
    const { spec, created } = putSpec(ctx.store, params.organizationId, params.specSlug, body.source);
    return new Reply(created ? 201 : 200, specView(ctx, spec));
  },

  updateOpenAPISpec: (ctx, { params, body }) => {
    requireAdmin(ctx, params.organizationId, 'changing an OpenAPI specification’s visibility');
    const s = specFor(ctx, params.organizationId, params.specSlug);
    // The visibility it has already: nothing changes, not even the time of the last change.
    if (s.visibility === body.visibility) ctx.unchanged = true;
    else {
      s.visibility = body.visibility;
      s.updatedAt = ctx.store.now();
    }
    return specView(ctx, s);
  },

  deleteOpenAPISpec: (ctx, { params }) => {
    requireAdmin(ctx, params.organizationId, 'deleting an OpenAPI specification');
    const s = findSpec(ctx.store, params.organizationId, params.specSlug);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (s) deleteSpec(ctx.store, s);
    else ctx.unchanged = true;
    return undefined;
  },

  listOpenAPISpecVersions: (ctx, { params, query }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    const newestFirst = versionsOf(ctx.store, s).reverse();
    const page = paginate(newestFirst, query, (v) => v.id, scopeOf('openapi-versions', s.id));
    return { ...page, items: page.items.map((v) => versionView(ctx, s, v)) };
  },

  getLatestOpenAPISpecVersion: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return versionView(ctx, s, versionFor(ctx, s, 'latest'));
  },

  getLatestOpenAPISpecVersionContent: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return contentView(ctx, s, versionFor(ctx, s, 'latest'));
  },

  getOpenAPISpecVersion: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return versionView(ctx, s, versionFor(ctx, s, params.versionId));
  },

  getOpenAPISpecVersionContent: (ctx, { params }) => {
    const s = specFor(ctx, params.organizationId, params.specSlug);
    return contentView(ctx, s, versionFor(ctx, s, params.versionId));
  },
};

export const family = defineFamily({ ops, handlers, onStateImport: resumeProcessing });
