/** How comments, replies and commenters show in tables, key/value lines, and threads on a terminal. */
import type { Context } from '../../cli/context.js';
import { colours, withExtras, type Column } from '../../cli/output.js';
import type { Comment, CommentReply } from '../../contract/comments.js';
import type { Member } from '../../contract/members.js';

type Post = Comment | CommentReply;

const markdownOf = (p: Post) => ('markdown' in p.body ? p.body.markdown : undefined);
/** `👍 2, 🎉 1` */
const reactionsOf = (p: Post) => p.reactions.map((r) => `${r.emoji} ${r.count}`).join(', ');
const pageOf = (p: Post) => (p.object === 'comment' ? (p.target.page?.path ?? p.target.page?.id) : undefined);

const postedBy: Column<Post> = { key: 'postedBy', value: (p) => p.postedBy.id };
const body: Column<Post> = { key: 'body', value: markdownOf };
const reactions: Column<Post> = { key: 'reactions', value: reactionsOf };

/** For a comment or a reply (a reply has no page nor replies). */
export const postFields: Column<Post>[] = [
  'id',
  'status',
  postedBy,
  'postedAt',
  'editedAt',
  { key: 'page', value: pageOf },
  'replies',
  reactions,
  { key: 'resolvedBy', value: (p) => p.resolvedBy?.id },
  'resolvedAt',
  body,
];
export const commentColumns: Column<Comment>[] = withExtras(
  ['id', 'status', postedBy, 'postedAt', { key: 'page', value: pageOf }, 'replies', reactions, body],
  postFields,
);
export const replyColumns: Column<CommentReply>[] = withExtras(['id', postedBy, 'postedAt', reactions, body], postFields);
export const commenterColumns: Column<Member>[] = [
  'id',
  { key: 'role', value: (m) => m.role ?? 'guest' },
  { key: 'displayName', value: (m) => m.user.displayName },
  { key: 'email', value: (m) => m.user.email },
  { key: 'sites', value: (m) => m.sites, extra: true },
];

export interface Thread {
  comment: Comment;
  replies: CommentReply[];
}

/** Threads as a terminal shows them: each comment, then its replies indented under it. */
export async function renderThreads(threads: Thread[], ctx: Context): Promise<string> {
  const { paint } = await colours(ctx);
  const head = (p: Post, extra: (string | undefined)[]) =>
    [paint.key(p.postedBy.displayName), paint.dim(p.postedAt), ...extra, reactionsOf(p) || undefined].filter(Boolean).join(' · ') + paint.dim(`  ${p.id}`);
  const text = (p: Post, indent: string) =>
    (markdownOf(p) ?? '')
      .trimEnd()
      .split('\n')
      .map((l) => indent + l)
      .join('\n');
  return (
    threads
      .map(({ comment: c, replies }) => {
        const page = pageOf(c);
        const status = c.status === 'resolved' ? paint.ok('resolved') : undefined;
        const lines = [head(c, [status, page ? `on ${page}` : undefined]), text(c, '  ')];
        for (const r of replies) lines.push(`  ↳ ${head(r, [r.status === 'resolved' ? paint.ok('resolved') : undefined])}`, text(r, '      '));
        return lines.join('\n');
      })
      .join('\n\n') + '\n'
  );
}
