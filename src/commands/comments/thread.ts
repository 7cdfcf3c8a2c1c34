/**
 * Which discussion a command acts on: the space's own comments, or a change request's (`--cr N`).
 * Both families have the same operations and answers; the change-request family's parameters are a
 * superset of the space family's (it adds `changeRequestId`), so one type serves both.
 */
import type { Context } from '../../cli/context.js';
import { textInput } from '../../cli/input.js';
import type { Api } from '../../client/api.js';
import { crCommentOps, spaceCommentOps } from '../../contract/comments.js';
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


/** The Markdown given by --body or --body-file, and which of the two messages about it should name. */
export async function markdownOf(ctx: Context, flags: { body?: string; bodyFile?: string }) {
  const markdown = await textInput(ctx, flags.body, flags.bodyFile, ['--body', '--body-file']);
  return { markdown, flagOf: { body: flags.bodyFile !== undefined ? '--body-file' : '--body' } };
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
