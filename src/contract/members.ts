/** Organization members: roles, last-seen, SSO, and the spaces and teams each member reaches. */
import { z } from 'zod';
import { defineOp, listOf, pageQuery, pathId, pathText, Role, ROLES, Timestamp } from './op.js';
import { Team, User } from './orgs.js';
import { Space } from './spaces.js';

export const Member = z.lazy(() =>
  z.object({
    object: z.literal('member'),
    id: z.string(),
    role: Role.nullable(),
    user: User,
    disabled: z.boolean(),
    joinedAt: Timestamp,
    /** Absent until the member is first seen (`POST {o}/ping`). */
    lastSeenAt: Timestamp.optional(),
    sso: z.boolean(),
    /** How many spaces the member can access. */
    spaces: z.number(),
    /** How many teams of the organization the member is in. */
    teams: z.number(),
    /** How many sites of the organization the member can access. */
    sites: z.number(),
  }),
);
export type Member = z.infer<typeof Member>;

/** A role filter: one of the roles, or `guest` for members without one. */
export const MEMBER_ROLES = [...ROLES, 'guest'] as const;
export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export const ORDERS = ['asc', 'desc'] as const;
export const TEAM_ROLES = ['owner', 'member'] as const;

export const MemberSpace = z.lazy(() => z.object({ permission: Role, space: Space }));
export type MemberSpace = z.infer<typeof MemberSpace>;
export const MemberTeam = z.lazy(() => z.object({ team: Team, member: z.object({ role: z.enum(TEAM_ROLES) }) }));
export type MemberTeam = z.infer<typeof MemberTeam>;

/** `role` may be left out (the official document does not require it): an empty update changes nothing. */
export const UpdateMemberBody = z.strictObject({ role: Role.nullable().optional() });

/**
 * What `POST {o}/ping` answers: the visitor claims to attach to the user, when there are any. The seed
 * names the field `serviceVisitorClaims`; the official document `gitbookVisitorClaims` (read either).
 */
export const PingAnswer = z.lazy(() =>
  z.object({
    serviceVisitorClaims: z.string().optional(),
    gitbookVisitorClaims: z.string().optional(),
  }),
);

/** The query of a list of members (also of who reaches a site): paging, order, a role filter (or `guest`), a text, a sort. */
export const memberListQuery = {
  ...pageQuery,
  order: z.enum(ORDERS).optional(),
  role: z.enum(MEMBER_ROLES).optional(),
  search: z.string().optional(),
  sort: z.enum(MEMBER_SORTS).optional(),
};

const org = z.object({ organizationId: pathId() });
const member = z.object({ organizationId: pathId(), userId: pathText() });

export const ops = {
  listMembers: defineOp({
    id: 'listMembers',
    method: 'GET',
    path: '/orgs/{organizationId}/members',
    params: org,
    query: z.object(memberListQuery),
    response: listOf(Member),
    paginated: true,
  }),
  getMember: defineOp({
    id: 'getMember',
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}',
    params: member,
    response: Member,
  }),
  updateMember: defineOp({
    id: 'updateMember',
    method: 'PATCH',
    path: '/orgs/{organizationId}/members/{userId}',
    params: member,
    body: UpdateMemberBody,
    response: Member,
  }),
  removeMember: defineOp({
    id: 'removeMember',
    method: 'DELETE',
    path: '/orgs/{organizationId}/members/{userId}',
    params: member,
    status: 204,
  }),
  ping: defineOp({
    id: 'ping',
    method: 'POST',
    path: '/orgs/{organizationId}/ping',
    params: org,
    response: PingAnswer,
    status: 200,
  }),
  setMemberSso: defineOp({
    id: 'setMemberSso',
    method: 'POST',
    path: '/orgs/{organizationId}/members/{userId}/sso',
    params: member,
    response: Member,
    status: 200,
  }),
  listMemberSpaces: defineOp({
    id: 'listMemberSpaces',
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}/spaces',
    params: member,
    query: z.object({ ...pageQuery, order: z.enum(ORDERS).optional() }),
    response: listOf(MemberSpace),
    paginated: true,
  }),
  listMemberTeams: defineOp({
    id: 'listMemberTeams',
    method: 'GET',
    path: '/orgs/{organizationId}/members/{userId}/teams',
    params: member,
    query: z.object({ ...pageQuery, title: z.string().optional() }),
    response: listOf(MemberTeam),
    paginated: true,
  }),
};
