/** Spaces as the API shows them to the caller (other families show spaces too). */
import type { Role } from '../../contract/op.js';
import type { ListedSpace, Space } from '../../contract/spaces.js';
import { maxRole, spacePermissions, spaceRole } from '../access.js';
import { spaceCounters } from '../family.js';
import type { HandlerCtx } from '../handler.js';
import { RETENTION_MS, type SpaceRec } from '../store.js';
import { deletedMs } from './model.js';

/**
 * The Space object as the caller sees it. `minRole` raises the caller's role (a share link gives
 * `read`). Callers who may see invite links get the share link in `urls.published` of a
 * `share-link` space.
 */
export function spaceView(ctx: HandlerCtx, s: SpaceRec, minRole: Role | null = null): Space {
  const counters = spaceCounters(ctx.store, s.id);
  const permissions = spacePermissions(maxRole(spaceRole(ctx.store, ctx.caller.user.id, s), minRole), s);
  const base = ctx.baseUrl;
  const published = `${base}/p/${s.id}`;
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    mergeRules: s.mergeRules,
    urls: {
      location: `${base}/v1/spaces/${s.id}`,
      app: `${base}/app/s/${s.id}`,
      published: s.visibility === 'share-link' && permissions.viewInviteLinks ? `${published}?shareKey=${s.shareKey}` : published,
      public: published,
      ...(s.icon ? { icon: s.icon } : {}),
    },
    organization: s.org,
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.language ? { language: s.language } : {}),
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    ...counters,
    permissions,
  };
}

/** A space in the trash: the Space, and until when it can be restored. */
export function trashView(ctx: HandlerCtx, s: SpaceRec): ListedSpace {
  const until = deletedMs(ctx.store, s) + RETENTION_MS;
  return {
    ...spaceView(ctx, s),
    trash: {
      restorableUntil: new Date(until).toISOString(),
      secondsLeft: Math.max(0, Math.floor((until - ctx.store.clock.now()) / 1000)),
    },
  };
}
