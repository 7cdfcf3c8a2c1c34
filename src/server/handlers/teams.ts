/**
 * Teams and their members (contract/teams.ts). Members with a role list and read teams, and a
 * team's own members read it; admins create, rename and delete teams; admins and the team's owners
 * change its members. The rules are the model's (teams/model.ts).
 */
import { ops } from '../../contract/teams.js';
import { orgFor, requireRole } from '../access.js';
import { unlessSame } from '../audit/model.js';
import { notFound } from '../errors.js';
import { defineFamily } from '../family.js';
import type { HandlerCtx, Handlers } from '../handler.js';
import { paginate, scopeOf } from '../paginate.js';
import * as model from '../teams/model.js';
import { teamsOf } from '../orgs/model.js';
import { teamView } from '../orgs/views.js';
import { teamMemberView } from '../teams/views.js';

/** The team and the caller's organization role, or 404 (the team) / 403 (may not see it). */
function teamFor(ctx: HandlerCtx, params: { organizationId: string; teamId: string }) {
  const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
  const team = model.teamIn(ctx.store, params.organizationId, params.teamId);
  return { role, team };
}

const handlers: Handlers<typeof ops> = {
  listTeams: (ctx, { params, query }) => {
    // What the organization's `permissions.listTeams` says: members with a role, not guests.
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'read', 'listing teams');
    let teams = teamsOf(ctx.store, params.organizationId);
    if (query.title !== undefined) {
      const text = query.title.toLowerCase();
      teams = teams.filter((t) => t.title.toLowerCase().includes(text));
    }
    if (query.owner !== undefined) {
      const owner = ctx.store.member(params.organizationId, query.owner);
      const ownerRole = owner && !owner.disabled ? owner.role : null;
      teams = owner ? teams.filter((t) => model.managesTeam(ownerRole, t, query.owner!)) : [];
    }
    const page = paginate(teams, query, (t) => t.id, scopeOf('teams', params.organizationId, query.title ?? null, query.owner ?? null));
    return { ...page, items: page.items.map((t) => teamView(ctx, t)) };
  },

  createTeam: (ctx, { params, body }) => {
    requireRole(orgFor(ctx.store, ctx.caller, params.organizationId).role, 'admin', 'creating a team');
    return teamView(ctx, model.createTeam(ctx.store, params.organizationId, body.title, body.members));
  },

  getTeam: (ctx, { params }) => {
    const { role, team } = teamFor(ctx, params);
    model.requireSee(role, team, ctx.caller.user.id, 'reading a team');
    return teamView(ctx, team);
  },

  updateTeam: (ctx, { params, body }) => {
    const { role, team } = teamFor(ctx, params);
    requireRole(role, 'admin', 'renaming a team');
    unlessSame(
      ctx,
      () => team.title,
      () => (team.title = body.title),
    );
    return teamView(ctx, team);
  },

  deleteTeam: (ctx, { params }) => {
    const { role } = orgFor(ctx.store, ctx.caller, params.organizationId);
    requireRole(role, 'admin', 'deleting a team');
    const team = ctx.store.data.teams.get(params.teamId);
    // A missing team answers 204 too: the official document's "the team did not exist".
    if (team && team.org === params.organizationId) model.deleteTeam(ctx.store, team);
    else ctx.unchanged = true;
    return undefined;
  },

  listTeamMembers: (ctx, { params, query }) => {
    const { role, team } = teamFor(ctx, params);
    model.requireSee(role, team, ctx.caller.user.id, 'listing the members of a team');
    const page = paginate([...team.members.keys()], query, (id) => id, scopeOf('team-members', team.id));
    return { ...page, items: page.items.map((id) => teamMemberView(ctx, team, id)) };
  },

  updateTeamMembers: (ctx, { params, body }) => {
    const { role, team } = teamFor(ctx, params);
    model.requireManage(role, team, ctx.caller.user.id, 'changing the members of a team');
    unlessSame(
      ctx,
      () => team.members,
      () => model.updateTeamMembers(ctx.store, team, body),
    );
    return undefined;
  },

  addTeamMember: (ctx, { params, body }) => {
    const { role, team } = teamFor(ctx, params);
    model.requireManage(role, team, ctx.caller.user.id, 'adding a member to a team');
    if (!ctx.store.member(team.org, params.userId)) throw notFound(`no member ${params.userId} in organization ${team.org}`);
    unlessSame(
      ctx,
      () => team.members,
      () => model.setTeamMember(team, params.userId, body?.role),
    );
    return undefined;
  },

  removeTeamMember: (ctx, { params }) => {
    const { role, team } = teamFor(ctx, params);
    model.requireManage(role, team, ctx.caller.user.id, 'removing a member from a team');
    // Not in the team: 204 all the same (the official document's "member was not part of the team").
    if (!team.members.delete(params.userId)) ctx.unchanged = true;
    return undefined;
  },
};

export const family = defineFamily({ ops, handlers });
