/**
 * Sites: spaces published to an audience, organized in site spaces, site sections and section
 * groups; the published-site profile; the adaptive-content schema and its template conditions.
 */
import { z } from 'zod';
import { DefaultLevel, defineOp, id, listOf, pageQuery, pathId, pathText, Permissions, positionOf, qBool, Timestamp, Urls } from './op.js';
import { LANGUAGES, Space } from './spaces.js';

/** The official document's SiteType (create default `basic`: the seed's). */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;

/** The official document's SiteProxyOrigin: a host plus a path (max 512 characters). */
export const PROXY_PATTERN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

export const siteTitle = z.string().min(2).max(128);
export const siteBasename = z.string().min(1).max(100);
// The length is checked first and stops the pattern from running on a long input.
export const siteProxy = z.string().max(512, { abort: true }).regex(PROXY_PATTERN);
/** SiteSectionPath and SiteSpacePath: any text of 1 to 100 characters (URLs carry it encoded). */
export const sitePath = z.string().min(1).max(100);
/** SiteSectionTitle. */
export const sectionTitle = z.string().min(2).max(128);
/** SiteSectionGroupTitle. */
export const groupTitle = z.string().min(1).max(100);
/** Icon: the name of an icon, at most 50 characters. */
export const iconName = z.string().max(50);
/** Expression: a condition deciding whether a visitor sees an item (0 to 1024 characters; the sandbox does not evaluate it). */
export const condition = z.string().max(1024);
/** SiteSectionDescription. */
export const sectionDescription = z.string().max(256);
export const shareKey = z.string().min(1);
/** LocalizedString128 / LocalizedString256: overrides for languages other than the default one. */
export const localized128 = z.partialRecord(z.enum(LANGUAGES), z.string().max(128));
export const localized256 = z.partialRecord(z.enum(LANGUAGES), z.string().max(256));
export type Localized = Partial<Record<(typeof LANGUAGES)[number], string>>;

/** The official document's SiteFeatureKey. */
export const SITE_FEATURES = [
  'sites-adaptive-content',
  'sites-advanced-customization',
  'sites-advanced-insights',
  'sites-ads',
  'sites-ai-search',
  'sites-ai-assistant',
  'sites-ai-insights',
  'sites-fix-broken-links',
  'sites-connections',
  'sites-content-gaps',
  'sites-channels',
  'sites-embed',
  'sites-api-playground',
  'sites-basic-customization',
  'sites-broken-links',
  'sites-custom-domain',
  'sites-custom-fonts',
  'sites-custom-subdirectory',
  'sites-full-text-search',
  'sites-multivariant-site',
  'sites-no-custom-domain',
  'sites-page-feedback',
  'sites-page-traffic-insights',
  'sites-pdf-export',
  'sites-preview-deployments',
  'sites-public-visibility',
  'sites-redirects',
  'sites-search-insights',
  'sites-sections',
  'sites-seo',
  'sites-share-links',
  'sites-unlisted-visibility',
  'sites-user-contribution',
  'sites-visitor-authentication',
  'sites-visitors',
] as const;
export type SiteFeatureKey = (typeof SITE_FEATURES)[number];

export const SiteFeature = z.lazy(() =>
  z.object({
    id: z.enum(SITE_FEATURES),
    plan: z.enum(SITE_TYPES),
    frozen: z.boolean(),
    customizations: z.array(z.string()).optional(),
  }),
);
export type SiteFeature = z.infer<typeof SiteFeature>;

export const Site = z.lazy(() =>
  z.object({
    object: z.literal('site'),
    id: z.string(),
    type: z.enum(SITE_TYPES),
    /** The type in force (the official document: a frozen site's is basic; the sandbox freezes no site). */
    appliedType: z.enum(SITE_TYPES),
    title: z.string(),
    basename: z.string().optional(),
    proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
    visibility: z.enum(SITE_VISIBILITIES),
    defaultLevel: DefaultLevel,
    /** The caller's: view, access, edit, create, admin, installIntegration, viewAdaptiveSchema, editAdaptiveSchema. */
    permissions: Permissions,
    published: z.boolean(),
    siteSpaces: z.number(),
    createdAt: Timestamp,
    adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
    /** The seed's; not in the official document, so a service may leave it out. */
    agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
    features: z.array(SiteFeature),
    urls: Urls,
  }),
);
export type Site = z.infer<typeof Site>;

/**
 * The official document's other answer to a publish (200 too): the organization's plan needs an
 * upgrade, paid through this (Stripe) checkout session; the site is not published. The sandbox has no
 * billing and never sends it.
 */
export const PublishCheckout = z.object({ type: z.literal('checkout'), sessionId: z.string() });
export type PublishCheckout = z.infer<typeof PublishCheckout>;
export const PublishAnswer = z.union([Site, PublishCheckout]);

/** Whether a publish answered a checkout (the site was not published) rather than the Site. */
export function isCheckout(answer: Site | PublishCheckout): answer is PublishCheckout {
  return (answer as { type?: unknown }).type === 'checkout';
}

export const SiteSpace = z.lazy(() =>
  z.object({
    object: z.literal('site-space'),
    id: z.string(),
    path: z.string(),
    /** The section it belongs to; absent for a site space of a site without sections. */
    section: z.string().optional(),
    space: Space,
    title: z.string(),
    default: z.boolean(),
    condition: z.string().optional(),
    /** The page shown at its root instead of the space's first page. */
    pageId: z.string().nullable().optional(),
    /** Not live: visitors do not see it (see docs/sites.md, Drafts). */
    draft: z.boolean(),
    hasAdvancedCustomizationFeature: z.boolean(),
    urls: Urls,
    hidden: z.boolean(),
  }),
);
export type SiteSpace = z.infer<typeof SiteSpace>;

export const SiteSection = z.lazy(() =>
  z.object({
    object: z.literal('site-section'),
    id: z.string(),
    title: z.string(),
    localizedTitle: z.record(z.string(), z.string()).optional(),
    description: z.string().optional(),
    localizedDescription: z.record(z.string(), z.string()).optional(),
    default: z.boolean(),
    draft: z.boolean(),
    path: z.string(),
    condition: z.string().optional(),
    sectionGroup: z.string().optional(),
    siteSpaces: z.array(SiteSpace),
    urls: Urls,
    icon: z.string().optional(),
  }),
);
export type SiteSection = z.infer<typeof SiteSection>;

/** A group's children are its sections and the groups nested in it, in their order; `sections` only its sections. */
export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  localizedTitle?: Record<string, string>;
  sections: SiteSection[];
  sectionGroup?: string;
  draft: boolean;
  children: (SiteSection | SiteSectionGroup)[];
  icon?: string;
}
export const SiteSectionGroup: z.ZodType<SiteSectionGroup> = z.object({
  object: z.literal('site-section-group'),
  id: z.string(),
  title: z.string(),
  localizedTitle: z.record(z.string(), z.string()).optional(),
  get sections() {
    return z.array(SiteSection);
  },
  sectionGroup: z.string().optional(),
  draft: z.boolean(),
  get children() {
    return z.array(z.union([SiteSection, SiteSectionGroup]));
  },
  icon: z.string().optional(),
});

/** The structure of a published site: its sections and groups, or its site spaces when it has no sections. */
export const PublishedStructure = z.lazy(() =>
  z.union([
    z.object({ type: z.literal('sections'), structure: z.array(z.union([SiteSection, SiteSectionGroup])) }),
    z.object({ type: z.literal('siteSpaces'), structure: z.array(SiteSpace) }),
  ]),
);
export type PublishedStructure = z.infer<typeof PublishedStructure>;

/** The official document's SiteIntegrationScript. */
export const SiteIntegrationScript = z.lazy(() =>
  z.object({
    script: z.string(),
    contentSecurityPolicy: z.string().optional(),
    cookies: z.boolean(),
  }),
);

export const PublishedSite = z.lazy(() =>
  z.object({
    object: z.literal('published-content-site'),
    site: Site,
    structure: PublishedStructure,
    /** SiteCustomizationSettings of the site, and the overrides of its site spaces by id. */
    customizations: z.object({
      site: z.record(z.string(), z.unknown()),
      siteSpaces: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
    scripts: z.array(SiteIntegrationScript),
  }),
);
export type PublishedSite = z.infer<typeof PublishedSite>;

// ---------------------------------------------------------------------------------------------
// Adaptive content: the official document's SiteAdaptiveJSONSchema, a JSON Schema draft-07 object
// of visitor claims. Claims are booleans, strings (with or without an enumeration), numbers, arrays
// of those, or objects of further claims; every claim has a description and closes its objects.

export const ADAPTIVE_SCHEMA_URI = 'http://json-schema.org/draft-07/schema#';
/** The only description the document allows on `properties.unsigned`. */
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

const BooleanClaim = z.strictObject({ type: z.literal('boolean'), description: z.string() });
/** A string claim; with `enum` its values are known (a deterministic claim). */
const StringClaim = z.strictObject({ type: z.literal('string'), enum: z.array(z.string()).optional(), description: z.string() });
const NumberClaim = z.strictObject({ type: z.literal('number'), description: z.string() });
const PrimitiveClaim = z.discriminatedUnion('type', [BooleanClaim, StringClaim, NumberClaim]);
const ArrayClaim = z.strictObject({ type: z.literal('array'), description: z.string(), items: PrimitiveClaim });

export type PrimitiveClaim = z.infer<typeof PrimitiveClaim>;
export type Claim =
  | PrimitiveClaim
  | z.infer<typeof ArrayClaim>
  | { type: 'object'; description: string; properties: Record<string, Claim>; additionalProperties: false };

const ObjectClaim = z.strictObject({
  type: z.literal('object'),
  description: z.string(),
  get properties(): z.ZodRecord<z.ZodString, z.ZodType<Claim>> {
    return z.record(z.string(), Claim);
  },
  additionalProperties: z.literal(false),
});
export const Claim: z.ZodType<Claim> = z.discriminatedUnion('type', [BooleanClaim, StringClaim, NumberClaim, ArrayClaim, ObjectClaim]);

/** `properties.unsigned`: the claims a visitor brings unsigned (keywords beyond these are kept as given). */
const UnsignedClaims = z.looseObject({
  type: z.literal('object'),
  description: z.literal(UNSIGNED_DESCRIPTION),
  properties: z.record(z.string(), Claim),
  additionalProperties: z.literal(false),
});

/**
 * The schema of the claims an adaptive-content visitor brings: `properties.unsigned` (optional) holds
 * the unsigned claims; further properties are signed claims.
 */
export const AdaptiveJsonSchema = z.strictObject({
  $schema: z.literal(ADAPTIVE_SCHEMA_URI).optional(),
  type: z.literal('object'),
  properties: z.object({ unsigned: UnsignedClaims.optional() }).catchall(Claim),
  additionalProperties: z.literal(false),
});
export type AdaptiveJsonSchema = z.infer<typeof AdaptiveJsonSchema>;

export const SiteAdaptiveSchema = z.lazy(() =>
  z.object({
    object: z.literal('site-adaptive-schema'),
    jsonSchema: z.record(z.string(), z.unknown()),
    updatedAt: Timestamp,
  }),
);
export type SiteAdaptiveSchema = z.infer<typeof SiteAdaptiveSchema>;

export const TemplateCondition = z.lazy(() => z.object({ description: z.string(), condition: z.string() }));
export type TemplateCondition = z.infer<typeof TemplateCondition>;

// ---------------------------------------------------------------------------------------------
// Requests

const org = z.object({ organizationId: pathId() });
const site = org.extend({ siteId: pathText() });
const section = site.extend({ siteSectionId: pathText() });
const group = site.extend({ siteSectionGroupId: pathText() });
const groupSection = group.extend({ siteSectionId: pathText() });
const siteSpace = site.extend({ siteSpaceId: pathText() });

/**
 * The official document's ApplySpaceTemplate: the template of a space created with `spaceId: null`.
 * Its catalog is the service's (the sandbox names the known ones); `params.contentRefs` refer to
 * content of the new space (the sandbox's new space has none to refer to).
 */
export const SpaceTemplate = z.looseObject({
  id: z.string(),
  params: z.looseObject({ contentRefs: z.record(z.string(), z.looseObject({ kind: z.string() })).optional() }).optional(),
});

export const CreateSiteBody = z.strictObject({
  type: z.enum(SITE_TYPES).optional(),
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  spaces: z.array(id()).optional(),
});
export const UpdateSiteBody = z.strictObject({
  title: siteTitle.optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  basename: siteBasename.optional(),
  adaptiveContent: z.strictObject({ enabled: z.boolean() }).optional(),
  /** The level every member of the organization has on the site at least (`inherit`, null: their own role). */
  defaultLevel: DefaultLevel.optional(),
  /** The seed's (the official document's body does not list it). */
  agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
  defaultSiteSpace: id().optional(),
  defaultSiteSection: id().optional(),
  proxy: siteProxy.nullable().optional(),
  /** A style guide space to attach, or null: the sandbox has no style guides (a space id is a 400). */
  styleguide: z.string().nullable().optional(),
});

export const CreateSectionBody = z.strictObject({
  /** An existing space, or null to create a new one (titled `title`, built from `template`). */
  spaceId: id().nullable(),
  template: SpaceTemplate.optional(),
  /** null: as if omitted (the space's title). */
  title: sectionTitle.nullable().optional(),
  /** null: no icon. */
  icon: iconName.nullable().optional(),
  draft: z.boolean().optional(),
  pageId: id().optional(),
  siteSectionGroupId: pathText().optional(),
});
export const UpdateSectionBody = z.strictObject({
  title: sectionTitle.optional(),
  localizedTitle: localized128.optional(),
  path: sitePath.optional(),
  defaultSiteSpace: id().optional(),
  condition: condition.nullable().optional(),
  icon: iconName.nullable().optional(),
  draft: z.boolean().optional(),
  description: sectionDescription.nullable().optional(),
  localizedDescription: localized256.optional(),
  /** The group to move it into (at its end), or null for the site's root. */
  siteSectionGroupId: pathText().nullable().optional(),
});
/**
 * The anchors are sections (the sandbox also takes a section group's id, type still `site-section`);
 * no position moves it to the end of the site's root.
 */
export const MoveSectionBody = z.strictObject({ position: positionOf(['site-section', 'siteSection']).optional() });

export const CreateGroupBody = z.strictObject({
  title: groupTitle,
  icon: iconName.nullable().optional(),
  sections: z.array(id()).optional(),
  parent: id().optional(),
  draft: z.boolean().optional(),
});
export const UpdateGroupBody = z.strictObject({
  title: groupTitle.optional(),
  localizedTitle: localized128.optional(),
  icon: iconName.nullable().optional(),
  draft: z.boolean().optional(),
  /** The group to move it into (at its end), or null for the site's root. */
  parentSectionGroupId: id().nullable().optional(),
});
export const AddGroupSectionBody = z.strictObject({ sectionId: id() });
/** The anchors are sections or groups, each `{type, id}`; no position moves it to the end of the site's root. */
export const MoveGroupBody = z.strictObject({ position: positionOf(['site-section', 'id'], ['site-section-group', 'id']).optional() });

export const CreateSiteSpaceBody = z.strictObject({
  /** An existing space, or null to create a new one (titled `title`, built from `template`). */
  spaceId: id().nullable(),
  template: SpaceTemplate.optional(),
  sectionId: id().optional(),
  draft: z.boolean().optional(),
  pageId: id().nullable().optional(),
  /** The site space's own title (default: its space's). */
  title: siteTitle.optional(),
});
export const UpdateSiteSpaceBody = z.strictObject({
  path: sitePath.optional(),
  condition: condition.nullable().optional(),
  /** Omitted: unchanged, unless `spaceId` changes (then removed); null: removed. */
  pageId: id().nullable().optional(),
  spaceId: id().optional(),
  hidden: z.boolean().optional(),
  draft: z.boolean().optional(),
});
/** No position moves it to the end of its own list (its section's, or the site's). */
export const MoveSiteSpaceBody = z.strictObject({ position: positionOf(['site-space', 'siteSpace']).optional() });

export const PutAdaptiveSchemaBody = z.strictObject({ jsonSchema: AdaptiveJsonSchema });

/** `type` of the sites list: site types, as a repeated parameter (`type=basic&type=premium`). */
const typeList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(SITE_TYPES)));

const keyQuery = { shareKey: shareKey.optional() };

export const ops = {
  listSites: defineOp({
    id: 'listSites',
    method: 'GET',
    path: '/orgs/{organizationId}/sites',
    params: org,
    query: z.object({ ...pageQuery, space: id().optional(), title: z.string().optional(), published: qBool().optional(), type: typeList.optional() }),
    response: listOf(Site),
    paginated: true,
  }),
  createSite: defineOp({
    id: 'createSite',
    method: 'POST',
    path: '/orgs/{organizationId}/sites',
    params: org,
    body: CreateSiteBody,
    response: Site,
    status: 201,
  }),
  getSite: defineOp({ id: 'getSite', method: 'GET', path: '/orgs/{organizationId}/sites/{siteId}', params: site, response: Site }),
  updateSite: defineOp({
    id: 'updateSite',
    method: 'PATCH',
    path: '/orgs/{organizationId}/sites/{siteId}',
    params: site,
    body: UpdateSiteBody,
    response: Site,
  }),
  deleteSite: defineOp({ id: 'deleteSite', method: 'DELETE', path: '/orgs/{organizationId}/sites/{siteId}', params: site, status: 204 }),
  /** Not in the seed; the official document's (the seed does not show what toggles `published`). */
  publishSite: defineOp({
    id: 'publishSite',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/publish',
    params: site,
    response: PublishAnswer,
    status: 200,
  }),
  /** The reverse of publishSite (the official document's). */
  unpublishSite: defineOp({
    id: 'unpublishSite',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/unpublish',
    params: site,
    response: Site,
    status: 200,
  }),
  getPublishedSite: defineOp({
    id: 'getPublishedSite',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/published',
    params: site,
    query: z.object(keyQuery),
    response: PublishedSite,
    visitors: true,
  }),
  getAdaptiveSchema: defineOp({
    id: 'getAdaptiveSchema',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    params: site,
    response: SiteAdaptiveSchema,
  }),
  putAdaptiveSchema: defineOp({
    id: 'putAdaptiveSchema',
    method: 'PUT',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
    params: site,
    body: PutAdaptiveSchemaBody,
    response: SiteAdaptiveSchema,
    status: 200,
  }),
  listTemplateConditions: defineOp({
    id: 'listTemplateConditions',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions',
    params: site,
    response: z.object({ items: z.array(TemplateCondition) }),
  }),

  listSiteSections: defineOp({
    id: 'listSiteSections',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/sections',
    params: site,
    query: z.object({ ...pageQuery, ...keyQuery }),
    response: listOf(SiteSection),
    paginated: true,
    visitors: true,
  }),
  createSiteSection: defineOp({
    id: 'createSiteSection',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/sections',
    params: site,
    body: CreateSectionBody,
    response: SiteSection,
    status: 201,
  }),
  updateSiteSection: defineOp({
    id: 'updateSiteSection',
    method: 'PATCH',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    params: section,
    body: UpdateSectionBody,
    response: SiteSection,
  }),
  deleteSiteSection: defineOp({
    id: 'deleteSiteSection',
    method: 'DELETE',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
    params: section,
    status: 204,
  }),
  moveSiteSection: defineOp({
    id: 'moveSiteSection',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
    params: section,
    body: MoveSectionBody,
    response: SiteSection,
    status: 200,
  }),

  listSiteSectionGroups: defineOp({
    id: 'listSiteSectionGroups',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
    params: site,
    query: z.object(pageQuery),
    response: listOf(SiteSectionGroup),
    paginated: true,
  }),
  createSiteSectionGroup: defineOp({
    id: 'createSiteSectionGroup',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups',
    params: site,
    body: CreateGroupBody,
    response: SiteSectionGroup,
    status: 201,
  }),
  updateSiteSectionGroup: defineOp({
    id: 'updateSiteSectionGroup',
    method: 'PATCH',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
    params: group,
    body: UpdateGroupBody,
    response: SiteSectionGroup,
  }),
  deleteSiteSectionGroup: defineOp({
    id: 'deleteSiteSectionGroup',
    method: 'DELETE',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
    params: group,
    status: 204,
  }),
  addSiteSectionToGroup: defineOp({
    id: 'addSiteSectionToGroup',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
    params: group,
    body: AddGroupSectionBody,
    response: SiteSectionGroup,
    status: 200,
  }),
  removeSiteSectionFromGroup: defineOp({
    id: 'removeSiteSectionFromGroup',
    method: 'DELETE',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
    params: groupSection,
    status: 204,
  }),
  moveSiteSectionGroup: defineOp({
    id: 'moveSiteSectionGroup',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move',
    params: group,
    body: MoveGroupBody,
    response: SiteSectionGroup,
    status: 200,
  }),

  listSiteSpaces: defineOp({
    id: 'listSiteSpaces',
    method: 'GET',
    path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
    params: site,
    query: z.object({ ...pageQuery, ...keyQuery, default: qBool().optional() }),
    response: listOf(SiteSpace),
    paginated: true,
    visitors: true,
  }),
  createSiteSpace: defineOp({
    id: 'createSiteSpace',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/site-spaces',
    params: site,
    body: CreateSiteSpaceBody,
    response: SiteSpace,
    status: 201,
  }),
  updateSiteSpace: defineOp({
    id: 'updateSiteSpace',
    method: 'PATCH',
    path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
    params: siteSpace,
    body: UpdateSiteSpaceBody,
    response: SiteSpace,
  }),
  deleteSiteSpace: defineOp({
    id: 'deleteSiteSpace',
    method: 'DELETE',
    path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
    params: siteSpace,
    status: 204,
  }),
  moveSiteSpace: defineOp({
    id: 'moveSiteSpace',
    method: 'POST',
    path: '/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move',
    params: siteSpace,
    body: MoveSiteSpaceBody,
    response: SiteSpace,
    status: 200,
  }),
};
