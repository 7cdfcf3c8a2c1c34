/** Users, organizations and teams: what login, status and every family need. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, Permissions, Role, Timestamp } from './op.js';
import { MergeRule } from './spaces.js';

/** An absolute URI of at most `max` characters (the official document's `format: uri`): a scheme, then more. */
export function uri(max: number) {
  return z
    .string()
    .max(max)
    .refine((v) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(v) && URL.canParse(v), { message: 'must be an absolute URI such as https://example.com/…' });
}

export const User = z.lazy(() =>
  z.object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string().optional(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
  }),
);
export type User = z.infer<typeof User>;

/** The billing trial states of the official document. */
export const TRIAL_STATUSES = ['notapplicable', 'none', 'active', 'ended', 'expired'] as const;

/**
 * An organization's merge rules (the official document's MergeRulesStandaloneConfiguration): a list
 * of rules, or none. Its spaces whose `mergeRules` are `{type: inherit}` follow them.
 */
export const OrganizationMergeRules = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rules'), rules: z.array(MergeRule) }),
  z.object({ type: z.literal('none') }),
]) as unknown as z.ZodType<OrganizationMergeRules>;
export type OrganizationMergeRules = { type: 'rules'; rules: MergeRule[] } | { type: 'none' };

export const Organization = z.lazy(() =>
  z.object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: Timestamp,
    emailDomains: z.array(z.string()),
    hostname: z.string().optional(),
    type: z.enum(['business', 'community']),
    useCase: z.string().optional(),
    /** The role new members get (null: guests). */
    defaultRole: Role.nullable(),
    /** What visitors of the organization's address land on. */
    defaultContent: z.object({ type: z.literal('site'), site: z.string() }).optional(),
    /** Whether single sign-on is enforced organization-wide. */
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    mergeRules: z.lazy(() => OrganizationMergeRules),
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
    trial: z.object({ status: z.enum(TRIAL_STATUSES), count: z.number(), endDate: Timestamp.optional() }),
    permissions: Permissions,
  }),
);
export type Organization = z.infer<typeof Organization>;

export const Team = z.lazy(() =>
  z.object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number(),
    spaces: z.number(),
    createdAt: Timestamp,
    permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
  }),
);
export type Team = z.infer<typeof Team>;

/** The official document's OrganizationTitle: 2 to 255 characters, with text (not only blank space). */
export const orgTitle = z
  .string()
  .min(2)
  .max(255)
  .regex(/\S.*\S/);

/** What an admin changes on an organization; every field is optional (an empty update changes nothing). */
export const UpdateOrganizationBody = z.strictObject({
  title: orgTitle.optional(),
  emailDomains: z.array(z.string()).optional(),
  /** The organization's address on the service (3 to 32 characters). */
  hostname: z.string().min(3).max(32).optional(),
  defaultRole: Role.nullable().optional(),
  /** The site visitors land on; null removes it. */
  defaultContent: z
    .strictObject({ type: z.literal('site'), site: z.string() })
    .nullable()
    .optional(),
  /** The logo's URL; null removes it. */
  logo: uri(2048).nullable().optional(),
  /** Enforce single sign-on (needs an active SAML provider). */
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: OrganizationMergeRules.optional(),
});
export type UpdateOrganizationBody = z.output<typeof UpdateOrganizationBody>;

const org = z.object({ organizationId: pathId() });

export const ops = {
  getAuthenticatedUser: defineOp({ id: 'getAuthenticatedUser', method: 'GET', path: '/user', response: User, cacheable: true }),
  listOrganizations: defineOp({
    id: 'listOrganizations',
    method: 'GET',
    path: '/orgs',
    query: z.object(pageQuery),
    response: listOf(Organization),
    paginated: true,
  }),
  getOrganization: defineOp({
    id: 'getOrganization',
    method: 'GET',
    path: '/orgs/{organizationId}',
    params: org,
    response: Organization,
    cacheable: true,
  }),
  updateOrganization: defineOp({
    id: 'updateOrganization',
    method: 'PATCH',
    path: '/orgs/{organizationId}',
    params: org,
    body: UpdateOrganizationBody,
    response: Organization,
  }),
};
