/**
 * Organization members (the model: members/). Any member with a role may read the member list; a
 * guest reads only their own membership. Changing roles, removing members and turning on SSO need
 * the admin role, and the organization always keeps one active admin.
 */
import type { MemberSpace, MemberTeam } from '../../contract/members.js';
import { ops } from '../../contract/members.js';
import { orgFor, requireRole } from '../access.js';
import { defineFamily } from '../family.js';
import type { Handlers } from '../handler.js';
import { unlessSame } from '../audit/model.js';
import { existingMember, listedMembers, memberFor, memberSpaces, memberTeams, removeMember, requireMemberList, setRole } from '../members/model.js';
import { memberView } from '../members/views.js';
import { teamView } from '../orgs/views.js';
import { paginate, scopeOf } from '../paginate.js';
import { spaceView } from '../spaces/views.js';

const handlers: Handlers<typeof ops> = {
  listMembers: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    requireMemberList(ctx, orgId);
    const sort = query.sort ?? 'joinedAt';
    const order = query.order ?? 'desc';
    const members = listedMembers(ctx.store, orgId, query, sort, order);
    const page = paginate(members, query, (m) => m.userId, scopeOf('members', orgId, sort, order, query.role, query.search?.toLowerCase()));
    return { ...page, items: page.items.map((m) => memberView(ctx, orgId, m)) };
  },

  getMember: (ctx, { params }) => memberView(ctx, params.organizationId, memberFor(ctx, params.organizationId, params.userId)),

  updateMember: (ctx, { params, body }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'changing a member’s role');
    const m = existingMember(ctx.store, orgId, params.userId);
    // `role` left out: nothing to change, the member is answered as it is.
    const to = body.role;
    if (to !== undefined)
      unlessSame(
        ctx,
        () => m,
        () => setRole(ctx.store, orgId, m, to),
      );
    return memberView(ctx, orgId, m);
  },

  removeMember: (ctx, { params }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'removing a member');
    const m = ctx.store.member(orgId, params.userId);
    // A missing target answers 204 too, not 404: the official document gives a delete's 204 as "the target did not exist".
    if (m) removeMember(ctx.store, orgId, m);
    else ctx.unchanged = true;
    return undefined;
  },

  ping: (ctx, { params }) => {
    orgFor(ctx.store, ctx.caller, params.organizationId);
    const m = ctx.store.member(params.organizationId, ctx.caller.user.id)!;
    m.lastSeenAt = ctx.store.now();
    // No visitor-auth signing key lives in the sandbox, so no visitor claims are issued.
    return {};
  },

  setMemberSso: (ctx, { params }) => {
    const orgId = params.organizationId;
    const { role } = orgFor(ctx.store, ctx.caller, orgId);
    requireRole(role, 'admin', 'making a member an SSO member');
    const m = existingMember(ctx.store, orgId, params.userId);
    // Whatever the SAML providers: the seed and the official document answer 200 (docs/compatibility.md).
    m.sso = true;
    return memberView(ctx, orgId, m);
  },

  listMemberSpaces: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    const m = memberFor(ctx, orgId, params.userId);
    const order = query.order ?? 'desc';
    const items = memberSpaces(ctx, orgId, m);
    if (order === 'desc') items.reverse();
    const page = paginate(items, query, (i) => i.space.id, scopeOf('member-spaces', orgId, m.userId, order));
    return {
      ...page,
      items: page.items.map((i): MemberSpace => ({ permission: i.permission, space: spaceView(ctx, i.space) })),
    };
  },

  listMemberTeams: (ctx, { params, query }) => {
    const orgId = params.organizationId;
    const m = memberFor(ctx, orgId, params.userId);
    const needle = query.title?.toLowerCase();
    const teams = memberTeams(ctx.store, orgId, m.userId).filter((t) => needle === undefined || t.title.toLowerCase().includes(needle));
    const page = paginate(teams, query, (t) => t.id, scopeOf('member-teams', orgId, m.userId, needle));
    return {
      ...page,
      items: page.items.map((t): MemberTeam => ({ team: teamView(ctx, t), member: { role: t.members.get(m.userId)! } })),
    };
  },
};

export const family = defineFamily({ ops, handlers });
