/**
 * Invitations to an organization (the official document's `organization-invites` tag): by email
 * (`POST {o}/invites`), and invite links, each for a role in the organization or a level on one space
 * or collection, that anyone holding the link can use to join (`POST {o}/invites/{inviteId}`).
 */
import { z } from 'zod';
import { Collection } from './collections.js';
import { defineOp, listOf, pageQuery, pathId, Role } from './op.js';
import { Space } from './spaces.js';

/**
 * An email address, by the official document's `format: email` (the rule its validators apply:
 * dot-separated atoms, `@`, a dotted host name).
 */
const email = () =>
  z.string().regex(/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i, {
    message: 'must be an email address such as someone@example.com',
  });

/** A role in the organization, or null for a guest (the official document's MemberRoleOrGuest). */
const RoleOrGuest = Role.nullable();

/**
 * Who to invite, and as what (the official document's InviteUsersToOrganization): each email alone
 * (then `role`, or the organization's default role) or with its own role; `sso` makes them SSO members.
 */
const InviteMembersBody = z.strictObject({
  emails: z.array(z.union([email(), z.strictObject({ email: email(), role: RoleOrGuest })])),
  role: RoleOrGuest.optional(),
  sso: z.boolean().optional(),
});
export type InviteMembersBody = z.output<typeof InviteMembersBody>;

const InviteMembersAnswer = z.lazy(() =>
  z.object({
    /** The users added to the organization. */
    users: z.array(z.string()),
    /** How many were added. */
    invited: z.number(),
    /** Invited, but not as SSO members: they are members of another organization. */
    failedSSOEmails: z.array(z.string()).optional(),
  }),
);

/** An invite link (the official document's OrganizationInviteLink): to the organization, a space or a collection. */
const InviteLink = z.lazy(() =>
  z.union([
    z.object({ object: z.literal('invite'), id: z.string(), role: RoleOrGuest, redundant: z.boolean() }),
    z.object({ object: z.literal('invite'), id: z.string(), level: RoleOrGuest, redundant: z.boolean(), space: Space }),
    z.object({ object: z.literal('invite'), id: z.string(), level: RoleOrGuest, redundant: z.boolean(), collection: Collection }),
  ]),
);
export type InviteLink = z.infer<typeof InviteLink>;

/** A link for a role in the organization, or for a level on one space or one collection. */
const CreateInviteLinkBody = z.union([
  z.strictObject({ role: RoleOrGuest }),
  z.strictObject({ level: RoleOrGuest, space: z.string() }),
  z.strictObject({ level: RoleOrGuest, collection: z.string() }),
]);
export type CreateInviteLinkBody = z.output<typeof CreateInviteLinkBody>;

/** The role of a link to the organization, or the level of a link to a space or collection. */
const UpdateInviteLinkBody = z.union([z.strictObject({ role: RoleOrGuest }), z.strictObject({ level: RoleOrGuest })]);

const org = z.object({ organizationId: pathId() });
const invite = z.object({ organizationId: pathId(), inviteId: pathId() });

export const ops = {
  inviteMembers: defineOp({
    id: 'inviteMembers',
    method: 'POST',
    path: '/orgs/{organizationId}/invites',
    params: org,
    body: InviteMembersBody,
    response: InviteMembersAnswer,
    status: 200,
  }),
  listInviteLinks: defineOp({
    id: 'listInviteLinks',
    method: 'GET',
    path: '/orgs/{organizationId}/link-invites',
    params: org,
    query: z.object(pageQuery),
    response: listOf(InviteLink),
    paginated: true,
  }),
  createInviteLink: defineOp({
    id: 'createInviteLink',
    method: 'POST',
    path: '/orgs/{organizationId}/link-invites',
    params: org,
    body: CreateInviteLinkBody,
    response: InviteLink,
    status: 201,
  }),
  getInviteLink: defineOp({
    id: 'getInviteLink',
    method: 'GET',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    params: invite,
    response: InviteLink,
  }),
  updateInviteLink: defineOp({
    id: 'updateInviteLink',
    method: 'PATCH',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    params: invite,
    body: UpdateInviteLinkBody,
    response: InviteLink,
  }),
  deleteInviteLink: defineOp({
    id: 'deleteInviteLink',
    method: 'DELETE',
    path: '/orgs/{organizationId}/link-invites/{inviteId}',
    params: invite,
    status: 204,
  }),
  /**
   * Join the organization with an invite link: for anyone holding the link, members or not (so the
   * sandbox's gate does not apply; an unknown organization or link answers the same 404).
   */
  joinWithInvite: defineOp({
    id: 'joinWithInvite',
    method: 'POST',
    path: '/orgs/{organizationId}/invites/{inviteId}',
    params: invite,
    response: z.lazy(() => z.object({})),
    status: 200,
    visitors: true,
  }),
};
