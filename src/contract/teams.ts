/**
 * An organization's teams and their members (the official document's `teams` and `team-members`
 * tags). A team groups members so content can be shared with all of them at once; its members are
 * `owner`s (who manage its membership) or plain `member`s.
 */
import { z } from 'zod';
import { Member, TEAM_ROLES } from './members.js';
import { defineOp, listOf, pageQuery, pathId, pathText } from './op.js';
import { Team } from './orgs.js';

/** The official document's OrganizationTeamTitle: 1 to 64 characters. */
export const teamTitle = z.string().min(1).max(64);
export const TeamMemberRole = z.enum(TEAM_ROLES);
export type TeamMemberRole = z.infer<typeof TeamMemberRole>;

/** A member of a team (the official document's OrganizationTeamMember): the member, their role in the team. */
export const TeamMember = z.lazy(() =>
  z.object({
    organization: Member,
    team: z.object({ role: TeamMemberRole }),
    permissions: z.object({ view: z.boolean() }),
  }),
);
export type TeamMember = z.infer<typeof TeamMember>;

export const CreateTeamBody = z.strictObject({
  title: teamTitle,
  /** Members of the organization to put in the team (user ids). */
  members: z.array(z.string()).optional(),
});
export const UpdateTeamBody = z.strictObject({ title: teamTitle });

/**
 * Many members at once (the official document's UpdateMembersInOrganizationTeam): `add` and `remove`
 * name users by id or email; `memberships` sets the team role of a user (by id) added or already in
 * the team. A user in both `add` and `remove` is removed.
 */
export const UpdateTeamMembersBody = z.strictObject({
  add: z.array(z.string()).optional(),
  memberships: z.record(z.string(), z.strictObject({ role: TeamMemberRole })).optional(),
  remove: z.array(z.string()).optional(),
});
export type UpdateTeamMembersBody = z.output<typeof UpdateTeamMembersBody>;

/** The team role of a member added one at a time: `member` unless given. */
export const AddTeamMemberBody = z.strictObject({ role: TeamMemberRole.optional() }).optional();

const org = z.object({ organizationId: pathId() });
const team = z.object({ organizationId: pathId(), teamId: pathId() });
const teamMember = z.object({ organizationId: pathId(), teamId: pathId(), userId: pathText() });

export const ops = {
  listTeams: defineOp({
    id: 'listTeams',
    method: 'GET',
    path: '/orgs/{organizationId}/teams',
    params: org,
    query: z.object({
      ...pageQuery,
      /** A member: only the teams they can manage (they own, or all for an admin). */
      owner: z.string().optional(),
      /** Teams whose title contains this text, ignoring case. */
      title: z.string().optional(),
    }),
    response: listOf(Team),
    paginated: true,
  }),
  createTeam: defineOp({
    id: 'createTeam',
    method: 'PUT',
    path: '/orgs/{organizationId}/teams',
    params: org,
    body: CreateTeamBody,
    response: Team,
    status: 201,
  }),
  getTeam: defineOp({ id: 'getTeam', method: 'GET', path: '/orgs/{organizationId}/teams/{teamId}', params: team, response: Team }),
  updateTeam: defineOp({
    id: 'updateTeam',
    method: 'PATCH',
    path: '/orgs/{organizationId}/teams/{teamId}',
    params: team,
    body: UpdateTeamBody,
    response: Team,
  }),
  deleteTeam: defineOp({ id: 'deleteTeam', method: 'DELETE', path: '/orgs/{organizationId}/teams/{teamId}', params: team, status: 204 }),
  listTeamMembers: defineOp({
    id: 'listTeamMembers',
    method: 'GET',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    params: team,
    query: z.object(pageQuery),
    response: listOf(TeamMember),
    paginated: true,
  }),
  updateTeamMembers: defineOp({
    id: 'updateTeamMembers',
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members',
    params: team,
    body: UpdateTeamMembersBody,
    status: 204,
  }),
  addTeamMember: defineOp({
    id: 'addTeamMember',
    method: 'PUT',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    params: teamMember,
    body: AddTeamMemberBody,
    status: 204,
  }),
  removeTeamMember: defineOp({
    id: 'removeTeamMember',
    method: 'DELETE',
    path: '/orgs/{organizationId}/teams/{teamId}/members/{userId}',
    params: teamMember,
    status: 204,
  }),
};
