/**
 * Sites: spaces published to an audience, organized in site spaces, site sections and section
 * groups; the published-site profile; the adaptive-content schema and its template conditions.
 */
import { z } from 'zod';
import { defineOp, id, listOf, pageQuery, pathId, positionOf, qBool, Timestamp, Urls } from './op.js';
import { Space } from './spaces.js';

export const SITE_TYPES = ['basic', 'premium', 'ultimate'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;

/** service-api.md, Site: the custom hostname's pattern (max 512 characters). */
export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
/** service-api.md, Sites PATCH: the proxy's pattern, a host plus a path (max 512 characters). */
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** Our choice (the spec shows none): a path segment of a section or site space URL. */
export const SITE_PATH_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Our choice: icon names such as `gear` or `book-open`. */
export const ICON_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Our choice: claim names usable in a condition expression (`visitor.claims.unsigned.<name>`). */
export const CLAIM_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const siteTitle = z.string().min(2).max(128);
export const siteBasename = z.string().min(1).max(100);
// The length is checked first and stops the pattern from running on a long input.
export const siteHostname = z.string().max(512, { abort: true }).regex(HOSTNAME_PATTERN);
export const siteProxy = z.string().max(512, { abort: true }).regex(PROXY_PATTERN);
export const sitePath = z.string().min(1).max(100, { abort: true }).regex(SITE_PATH_PATTERN);
export const structureTitle = z.string().min(1).max(128);
export const iconName = z.string().min(1).max(64, { abort: true }).regex(ICON_PATTERN);
export const condition = z.string().min(1).max(1000);
export const sectionDescription = z.string().max(500);
export const shareKey = z.string().min(1).max(256);

export const Site = z.lazy(() => z.object({
  object: z.literal('site'),
  id: z.string(),
  type: z.enum(SITE_TYPES),
  title: z.string(),
  hostname: z.string().optional(),
  basename: z.string().optional(),
  proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
  visibility: z.enum(SITE_VISIBILITIES),
  published: z.boolean(),
  siteSpaces: z.number(),
  createdAt: Timestamp,
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  agentsContext: z.enum(AGENTS_CONTEXTS),
  urls: Urls,
}));
export type Site = z.infer<typeof Site>;

export const SiteSpace = z.lazy(() => z.object({
  object: z.literal('site-space'),
  id: z.string(),
  path: z.string(),
  /** The section it belongs to; absent for a site space of a site without sections. */
  section: z.string().optional(),
  space: Space,
  title: z.string(),
  default: z.boolean(),
  condition: z.string().optional(),
  hasAdvancedCustomizationFeature: z.boolean(),
  urls: Urls,
  hidden: z.boolean(),
}));
export type SiteSpace = z.infer<typeof SiteSpace>;

export const SiteSection = z.lazy(() => z.object({
  object: z.literal('site-section'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  default: z.boolean(),
  path: z.string(),
  condition: z.string().optional(),
  sectionGroup: z.string().optional(),
  siteSpaces: z.array(SiteSpace),
  urls: Urls,
  icon: z.string().optional(),
}));
export type SiteSection = z.infer<typeof SiteSection>;

/** A group's children are its sections and the groups nested in it, in their order. */
export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  sectionGroup?: string;
  children: (SiteSection | SiteSectionGroup)[];
  icon?: string;
}
export const SiteSectionGroup: z.ZodType<SiteSectionGroup> = z.object({
  object: z.literal('site-section-group'),
  id: z.string(),
  title: z.string(),
  sectionGroup: z.string().optional(),
  get children() {
    return z.array(z.union([SiteSection, SiteSectionGroup]));
  },
  icon: z.string().optional(),
});

/** The structure of a published site: its sections and groups, or its site spaces when it has no sections. */
export const PublishedStructure = z.lazy(() => z.union([
  z.object({ type: z.literal('sections'), structure: z.array(z.union([SiteSection, SiteSectionGroup])) }),
  z.object({ type: z.literal('siteSpaces'), structure: z.array(SiteSpace) }),
]));
export type PublishedStructure = z.infer<typeof PublishedStructure>;

export const PublishedSite = z.lazy(() => z.object({
  object: z.literal('published-content-site'),
  site: Site,
  structure: PublishedStructure,
}));
export type PublishedSite = z.infer<typeof PublishedSite>;

// ---------------------------------------------------------------------------------------------
// Adaptive content: a JSON Schema draft-07 object of boolean claims.

export const DRAFT_07_URIS = [
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-07/schema#',
  'https://json-schema.org/draft-07/schema',
] as const;
export const MAX_CLAIMS = 100;

const BooleanClaim = z.looseObject({
  type: z.literal('boolean'),
  description: z.string().max(500).optional(),
});

/** Claim names must be identifiers, so that a condition can name them. */
function checkClaimNames(claims: Record<string, unknown>, ctx: z.RefinementCtx, skip?: string): void {
  const names = Object.keys(claims).filter((k) => k !== skip);
  if (names.length > MAX_CLAIMS) ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_CLAIMS} claims` });
  for (const name of names) {
    if (!CLAIM_NAME_PATTERN.test(name)) {
      ctx.addIssue({ code: 'custom', path: [name], message: `claim names must match the pattern ${CLAIM_NAME_PATTERN}` });
    }
  }
}

const UnsignedClaims = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), BooleanClaim).superRefine((claims, ctx) => checkClaimNames(claims, ctx)),
  additionalProperties: z.literal(false),
});

/**
 * The schema of the claims an adaptive-content visitor brings: `properties.unsigned` is an object
 * of boolean claims closed by `additionalProperties: false`; further properties are boolean
 * (signed) claims. Keywords beyond these are kept as given.
 */
export const AdaptiveJsonSchema = z.looseObject({
  $schema: z.enum(DRAFT_07_URIS).optional(),
  type: z.literal('object'),
  properties: z
    .object({ unsigned: UnsignedClaims })
    .catchall(BooleanClaim)
    .superRefine((props, ctx) => checkClaimNames(props, ctx, 'unsigned')),
  required: z.array(z.string()).optional(),
  additionalProperties: z.boolean().optional(),
});
export type AdaptiveJsonSchema = z.infer<typeof AdaptiveJsonSchema>;

export const SiteAdaptiveSchema = z.lazy(() => z.object({
  object: z.literal('site-adaptive-schema'),
  jsonSchema: z.record(z.string(), z.unknown()),
  updatedAt: Timestamp,
}));
export type SiteAdaptiveSchema = z.infer<typeof SiteAdaptiveSchema>;

export const TemplateCondition = z.lazy(() => z.object({ description: z.string(), condition: z.string() }));
export type TemplateCondition = z.infer<typeof TemplateCondition>;

// ---------------------------------------------------------------------------------------------
// Requests

const org = z.object({ organizationId: pathId() });
const site = org.extend({ siteId: pathId() });
const section = site.extend({ siteSectionId: pathId() });
const group = site.extend({ siteSectionGroupId: pathId() });
const groupSection = group.extend({ siteSectionId: pathId() });
const siteSpace = site.extend({ siteSpaceId: pathId() });

export const CreateSiteBody = z.strictObject({
  type: z.enum(SITE_TYPES).optional(),
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  spaces: z.array(id()).max(100).optional(),
});
export const UpdateSiteBody = z.strictObject({
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  /** null removes it (sandbox: the spec shows only the string). */
  basename: siteBasename.nullable().optional(),
  /** Sandbox extension: the Site's hostname field, settable here; null removes it. */
  hostname: siteHostname.nullable().optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
  defaultSiteSpace: id().optional(),
  defaultSiteSection: id().optional(),
  proxy: siteProxy.nullable().optional(),
});

export const CreateSectionBody = z.strictObject({
  spaceId: id(),
  title: structureTitle.optional(),
  icon: iconName.optional(),
});
export const UpdateSectionBody = z.strictObject({
  title: structureTitle.optional(),
  path: sitePath.optional(),
  defaultSiteSpace: id().optional(),
  condition: condition.nullable().optional(),
  icon: iconName.nullable().optional(),
  description: sectionDescription.nullable().optional(),
});
/** The anchor may be a section or a section group of the same site (the type stays `site-section`). */
export const MoveSectionBody = z.strictObject({ position: positionOf(['site-section', 'siteSection']) });

export const CreateGroupBody = z.strictObject({
  title: structureTitle.optional(),
  icon: iconName.optional(),
  sections: z.array(id()).max(100).optional(),
  parent: id().optional(),
});
export const UpdateGroupBody = z.strictObject({
  title: structureTitle.optional(),
  icon: iconName.nullable().optional(),
});
export const AddGroupSectionBody = z.strictObject({ sectionId: id() });
/** As the spec shows it: `{type: 'site-section', id}`; the id is a section or a group of the site. */
export const MoveGroupBody = z.strictObject({ position: positionOf(['site-section', 'id']) });

export const CreateSiteSpaceBody = z.strictObject({
  spaceId: id(),
  sectionId: id().optional(),
});
export const UpdateSiteSpaceBody = z.strictObject({
  path: sitePath.optional(),
  condition: condition.nullable().optional(),
  spaceId: id().optional(),
  hidden: z.boolean().optional(),
});
export const MoveSiteSpaceBody = z.strictObject({ position: positionOf(['site-space', 'siteSpace']) });

export const PutAdaptiveSchemaBody = z.strictObject({ jsonSchema: AdaptiveJsonSchema });

const keyQuery = { shareKey: shareKey.optional() };

export const ops = {
  listSites: defineOp({
    id: 'listSites', method: 'GET', path: '/orgs/{organizationId}/sites', params: org,
    query: z.object({ ...pageQuery, space: id().optional(), title: z.string().max(128).optional(), published: qBool().optional() }),
    response: listOf(Site), paginated: true,
  }),
  createSite: defineOp({
    id: 'createSite', method: 'POST', path: '/orgs/{organizationId}/sites',
    params: org, body: CreateSiteBody, response: Site, status: 201,
  }),
  getSite: defineOp({ id: 'getSite', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}', params: site, response: Site }),
  updateSite: defineOp({
    id: 'updateSite', method: 'PATCH', path: '/orgs/{organizationId}/sites/{siteId}',
    params: site, body: UpdateSiteBody, response: Site,
  }),
  deleteSite: defineOp({ id: 'deleteSite', method: 'DELETE', path: '/orgs/{organizationId}/sites/{siteId}', params: site, status: 204 }),
  /** Sandbox extension: the spec does not show what toggles `published`. */
  publishSite: defineOp({
    id: 'publishSite', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/publish', params: site, response: Site, status: 200,
  }),
  /** Sandbox extension, the reverse of publishSite. */
  unpublishSite: defineOp({
    id: 'unpublishSite', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/unpublish', params: site, response: Site, status: 200,
  }),
  getPublishedSite: defineOp({
    id: 'getPublishedSite', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/published',
    params: site, query: z.object(keyQuery), response: PublishedSite,
  }),
  getAdaptiveSchema: defineOp({
    id: 'getAdaptiveSchema', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    params: site, response: SiteAdaptiveSchema,
  }),
  putAdaptiveSchema: defineOp({
    id: 'putAdaptiveSchema', method: 'PUT', path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    params: site, body: PutAdaptiveSchemaBody, response: SiteAdaptiveSchema, status: 200,
  }),
  listTemplateConditions: defineOp({
    id: 'listTemplateConditions', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
    params: site, response: z.object({ items: z.array(TemplateCondition) }),
  }),

  listSiteSections: defineOp({
    id: 'listSiteSections', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/sections',
    params: site, query: z.object({ ...pageQuery, ...keyQuery }), response: listOf(SiteSection), paginated: true,
  }),
  createSiteSection: defineOp({
    id: 'createSiteSection', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/sections',
    params: site, body: CreateSectionBody, response: SiteSection, status: 201,
  }),
  updateSiteSection: defineOp({
    id: 'updateSiteSection', method: 'PATCH', path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    params: section, body: UpdateSectionBody, response: SiteSection,
  }),
  deleteSiteSection: defineOp({
    id: 'deleteSiteSection', method: 'DELETE', path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    params: section, status: 204,
  }),
  moveSiteSection: defineOp({
    id: 'moveSiteSection', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
    params: section, body: MoveSectionBody, response: SiteSection, status: 200,
  }),

  listSiteSectionGroups: defineOp({
    id: 'listSiteSectionGroups', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
    params: site, query: z.object(pageQuery), response: listOf(SiteSectionGroup), paginated: true,
  }),
  createSiteSectionGroup: defineOp({
    id: 'createSiteSectionGroup', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
    params: site, body: CreateGroupBody, response: SiteSectionGroup, status: 201,
  }),
  updateSiteSectionGroup: defineOp({
    id: 'updateSiteSectionGroup', method: 'PATCH', path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
    params: group, body: UpdateGroupBody, response: SiteSectionGroup,
  }),
  deleteSiteSectionGroup: defineOp({
    id: 'deleteSiteSectionGroup', method: 'DELETE', path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
    params: group, status: 204,
  }),
  addSiteSectionToGroup: defineOp({
    id: 'addSiteSectionToGroup', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
    params: group, body: AddGroupSectionBody, response: SiteSectionGroup, status: 200,
  }),
  removeSiteSectionFromGroup: defineOp({
    id: 'removeSiteSectionFromGroup', method: 'DELETE',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
    params: groupSection, status: 204,
  }),
  moveSiteSectionGroup: defineOp({
    id: 'moveSiteSectionGroup', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move',
    params: group, body: MoveGroupBody, response: SiteSectionGroup, status: 200,
  }),

  listSiteSpaces: defineOp({
    id: 'listSiteSpaces', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
    params: site, query: z.object({ ...pageQuery, ...keyQuery, default: qBool().optional() }),
    response: listOf(SiteSpace), paginated: true,
  }),
  createSiteSpace: defineOp({
    id: 'createSiteSpace', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
    params: site, body: CreateSiteSpaceBody, response: SiteSpace, status: 201,
  }),
  updateSiteSpace: defineOp({
    id: 'updateSiteSpace', method: 'PATCH', path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
    params: siteSpace, body: UpdateSiteSpaceBody, response: SiteSpace,
  }),
  deleteSiteSpace: defineOp({
    id: 'deleteSiteSpace', method: 'DELETE', path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
    params: siteSpace, status: 204,
  }),
  moveSiteSpace: defineOp({
    id: 'moveSiteSpace', method: 'POST', path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move',
    params: siteSpace, body: MoveSiteSpaceBody, response: SiteSpace, status: 200,
  }),
};
