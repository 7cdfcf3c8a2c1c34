/** The API objects of invitations (contract/invites.ts). */
import type { InviteLink } from '../../contract/invites.js';
import type { Role } from '../../contract/op.js';
import { atLeast } from '../access.js';
import { collectionView } from '../collections/views.js';
import type { HandlerCtx } from '../handler.js';
import { spaceView } from '../spaces/views.js';
import { type InviteLinkRec, roleOnTarget } from './model.js';

/** Whether what a link is for still exists (a space not deleted). */
export function live(ctx: HandlerCtx, link: InviteLinkRec): boolean {
  const t = link.target;
  if (t.type === 'space') return !ctx.store.data.spaces.get(t.id)?.deletedAt && ctx.store.data.spaces.has(t.id);
  if (t.type === 'collection') return ctx.store.data.collections.has(t.id);
  return true;
}

export function linkView(ctx: HandlerCtx, orgRole: Role | null, link: InviteLinkRec): InviteLink {
  // Redundant: the caller already has what the link gives.
  const mine = roleOnTarget(ctx.store, ctx.caller.user.id, orgRole, link);
  const redundant = link.role === null ? true : atLeast(mine, link.role);
  const base = { object: 'invite' as const, id: link.id, redundant };
  const t = link.target;
  if (t.type === 'space') return { ...base, level: link.role, space: spaceView(ctx, ctx.store.data.spaces.get(t.id)!) };
  if (t.type === 'collection') return { ...base, level: link.role, collection: collectionView(ctx, ctx.store.data.collections.get(t.id)!) };
  return { ...base, role: link.role };
}
