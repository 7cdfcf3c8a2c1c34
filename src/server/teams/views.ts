/** The API objects of teams (contract/teams.ts); the team itself is orgs/views.ts's teamView. */
import type { TeamMember } from '../../contract/teams.js';
import { notFound } from '../errors.js';
import type { HandlerCtx } from '../handler.js';
import { memberView } from '../members/views.js';
import type { TeamRec } from '../store.js';

/** A member of a team: their membership of the organization and their role in the team. */
export function teamMemberView(ctx: HandlerCtx, team: TeamRec, userId: string): TeamMember {
  const m = ctx.store.member(team.org, userId);
  if (!m) throw notFound(`no member ${userId} in organization ${team.org}`);
  return { organization: memberView(ctx, team.org, m), team: { role: team.members.get(userId)! }, permissions: { view: true } };
}
