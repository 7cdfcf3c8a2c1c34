/**
 * Which discussion a command acts on: the space's own comments, or a change request's (`--cr N`).
 * Both families have the same operations and answers; the change-request family's parameters are a
 * superset of the space family's (it adds `changeRequestId`), so one type serves both.
 */
import { CliError, EXIT } from '../../cli/errors.js';
import type { Api } from '../../client/api.js';
import { crCommentOps, spaceCommentOps } from '../../contract/comments.js';
import { ops as contentOps, type Page } from '../../contract/content.js';
import { crRef } from '../cr/columns.js';

export const crFlag = {
  cr: { description: 'the comments of this change request (number or id) instead of the space’s', value: 'cr' },
} as const;

export const replyFlag = {
  reply: { description: 'act on this reply of the comment instead of the comment itself', value: 'id' },
} as const;

export function threadOf(space: string, cr: string | undefined) {
  return {
    ops: (cr === undefined ? spaceCommentOps : crCommentOps) as typeof crCommentOps,
    /** `changeRequestId` is not in the space family's paths, so it is not sent there. */
    params: { spaceId: space, changeRequestId: cr === undefined ? '' : crRef(cr) },
    onChangeRequest: cr !== undefined,
  };
}

/**
 * The id of the page at `ref` (a path such as `guides/install`, or a page id) in the space's
 * current content. Not found: exit 4.
 */
export async function resolvePage(api: Api, spaceId: string, ref: string): Promise<string> {
  const { pages } = await api.call(contentOps.listSpacePages, { params: { spaceId }, query: { computed: false } });
  const wanted = ref.replace(/^\/+|\/+$/g, '');
  const walk = function* (list: Page[]): Generator<Page> {
    for (const p of list) {
      yield p;
      yield* walk(p.pages ?? []);
    }
  };
  for (const p of walk(pages)) if (p.id === ref || p.path === wanted) return p.id;
  throw new CliError(`--page: no page ${ref} in space ${spaceId}`, EXIT.NOT_FOUND, 'give the page’s path (e.g. guides/install) or its id');
}

type Target = ReturnType<typeof threadOf>;
type UpdateBody = { body?: { markdown: string }; resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] };

/** PUT a comment, or one of its replies. */
export function updatePost(api: Api, t: Target, commentId: string, replyId: string | undefined, body: UpdateBody) {
  const params = { ...t.params, commentId };
  return replyId === undefined
    ? api.call(t.ops.updateComment, { params, body })
    : api.call(t.ops.updateCommentReply, { params: { ...params, commentReplyId: replyId }, body });
}
