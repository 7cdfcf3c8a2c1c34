/**
 * Permission grants on spaces, collections and sites: who has been given a role on a piece of content
 * (a user or a team), and who can reach it in the end (the aggregate). The official document's
 * operations, under `…/permissions`; the meaning of a grant is docs/access.md's (Permissions).
 *
 * A grant's role is a member role; `null` where the official document allows it (MemberRoleOrGuest)
 * takes the grant away (docs/compatibility.md, Permission grants).
 */
import { z } from 'zod';
import { MEMBER_ROLES, MEMBER_SORTS, ORDERS } from './members.js';
import { defineOp, id, listOf, pageQuery, pathId, pathText, Role, Timestamp } from './op.js';
import { Team, User } from './orgs.js';

/** A user's permission on a space or collection (the official document's UserContentPermission). */
export const UserContentPermission = z.lazy(() => z.object({ permission: Role, user: User }));

/** A team's permission on a space or collection. */
export const TeamContentPermission = z.lazy(() => z.object({ permission: Role, team: Team }));

/** A user's override on a site (UserSitePermissionOverride). */
export const UserSitePermissionOverride = z.lazy(() => z.object({ permission: Role.nullable(), user: User }));

/** A team's override on a site (TeamSitePermissionOverride). */
export const TeamSitePermissionOverride = z.lazy(() => z.object({ permission: Role.nullable(), team: Team }));

/** Why a site gives a user their role: a space, the organization, or the site itself (a member or team grant, its default level). */
const SITE_ORIGIN_REASONS = ['member', 'team', 'default'] as const;
export const UserSitePermissionOrigin = z.union([
  z.object({ type: z.literal('space'), space: z.string() }),
  z.object({ type: z.literal('organization'), organization: z.string() }),
  z.object({ type: z.literal('site'), site: z.string(), reason: z.enum(SITE_ORIGIN_REASONS), team: z.string().optional() }),
]);

/** A user who can reach a site, with their role and where it comes from (UserSitePermission). */
export const UserSitePermission = z.lazy(() =>
  z.object({
    permission: Role.nullable(),
    user: User,
    origin: UserSitePermissionOrigin,
    disabled: z.boolean(),
    lastSeenAt: Timestamp.optional(),
  }),
);

/**
 * Who to give a role to (InviteUsersAndTeams, InviteSiteUsersAndTeams): `role` (null takes the grants
 * away), and users by id, teams by id, or both (at least one of the two lists, each not empty).
 */
export const InviteUsersAndTeams = z
  .strictObject({
    role: Role.nullable(),
    users: z.array(id()).min(1).optional(),
    teams: z.array(id()).min(1).optional(),
  })
  .refine((b) => b.users !== undefined || b.teams !== undefined, { message: 'give users or teams (or both): the ids to invite', path: ['users'] });

/** A grant's new role; left out, nothing changes; null (spaces and collections) takes the grant away. */
export const UpdateGrantBody = z.strictObject({ role: Role.nullable().optional() });
/** A site grant's new role (the official document: a member role, not null). */
export const UpdateSiteGrantBody = z.strictObject({ role: Role.optional() });

const space = { spaceId: pathId() };
const collection = { collectionId: pathId() };
const siteShape = { organizationId: pathId(), siteId: pathText() };
const site = z.object(siteShape);
const withUser = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, userId: pathText() });
const withTeam = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, teamId: pathId() });

/** The seven operations of spaces and collections, under `base` (`/spaces/{spaceId}`), named with `Name`. */
function contentOps<S extends z.ZodRawShape>(Name: string, base: string, shape: S) {
  const root = `${base}/permissions`;
  const params = z.object(shape);
  return {
    invite: defineOp({ id: `inviteTo${Name}`, method: 'POST', path: root, params, body: InviteUsersAndTeams, status: 204 }),
    listUsers: defineOp({
      id: `listUserPermissionsIn${Name}`,
      method: 'GET',
      path: `${root}/users`,
      params,
      query: z.object(pageQuery),
      response: listOf(UserContentPermission),
      paginated: true,
    }),
    updateUser: defineOp({
      id: `updateUserPermissionIn${Name}`,
      method: 'PATCH',
      path: `${root}/users/{userId}`,
      params: withUser(shape),
      body: UpdateGrantBody,
      status: 204,
    }),
    removeUser: defineOp({ id: `removeUserFrom${Name}`, method: 'DELETE', path: `${root}/users/{userId}`, params: withUser(shape), status: 204 }),
    listTeams: defineOp({
      id: `listTeamPermissionsIn${Name}`,
      method: 'GET',
      path: `${root}/teams`,
      params,
      query: z.object(pageQuery),
      response: listOf(TeamContentPermission),
      paginated: true,
    }),
    updateTeam: defineOp({
      id: `updateTeamPermissionIn${Name}`,
      method: 'PATCH',
      path: `${root}/teams/{teamId}`,
      params: withTeam(shape),
      body: UpdateGrantBody,
      status: 204,
    }),
    removeTeam: defineOp({ id: `removeTeamFrom${Name}`, method: 'DELETE', path: `${root}/teams/{teamId}`, params: withTeam(shape), status: 204 }),
    aggregate: defineOp({
      id: `listPermissionsAggregateIn${Name}`,
      method: 'GET',
      path: `${root}/aggregate`,
      params,
      query: z.object({ ...pageQuery, role: Role.optional() }),
      response: listOf(UserContentPermission),
      paginated: true,
    }),
  };
}

const spaceOps = contentOps('Space', '/spaces/{spaceId}', space);
const collectionOps = contentOps('Collection', '/collections/{collectionId}', collection);
const siteRoot = '/orgs/{organizationId}/sites/{siteId}/permissions';

export const ops = {
  inviteToSpace: spaceOps.invite,
  listUserPermissionsInSpace: spaceOps.listUsers,
  updateUserPermissionInSpace: spaceOps.updateUser,
  removeUserFromSpace: spaceOps.removeUser,
  listTeamPermissionsInSpace: spaceOps.listTeams,
  updateTeamPermissionInSpace: spaceOps.updateTeam,
  removeTeamFromSpace: spaceOps.removeTeam,
  listPermissionsAggregateInSpace: spaceOps.aggregate,

  inviteToCollection: collectionOps.invite,
  listUserPermissionsInCollection: collectionOps.listUsers,
  updateUserPermissionInCollection: collectionOps.updateUser,
  removeUserFromCollection: collectionOps.removeUser,
  listTeamPermissionsInCollection: collectionOps.listTeams,
  updateTeamPermissionInCollection: collectionOps.updateTeam,
  removeTeamFromCollection: collectionOps.removeTeam,
  listPermissionsAggregateInCollection: collectionOps.aggregate,

  inviteToSite: defineOp({ id: 'inviteToSite', method: 'POST', path: siteRoot, params: site, body: InviteUsersAndTeams, status: 204 }),
  listUserPermissionsInSite: defineOp({
    id: 'listUserPermissionsInSite',
    method: 'GET',
    path: `${siteRoot}/users`,
    params: site,
    query: z.object(pageQuery),
    response: listOf(UserSitePermissionOverride),
    paginated: true,
  }),
  updateUserPermissionInSite: defineOp({
    id: 'updateUserPermissionInSite',
    method: 'PATCH',
    path: `${siteRoot}/users/{userId}`,
    params: withUser(siteShape),
    body: UpdateSiteGrantBody,
    status: 204,
  }),
  removeUserFromSite: defineOp({ id: 'removeUserFromSite', method: 'DELETE', path: `${siteRoot}/users/{userId}`, params: withUser(siteShape), status: 204 }),
  listTeamPermissionsInSite: defineOp({
    id: 'listTeamPermissionsInSite',
    method: 'GET',
    path: `${siteRoot}/teams`,
    params: site,
    query: z.object(pageQuery),
    response: listOf(TeamSitePermissionOverride),
    paginated: true,
  }),
  updateTeamPermissionInSite: defineOp({
    id: 'updateTeamPermissionInSite',
    method: 'PATCH',
    path: `${siteRoot}/teams/{teamId}`,
    params: withTeam(siteShape),
    body: UpdateSiteGrantBody,
    status: 204,
  }),
  removeTeamFromSite: defineOp({ id: 'removeTeamFromSite', method: 'DELETE', path: `${siteRoot}/teams/{teamId}`, params: withTeam(siteShape), status: 204 }),
  listPermissionsAggregateInSite: defineOp({
    id: 'listPermissionsAggregateInSite',
    method: 'GET',
    path: `${siteRoot}/aggregate`,
    params: site,
    query: z.object({
      ...pageQuery,
      order: z.enum(ORDERS).optional(),
      role: z.enum(MEMBER_ROLES).optional(),
      search: z.string().optional(),
      sort: z.enum(MEMBER_SORTS).optional(),
      team: z.string().optional(),
    }),
    response: listOf(UserSitePermission),
    paginated: true,
  }),
};
