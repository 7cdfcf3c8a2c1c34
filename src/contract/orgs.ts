/** Users, organizations and teams: what login, status and every family need. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, Permissions, Role, Timestamp, Urls } from './op.js';

export const User = z.lazy(() => z.object({
  object: z.literal('user'),
  id: z.string(),
  displayName: z.string(),
  email: z.string().optional(),
  photoURL: z.string().optional(),
  urls: z.object({ location: z.string() }),
}));
export type User = z.infer<typeof User>;

export const Organization = z.lazy(() => z.object({
  object: z.literal('organization'),
  id: z.string(),
  title: z.string(),
  createdAt: Timestamp,
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: z.string(),
  useCase: z.string().optional(),
  defaultRole: Role,
  sso: z.boolean(),
  ai: z.boolean(),
  inviteLinks: z.boolean(),
  plan: z.string(),
  urls: Urls,
  permissions: Permissions,
}));
export type Organization = z.infer<typeof Organization>;

export const Team = z.lazy(() => z.object({
  object: z.literal('team'),
  id: z.string(),
  title: z.string(),
  members: z.number(),
  spaces: z.number(),
  createdAt: Timestamp,
  permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
}));
export type Team = z.infer<typeof Team>;

const org = z.object({ organizationId: pathId() });

export const ops = {
  getAuthenticatedUser: defineOp({ id: 'getAuthenticatedUser', method: 'GET', path: '/user', response: User }),
  listOrganizations: defineOp({
    id: 'listOrganizations', method: 'GET', path: '/orgs',
    query: z.object(pageQuery), response: listOf(Organization), paginated: true,
  }),
  getOrganization: defineOp({
    id: 'getOrganization', method: 'GET', path: '/orgs/{organizationId}', params: org, response: Organization,
  }),
  listTeams: defineOp({
    id: 'listTeams', method: 'GET', path: '/orgs/{organizationId}/teams',
    params: org, query: z.object(pageQuery), response: listOf(Team), paginated: true,
  }),
};
