/** Memberships as the API shows them (also in the comment families' lists of commenters). */
import type { Member } from '../../contract/members.js';
import type { HandlerCtx } from '../handler.js';
import { notFound } from '../errors.js';
import { userView } from '../orgs/views.js';
import type { MemberRec } from '../store.js';
import { memberSites, memberSpaces, memberTeams } from './model.js';

/** A membership as the API shows it. */
export function memberView(ctx: HandlerCtx, orgId: string, m: MemberRec): Member {
  const user = ctx.store.data.users.get(m.userId);
  if (!user) throw notFound(`no member ${m.userId}`);
  return {
    object: 'member',
    id: m.userId,
    role: m.role,
    user: userView(ctx, user),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
    sso: m.sso,
    spaces: memberSpaces(ctx, orgId, m).length,
    teams: memberTeams(ctx.store, orgId, m.userId).length,
    sites: memberSites(ctx.store, orgId, m),
  };
}
