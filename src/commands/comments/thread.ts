/**
 * Which discussion a command acts on: the space's own comments, or a change request's (`--cr N`).
 * Both families have the same operations and answers; the change-request family's parameters are a
 * superset of the space family's (it adds `changeRequestId`), so one type serves both.
 */
import type { Context } from '../../cli/context.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { readFileOrStdin, textInput } from '../../cli/input.js';
import type { Api } from '../../client/api.js';
import { crCommentOps, spaceCommentOps, type CommentBody } from '../../contract/comments.js';
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

/** The flags that give a comment's or reply's text: Markdown inline or from a file, or a rich-text document. */
export const bodyFlags = (what: string) =>
  ({
    body: { short: 'm', description: `${what}, in Markdown`, value: 'markdown', conflicts: ['bodyFile'] },
    bodyFile: { description: `${what} in Markdown from a file, or - for stdin`, value: 'file' },
    documentFile: {
      description: `${what} as a rich-text document (JSON, as comments get --format document --json shows body.document), or - for stdin`,
      value: 'file',
      conflicts: ['body', 'bodyFile'],
    },
  }) as const;

/**
 * The `body` of a post, reply or edit from --body, --body-file or --document-file (exactly one), and
 * the flag that messages about it should name.
 */
export async function bodyOf(
  ctx: Context,
  flags: { body?: string; bodyFile?: string; documentFile?: string },
  /** Without any of the flags, write it in the editor (on a terminal): `the comment`. */
  editor?: { what: string },
): Promise<{ body: CommentBody; flagOf: { body: string } }> {
  if (flags.documentFile !== undefined) {
    const text = await readFileOrStdin(ctx, flags.documentFile, '--document-file');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--document-file: not JSON (${(e as Error).message})`);
    }
    // A document as `body.document` holds it, or a whole body `{"document": …}`.
    const doc = isObject(value) && value.object === 'document' ? value : isObject(value) && 'document' in value ? value.document : undefined;
    if (doc === undefined) throw new UsageError('--document-file: expected a rich-text document ({"object": "document", "data": {…}, "nodes": […]})');
    return { body: { document: doc } as CommentBody, flagOf: { body: '--document-file' } };
  }
  if (editor && flags.body === undefined && flags.bodyFile === undefined) {
    return { body: { markdown: await editedMarkdown(ctx, editor.what) }, flagOf: { body: 'the text written' } };
  }
  const markdown = (await textInput(ctx, flags.body, flags.bodyFile, ['--body', '--body-file']))!;
  return { body: { markdown }, flagOf: { body: flags.bodyFile !== undefined ? '--body-file' : '--body' } };
}

/**
 * Markdown written in the user's editor, as `gh issue comment` does without --body: only on a
 * terminal (elsewhere a missing body is a usage error, exit 2, naming the flags); an empty text
 * cancels, as a no at a prompt does (exit 130, nothing sent).
 */
async function editedMarkdown(ctx: Context, what: string): Promise<string> {
  if (!ctx.globals.interactive) {
    throw new UsageError(
      'missing --body',
      'pass --body TEXT, --body-file FILE (- for stdin) or --document-file FILE; without them docsctl opens your editor, on a terminal only',
    );
  }
  const { editText } = await import('../../cli/editor.js');
  const text = await editText(ctx, { fileName: 'COMMENT.md', what });
  if (text.trim() === '') throw new CliError(`cancelled: ${what} is empty, nothing was sent`, EXIT.CANCELLED);
  return text.replace(/\s+$/, '');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type Target = ReturnType<typeof threadOf>;
type UpdateBody = { body?: CommentBody; resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] };

/** PUT a comment, or one of its replies. */
export function updatePost(api: Api, t: Target, commentId: string, replyId: string | undefined, body: UpdateBody) {
  const params = { ...t.params, commentId };
  return replyId === undefined
    ? api.call(t.ops.updateComment, { params, body })
    : api.call(t.ops.updateCommentReply, { params: { ...params, commentReplyId: replyId }, body });
}
