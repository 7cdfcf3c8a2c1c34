/**
 * Invitations: by email, and invite links (this family's slice of the state). No HTTP here.
 *
 * - An email invitation makes the user with that email (any case) a member at once, with the
 *   email's role, else the request's, else the organization's default role. The sandbox has no
 *   sign-up and sends no email: an address that is no user's becomes a new user (named after the
 *   address, with a token of its own, which the sandbox admin reads in `GET /_sandbox/state`) and a
 *   member, as GitBook's invitee is once they follow the email ("sign up … and instantly join").
 *   Members already in the organization are left as they are, and not counted.
 * - An invite link is for a role in the organization, or a level on one space or collection. Anyone
 *   holding it joins with it (`POST {o}/invites/{inviteId}`): a non-member becomes a member with the
 *   link's role (a guest for a space or collection link); a member keeps the higher of their role and
 *   the link's; a disabled member cannot. Links work while the organization's `inviteLinks` is on.
 */
import type { CreateInviteLinkBody, InviteMembersBody } from '../../contract/invites.js';
import type { Role } from '../../contract/op.js';
import { atLeast, collectionRole, maxRole, spaceRole } from '../access.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { newId, newToken } from '../ids.js';
import { settingsOf } from '../orgs/model.js';
import type { MemberRec, Store, UserRec } from '../store.js';

/** What invitations need of an organization's settings: the role new members get (`read` until set), and whether invite links work (on until set). */
export function inviteSettings(store: Store, orgId: string): { defaultRole: Role | null; inviteLinks: boolean } {
  const s = settingsOf(store, orgId);
  return { defaultRole: s.defaultRole === undefined ? 'read' : s.defaultRole, inviteLinks: s.inviteLinks ?? true };
}

export interface InviteLinkRec {
  id: string;
  org: string;
  /** What the link is for: the organization (with `role`), or a space or collection (with `level`). */
  target: { type: 'organization' } | { type: 'space' | 'collection'; id: string };
  /** The role in the organization, or the level on the space or collection; null: guest. */
  role: Role | null;
  createdAt: string;
  createdBy: string;
}

/** This family's state: invite links by id, in creation order. */
export function invitesState(store: Store): { links: Map<string, InviteLinkRec> } {
  return store.slice('invites', () => ({ links: new Map<string, InviteLinkRec>() }));
}

export function linksOf(store: Store, orgId: string): InviteLinkRec[] {
  return [...invitesState(store).links.values()].filter((l) => l.org === orgId);
}

/** The link, or 404 (the same whether the organization or the link is missing: the link is the secret). */
export function linkIn(store: Store, orgId: string, inviteId: string): InviteLinkRec {
  const link = invitesState(store).links.get(inviteId);
  if (!link || link.org !== orgId) throw notFound(`no invite ${inviteId} in organization ${orgId}`);
  return link;
}

/**
 * The caller's role on what a link is for: their organization role for a link to the
 * organization, their role on the space or collection otherwise (undefined when it is gone).
 */
export function roleOnTarget(store: Store, userId: string, orgRole: Role | null, link: Pick<InviteLinkRec, 'target'>): Role | null {
  const t = link.target;
  if (t.type === 'organization') return orgRole;
  if (t.type === 'space') {
    const space = store.data.spaces.get(t.id);
    return space ? spaceRole(store, userId, space) : null;
  }
  const collection = store.data.collections.get(t.id);
  return collection ? collectionRole(store, userId, collection) : null;
}

/** 403 unless the caller administers what the link is for (the organization's admins manage every link). */
export function requireManageLink(store: Store, userId: string, orgRole: Role | null, link: Pick<InviteLinkRec, 'target'>, what: string): void {
  if (atLeast(orgRole, 'admin') || atLeast(roleOnTarget(store, userId, orgRole, link), 'admin')) return;
  throw forbidden(`${what} needs the admin role on the ${link.target.type}; you have ${orgRole ?? 'guest access'}`);
}

/** A link's target from a create body, checked: the space or collection must be the organization's (400 naming the field). */
export function targetOf(store: Store, orgId: string, body: CreateInviteLinkBody): InviteLinkRec['target'] {
  if ('space' in body) {
    const space = store.data.spaces.get(body.space);
    if (!space || space.org !== orgId || space.deletedAt) throw badRequest(`space: no space ${body.space} in organization ${orgId}`);
    return { type: 'space', id: space.id };
  }
  if ('collection' in body) {
    const col = store.data.collections.get(body.collection);
    if (!col || col.org !== orgId) throw badRequest(`collection: no collection ${body.collection} in organization ${orgId}`);
    return { type: 'collection', id: col.id };
  }
  return { type: 'organization' };
}

export function createLink(store: Store, orgId: string, target: InviteLinkRec['target'], role: Role | null, by: string): InviteLinkRec {
  const link: InviteLinkRec = { id: newId(), org: orgId, target, role, createdAt: store.now(), createdBy: by };
  invitesState(store).links.set(link.id, link);
  return link;
}

/** A purged space takes its links with it. */
export function dropSpaceLinks(store: Store, spaceId: string): void {
  const links = invitesState(store).links;
  for (const [id, link] of links) if (link.target.type === 'space' && link.target.id === spaceId) links.delete(id);
}

export function deleteLink(store: Store, link: InviteLinkRec): void {
  invitesState(store).links.delete(link.id);
}

/** 403 while the organization's invite links are off. */
export function requireLinksOn(on: boolean, orgId: string): void {
  if (!on) throw forbidden(`invite links are turned off in organization ${orgId} (its inviteLinks setting); an admin turns them on`);
}

function addMember(store: Store, orgId: string, userId: string, role: Role | null, sso: boolean): MemberRec {
  let members = store.data.members.get(orgId);
  if (!members) store.data.members.set(orgId, (members = new Map()));
  const m: MemberRec = { userId, role, joinedAt: store.now(), sso, disabled: false };
  members.set(userId, m);
  return m;
}

/**
 * Join with a link (see the module's comment). Whether anything changed: a member holding the link's
 * role (or a higher one), and its level on the link's space or collection, is left as it is.
 */
export function join(store: Store, link: InviteLinkRec, user: UserRec): boolean {
  const current = store.member(link.org, user.id);
  if (current?.disabled) throw forbidden(`your membership of organization ${link.org} is disabled; an admin enables it`);
  const orgRole = link.target.type === 'organization' ? link.role : null;
  let changed = false;
  if (!current) {
    addMember(store, link.org, user.id, orgRole, false);
    changed = true;
  } else if (link.target.type === 'organization' && current.role !== orgRole) {
    const to = current.role === null ? orgRole : maxRole(current.role, orgRole);
    changed = to !== current.role;
    current.role = to;
  }
  if (link.target.type !== 'organization') {
    const target = link.target;
    for (const f of store.families) if (f.onContentInviteJoined?.(store, { org: link.org, user: user.id, target, level: link.role })) changed = true;
  }
  return changed;
}

function userByEmail(store: Store, email: string): UserRec | undefined {
  const wanted = email.toLowerCase();
  for (const u of store.data.users.values()) if (u.email.toLowerCase() === wanted) return u;
  return undefined;
}

/** Invite by email (see the module's comment): the users added, and the emails not made SSO members. */
export function inviteByEmail(store: Store, orgId: string, body: InviteMembersBody, defaultRole: Role | null): { users: string[]; failedSSOEmails: string[] } {
  const users: string[] = [];
  const failedSSOEmails: string[] = [];
  const seen = new Set<string>();
  for (const entry of body.emails) {
    const email = typeof entry === 'string' ? entry : entry.email;
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    const role = typeof entry === 'string' ? (body.role === undefined ? defaultRole : body.role) : entry.role;
    let user = userByEmail(store, email);
    if (user && store.member(orgId, user.id)) continue;
    if (!user) {
      user = { id: newId(), displayName: email.slice(0, email.indexOf('@')), email, token: newToken() };
      store.addUser(user);
    }
    // GitBook: an SSO invitation fails for a user who is a member of another organization.
    const elsewhere = body.sso === true && [...store.data.members.entries()].some(([org, ms]) => org !== orgId && ms.has(user.id));
    if (elsewhere) failedSSOEmails.push(email);
    addMember(store, orgId, user.id, role, body.sso === true && !elsewhere);
    users.push(user.id);
  }
  return { users, failedSSOEmails };
}
