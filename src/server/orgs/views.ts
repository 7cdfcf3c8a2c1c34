/** Users, organizations and teams as the API shows them to the caller (other families show users and teams too). */
import type { Organization, Team, User } from '../../contract/orgs.js';
import { orgPermissions } from '../access.js';
import type { HandlerCtx } from '../handler.js';
import { spacesGrantedTo } from '../permissions/model.js';
import type { OrgRec, TeamRec, UserRec } from '../store.js';
import { hasActiveSaml, liveDefaultContent, settingsOf } from './model.js';

export function userView(ctx: HandlerCtx, u: UserRec): User {
  return {
    object: 'user',
    id: u.id,
    displayName: u.displayName,
    email: u.email,
    ...(u.photoURL ? { photoURL: u.photoURL } : {}),
    urls: { location: `${ctx.baseUrl}/v1/users/${u.id}` },
  };
}

export function orgView(ctx: HandlerCtx, org: OrgRec): Organization {
  const member = ctx.store.member(org.id, ctx.caller.user.id);
  const role = member?.role ?? null;
  const s = settingsOf(ctx.store, org.id);
  const defaultContent = liveDefaultContent(ctx.store, org.id);
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    ...(s.hostname !== undefined ? { hostname: s.hostname } : {}),
    type: 'business',
    defaultRole: s.defaultRole === undefined ? 'read' : s.defaultRole,
    ...(defaultContent ? { defaultContent } : {}),
    sso: (s.sso ?? false) && hasActiveSaml(ctx.store, org.id),
    ai: s.ai ?? false,
    inviteLinks: s.inviteLinks ?? true,
    plan: 'free',
    mergeRules: s.mergeRules ?? { type: 'none' },
    urls: {
      location: `${ctx.baseUrl}/v1/orgs/${org.id}`,
      app: `${ctx.baseUrl}/app/o/${org.id}`,
      ...(s.logo !== undefined ? { logo: s.logo } : {}),
    },
    // The sandbox has no billing: trials do not apply, and none was ever taken.
    trial: { status: 'notapplicable', count: 0 },
    // `access`: opening the organization in the app, which every active member may (guests see what is shared with them).
    permissions: { ...orgPermissions(role), access: member !== undefined && !member.disabled },
  };
}

export function teamView(ctx: HandlerCtx, team: TeamRec): Team {
  const role = ctx.store.member(team.org, ctx.caller.user.id)?.role ?? null;
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: team.members.size,
    // The spaces shared with the team (a grant to it that applies).
    spaces: spacesGrantedTo(ctx.store, team.id),
    createdAt: team.createdAt,
    permissions: { admin: role === 'admin' || team.members.get(ctx.caller.user.id) === 'owner', view: role !== null || team.members.has(ctx.caller.user.id) },
  };
}
