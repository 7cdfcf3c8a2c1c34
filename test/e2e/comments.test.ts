import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/inprocess.js';

const sb = useSandbox();

/** Pages in sp-welcome (from a built-in template), by path. */
async function withPages(): Promise<Record<string, string>> {
  expect((await sb.request('POST', '/v1/spaces/sp-welcome/content/template', { id: 'getting-started' })).status).toBe(204);
  const { pages } = (await sb.request('GET', '/v1/spaces/sp-welcome/content/pages')).body;
  return Object.fromEntries(pages.map((p: { path: string; id: string }) => [p.path, p.id]));
}

const ids = (list: { id: string }[]) => list.map((x) => x.id);

/** The whole discussion story, on a space's own comments or (with `cr`) on a change request's. */
async function story(scope: string[], counterOf: () => Promise<number>, pages: Record<string, string>) {
  const posted = await sb.json(['comments', 'post', 'sp-welcome', ...scope, '--page-id', 'getting-started', '-m', 'Is this still true?'], { as: 'comment' });
  expect(posted).toMatchObject({
    object: 'comment',
    status: 'open',
    replies: 0,
    repliers: [],
    reactions: [],
    body: { markdown: 'Is this still true?' },
    postedBy: { id: 'u-comment', displayName: 'Cora Commenter' },
    target: { space: 'sp-welcome', page: { id: pages['getting-started'], path: 'getting-started', title: 'Getting started', outdated: false } },
    permissions: { view: true, edit: true, reply: true, delete: true },
  });
  expect(posted).not.toHaveProperty('editedAt');
  expect(await counterOf()).toBe(1);

  // Reply, as another member; counts and repliers follow.
  const reply = await sb.json(['comments', 'reply', 'sp-welcome', posted.id, ...scope, '-m', 'Yes, checked today.'], { as: 'edit' });
  expect(reply).toMatchObject({ object: 'comment-reply', body: { markdown: 'Yes, checked today.' }, postedBy: { id: 'u-edit' } });
  const second = await sb.json(['comments', 'reply', 'sp-welcome', posted.id, ...scope, '-m', 'Thanks!'], { as: 'comment' });
  const third = await sb.json(['comments', 'reply', 'sp-welcome', posted.id, ...scope, '-m', 'Also the FAQ.'], { as: 'edit' });
  const withReplies = await sb.json(['comments', 'get', 'sp-welcome', posted.id, ...scope]);
  expect(withReplies.replies).toBe(3);
  expect(withReplies.repliers).toEqual([
    { user: expect.objectContaining({ id: 'u-edit' }), count: 2, updatedAt: third.postedAt },
    { user: expect.objectContaining({ id: 'u-comment' }), count: 1, updatedAt: second.postedAt },
  ]);
  expect(ids(await sb.json(['comments', 'replies', 'sp-welcome', posted.id, ...scope]))).toEqual([reply.id, second.id, third.id]);
  // The reply, as its author sees it and as someone else does.
  expect((await sb.json(['comments', 'get', 'sp-welcome', posted.id, ...scope, '--reply', reply.id], { as: 'edit' })).permissions).toEqual({
    view: true,
    edit: true,
    reply: true,
    delete: true,
  });
  expect((await sb.json(['comments', 'get', 'sp-welcome', posted.id, ...scope, '--reply', reply.id], { as: 'comment' })).permissions).toEqual({
    view: true,
    edit: false,
    reply: true,
    delete: false,
  });

  // React and take it back; reactions are per user and emoji.
  await sb.json(['comments', 'react', 'sp-welcome', posted.id, '👍', ...scope], { as: 'review' });
  const reacted = await sb.json(['comments', 'react', 'sp-welcome', posted.id, '👍', ...scope], { as: 'edit' });
  expect(reacted.reactions).toHaveLength(1);
  expect(reacted.reactions[0]).toMatchObject({ emoji: '👍', count: 2 });
  expect(reacted.reactions[0].users.map((u: { user: { id: string } }) => u.user.id)).toEqual(['u-review', 'u-edit']);
  const again = await sb.json(['comments', 'react', 'sp-welcome', posted.id, '👍', ...scope], { as: 'edit' });
  expect(again.reactions[0].count).toBe(2);
  const taken = await sb.json(['comments', 'unreact', 'sp-welcome', posted.id, '👍', ...scope], { as: 'review' });
  expect(taken.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
  const onReply = await sb.json(['comments', 'react', 'sp-welcome', posted.id, '🎉', ...scope, '--reply', reply.id], { as: 'comment' });
  expect(onReply.reactions).toEqual([expect.objectContaining({ emoji: '🎉', count: 1 })]);

  // Resolve (any commenter may), then reopen.
  const resolved = await sb.json(['comments', 'resolve', 'sp-welcome', posted.id, ...scope], { as: 'edit' });
  expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: 'u-edit' } });
  expect(resolved.resolvedAt).toEqual(expect.any(String));
  expect(await counterOf()).toBe(0);
  const reopened = await sb.json(['comments', 'reopen', 'sp-welcome', posted.id, ...scope], { as: 'comment' });
  expect(reopened.status).toBe('open');
  expect(reopened).not.toHaveProperty('resolvedAt');
  expect(reopened).not.toHaveProperty('resolvedBy');
  expect(await counterOf()).toBe(1);

  // Only the author (or an admin) edits.
  const edited = await sb.json(['comments', 'edit', 'sp-welcome', posted.id, ...scope, '-m', 'Is this still true in v2?'], { as: 'comment' });
  expect(edited.body.markdown).toBe('Is this still true in v2?');
  expect(edited.editedAt).toEqual(expect.any(String));
  const notMine = await sb.run(['comments', 'edit', 'sp-welcome', posted.id, ...scope, '-m', 'Hijacked'], { as: 'edit' });
  expect(notMine.exitCode).toBe(5);
  expect(notMine.stderr).toContain('only the author of a comment (or an admin of the space) may edit it');
  const replyNotMine = await sb.run(['comments', 'edit', 'sp-welcome', posted.id, ...scope, '--reply', reply.id, '-m', 'x'], { as: 'comment' });
  expect(replyNotMine.exitCode).toBe(5);
  const byAdmin = await sb.json(['comments', 'edit', 'sp-welcome', posted.id, ...scope, '--reply', reply.id, '-m', 'Yes (checked).']);
  expect(byAdmin.body.markdown).toBe('Yes (checked).');
  expect((await sb.json(['comments', 'get', 'sp-welcome', posted.id, ...scope])).body.markdown).toBe('Is this still true in v2?');

  // Who took part, as members.
  const commenters = await sb.json(['comments', 'commenters', 'sp-welcome', ...scope]);
  expect(commenters.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
    ['u-comment', 'comment'],
    ['u-edit', 'edit'],
  ]);
  expect(commenters[0]).toMatchObject({ object: 'member', user: { id: 'u-comment' }, disabled: false, sso: false, teams: 1 });

  // Delete: not by another member; by the author, with the replies.
  const refused = await sb.run(['comments', 'delete', 'sp-welcome', posted.id, ...scope, '--yes'], { as: 'edit' });
  expect(refused.exitCode).toBe(5);
  const noYes = await sb.run(['comments', 'delete', 'sp-welcome', posted.id, ...scope], { as: 'comment' });
  expect(noYes.exitCode).toBe(2);
  const deletedReply = await sb.run(['comments', 'delete', 'sp-welcome', posted.id, ...scope, '--reply', third.id, '--yes'], { as: 'edit' });
  expect(deletedReply.exitCode).toBe(0);
  expect(deletedReply.stderr).toContain(`deleted reply ${third.id} to comment ${posted.id}`);
  expect((await sb.json(['comments', 'get', 'sp-welcome', posted.id, ...scope])).replies).toBe(2);
  const deleted = await sb.run(['comments', 'delete', 'sp-welcome', posted.id, ...scope, '--yes'], { as: 'comment' });
  expect(deleted.exitCode).toBe(0);
  expect(deleted.stdout).toBe('');
  expect((await sb.run(['comments', 'get', 'sp-welcome', posted.id, ...scope])).exitCode).toBe(4);
  expect((await sb.run(['comments', 'get', 'sp-welcome', posted.id, ...scope, '--reply', reply.id])).exitCode).toBe(4);
  expect(await sb.json(['comments', 'list', 'sp-welcome', ...scope])).toEqual([]);
  expect(await counterOf()).toBe(0);
  return posted;
}

describe('comments on a space', () => {
  it('post, reply, react, resolve, edit, delete: the whole story, with the space’s counter', { timeout: 240_000 }, async () => {
    const pages = await withPages();
    const posted = await story([], async () => (await sb.request('GET', '/v1/spaces/sp-welcome')).body.comments, pages);
    expect(posted.target).not.toHaveProperty('changeRequest');
    expect(posted.urls.location).toBe(`${sb.server.url}/v1/spaces/sp-welcome/comments/${posted.id}`);
  });

  it('lists newest first by default, filters by status, page and authors, and prints TSV', async () => {
    const pages = await withPages();
    const a = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'first'], { as: 'comment' });
    const b = await sb.json(['comments', 'post', 'sp-welcome', '--page-id', 'faq', '-m', 'second'], { as: 'edit' });
    const c = await sb.json(['comments', 'post', 'sp-welcome', '--page-id', pages['getting-started'], '-m', 'third']);
    await sb.json(['comments', 'resolve', 'sp-welcome', b.id]);

    expect(ids(await sb.json(['comments', 'list', 'sp-welcome']))).toEqual([c.id, b.id, a.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--order', 'asc']))).toEqual([a.id, b.id, c.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--status', 'open']))).toEqual([c.id, a.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--status', 'resolved']))).toEqual([b.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--page-id', pages.faq]))).toEqual([b.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--authors', 'u-comment,u-edit', '--order', 'asc']))).toEqual([a.id, b.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--authors', 'u-comment', '--authors', 'u-admin']))).toEqual([c.id, a.id]);
    // The server takes the same forms: repeated, comma-separated, or both.
    const repeated = await sb.request('GET', '/v1/spaces/sp-welcome/comments?authors=u-edit&authors=u-admin,u-nobody');
    expect(ids(repeated.body.items)).toEqual([c.id, b.id]);
    expect(repeated.body.count).toBe(2);
    // No author named is no filter.
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/comments?authors=')).body.count).toBe(3);

    const tsv = await sb.run(['comments', 'list', 'sp-welcome', '--order', 'asc']);
    expect(tsv.exitCode).toBe(0);
    expect(tsv.stdout.split('\n')).toEqual([
      `${a.id}\topen\tu-comment\t${a.postedAt}\t\t0\t\tfirst`,
      `${b.id}\tresolved\tu-edit\t${b.postedAt}\tfaq\t0\t\tsecond`,
      `${c.id}\topen\tu-admin\t${c.postedAt}\tgetting-started\t0\t\tthird`,
    ]);
    const limited = await sb.run(['comments', 'list', 'sp-welcome', '--limit', '1']);
    expect(limited.stdout.split('\t')[0]).toBe(c.id);
    expect(limited.stderr).toMatch(/^showing 1 of 3 — use --all or --limit/);
  });

  it('reads the body from a file or stdin, and in document form on request', async () => {
    const file = join(sb.home, 'comment.md');
    writeFileSync(file, '# Review\n\nLooks **good**.\n');
    const fromFile = await sb.json(['comments', 'post', 'sp-welcome', '--body-file', file]);
    expect(fromFile.body.markdown).toBe('# Review\n\nLooks **good**.\n');
    const fromStdin = await sb.json(['comments', 'reply', 'sp-welcome', fromFile.id, '--body-file', '-'], { input: 'piped in' });
    expect(fromStdin.body.markdown).toBe('piped in');

    const doc = await sb.json(['comments', 'get', 'sp-welcome', fromFile.id, '--format', 'document']);
    expect(doc.body.document).toMatchObject({ object: 'document', data: { schemaVersion: 1 } });
    expect(doc.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph']);
    const listed = await sb.request('GET', `/v1/spaces/sp-welcome/comments/${fromFile.id}/replies?format=document`);
    expect(listed.body.items[0].body.document.object).toBe('document');

    // A reply posted in a change request's thread answers in document form on request, as the reads do.
    const cr = (await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'c' })).body;
    const onCr = (await sb.request('POST', `/v1/spaces/sp-welcome/change-requests/${cr.id}/comments`, { body: { markdown: 'x' } })).body;
    const replies = `/v1/spaces/sp-welcome/change-requests/${cr.id}/comments/${onCr.id}/replies`;
    const asDocument = await sb.request('POST', `${replies}?format=document`, { body: { markdown: '**Agreed**' } });
    expect(asDocument.status, JSON.stringify(asDocument.body)).toBe(201);
    expect(asDocument.body.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['paragraph']);
    expect(asDocument.body.body.markdown).toBeUndefined();
    const asMarkdown = await sb.request('POST', `${replies}?format=markdown`, { body: { markdown: 'ok' } });
    expect(asMarkdown.body.body).toEqual({ markdown: 'ok' });
    // The space's reply post takes no query, as in the official document.
    const onSpace = await sb.request('POST', `/v1/spaces/sp-welcome/comments/${fromFile.id}/replies?format=document`, { body: { markdown: 'no' } });
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toBe('query: unknown field "format"');

    // Rich text, from a file: stored as the Markdown it reads as.
    const rich = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-1', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Rich', marks: [] }] }] },
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] }] }],
        },
      ],
    };
    const docFile = join(sb.home, 'comment.json');
    writeFileSync(docFile, JSON.stringify(rich));
    const fromDoc = await sb.json(['comments', 'post', 'sp-welcome', '--document-file', docFile]);
    expect(fromDoc.body.markdown).toBe('# Rich\n\n**bold**\n');
    const asDoc = await sb.json(['comments', 'get', 'sp-welcome', fromDoc.id, '--format', 'document']);
    expect(asDoc.body.document.nodes.map((n: { type: string }) => n.type)).toEqual(['heading-1', 'paragraph']);
    // the whole body form too, and a reply or an edit the same way, from stdin
    const replied = await sb.json(['comments', 'reply', 'sp-welcome', fromDoc.id, '--document-file', '-'], { input: JSON.stringify({ document: rich }) });
    expect(replied.body.markdown).toBe('# Rich\n\n**bold**\n');
    const edited = await sb.json(['comments', 'edit', 'sp-welcome', fromDoc.id, '--document-file', '-'], {
      input: JSON.stringify({ ...rich, nodes: rich.nodes.slice(1) }),
    });
    expect(edited).toMatchObject({ body: { markdown: '**bold**\n' }, editedAt: expect.any(String) });
    const notDoc = await sb.run(['comments', 'post', 'sp-welcome', '--document-file', '-'], { input: '{"markdown": "x"}' });
    expect(notDoc.exitCode).toBe(2);
    expect(notDoc.stderr).toContain('--document-file: expected a rich-text document');
    const docAndBody = await sb.run(['comments', 'post', 'sp-welcome', '--document-file', docFile, '-m', 'x']);
    expect(docAndBody.exitCode).toBe(2);
    expect(docAndBody.stderr).toContain('--document-file and --body cannot be used together');

    const both = await sb.run(['comments', 'post', 'sp-welcome', '-m', 'x', '--body-file', file]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--body and --body-file cannot be used together');
    const none = await sb.run(['comments', 'post', 'sp-welcome']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('missing --body');
  });

  it('rejects bad input before sending (exit 2), the server the same with 400, and nothing changes', async () => {
    const c = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'keep'], { as: 'comment' });
    await sb.json(['comments', 'react', 'sp-welcome', c.id, '👍'], { as: 'comment' });

    // Blank text is the document's to take and the sandbox's to refuse: sent, then a 400.
    const empty = await sb.run(['comments', 'post', 'sp-welcome', '-m', '   ']);
    expect(empty.exitCode).toBe(1);
    expect(empty.stderr).toContain('body: must not be empty');
    const emptyEdit = await sb.run(['comments', 'edit', 'sp-welcome', c.id, '-m', ''], { as: 'comment' });
    expect(emptyEdit.exitCode).toBe(1);
    // (a blank argument is refused by the CLI itself, as any blank argument is)
    const blankReaction = await sb.run(['comments', 'react', 'sp-welcome', c.id, ' ']);
    expect(blankReaction.exitCode).toBe(2);
    expect(blankReaction.stderr).toContain('<emoji>: must not be empty');
    const status = await sb.run(['comments', 'list', 'sp-welcome', '--status', 'closed']);
    expect(status.exitCode).toBe(2);
    const missingPage = await sb.run(['comments', 'post', 'sp-welcome', '--page-id', 'no/such/page', '-m', 'x']);
    expect(missingPage.exitCode).toBe(4);
    expect(missingPage.stderr).toContain('--page-id: no page "no/such/page" in space sp-welcome');

    // What only the server can tell: a reaction the caller never added.
    const never = await sb.run(['comments', 'unreact', 'sp-welcome', c.id, '🎉'], { as: 'comment' });
    expect(never.exitCode).toBe(1);
    expect(never.stderr).toContain('removedReactions: you have not reacted with 🎉 to this comment');
    const othersReaction = await sb.run(['comments', 'unreact', 'sp-welcome', c.id, '👍'], { as: 'edit' });
    expect(othersReaction.exitCode).toBe(1);

    const put = (body: unknown) => sb.request('PUT', `/v1/spaces/sp-welcome/comments/${c.id}`, body, 'comment');
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: ' \n ' } })).body).toEqual({
      error: { code: 400, message: 'body: must not be empty (give markdown or a document with text)' },
    });
    // The official document's empty body form, and a document without text: nothing to post.
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: {} })).body.error.message).toBe(
      'body: must not be empty (give markdown or a document with text)',
    );
    expect(
      (await sb.request('POST', `/v1/spaces/sp-welcome/comments/${c.id}/replies`, { body: { document: { object: 'document', data: {}, nodes: [] } } })).status,
    ).toBe(400);
    expect((await put({ body: {} })).body.error.message).toBe('body: must not be empty (give markdown or a document with text)');
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: 'x'.repeat(65_537) } })).body.error.message).toBe(
      'body: must be at most 65536 characters of Markdown (got 65537)',
    );
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/comments', {})).body.error.message).toBe('body: is required');
    expect((await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: 'x' }, page: 'nope' })).body.error.message).toBe(
      'page: no page nope in space sp-welcome',
    );
    expect((await put({ addedReactions: ['👍', ''] })).body.error.message).toBe(
      'addedReactions.1: must not be blank (an emoji such as 👍, or a name such as :+1:)',
    );
    // All or nothing: a good body with a bad reaction removal changes neither.
    const mixed = await put({ body: { markdown: 'changed' }, resolved: true, addedReactions: ['🎉'], removedReactions: ['❤️'] });
    expect(mixed.status).toBe(400);
    expect((await put({ addedReactions: ['🎉'], removedReactions: ['🎉'] })).body.error.message).toContain('cannot be both added and removed');
    expect((await put({ resolved: 'yes' })).status).toBe(400);

    const now = (await sb.request('GET', `/v1/spaces/sp-welcome/comments/${c.id}`)).body;
    expect(now).toMatchObject({ status: 'open', body: { markdown: 'keep' } });
    expect(now.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome/comments')).body.count).toBe(1);
  });

  it('takes any reaction the official document allows: emoji of every kind, names such as :+1:, empty lists', async () => {
    const c = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'emoji'], { as: 'comment' });
    const emoji = ['👍🏽', '❤️', '👩‍💻', '👨‍👩‍👧', '🇫🇷', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1️⃣', '✅'];
    const r = await sb.request('PUT', `/v1/spaces/sp-welcome/comments/${c.id}`, { addedReactions: emoji }, 'comment');
    expect(r.status).toBe(200);
    expect(r.body.reactions.map((x: { emoji: string }) => x.emoji)).toEqual(emoji);

    // A name is its own reaction, beside the emoji it stands for.
    const named = await sb.json(['comments', 'react', 'sp-welcome', c.id, ':+1:'], { as: 'edit' });
    expect(named.reactions.at(-1)).toMatchObject({ emoji: ':+1:', count: 1, users: [{ user: { id: 'u-edit' } }] });
    const thumbs = await sb.json(['comments', 'react', 'sp-welcome', c.id, '👍'], { as: 'edit' });
    expect(thumbs.reactions.filter((x: { emoji: string }) => x.emoji === ':+1:' || x.emoji === '👍')).toHaveLength(2);
    expect(
      (await sb.json(['comments', 'unreact', 'sp-welcome', c.id, ':+1:'], { as: 'edit' })).reactions.some((x: { emoji: string }) => x.emoji === ':+1:'),
    ).toBe(false);
    // Empty lists change nothing.
    const before = (await sb.request('GET', `/v1/spaces/sp-welcome/comments/${c.id}`)).body;
    const none = await sb.request('PUT', `/v1/spaces/sp-welcome/comments/${c.id}`, { addedReactions: [], removedReactions: [] }, 'comment');
    expect(none).toEqual({ status: 200, body: before });
  });

  it('checks roles: read cannot comment (exit 5), guests and outsiders see nothing', async () => {
    const c = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'hello'], { as: 'comment' });
    const read = await sb.run(['comments', 'post', 'sp-welcome', '-m', 'me too'], { as: 'read' });
    expect(read.exitCode).toBe(5);
    expect(read.stderr).toContain('commenting needs the comment role or above on space sp-welcome');
    expect((await sb.run(['comments', 'reply', 'sp-welcome', c.id, '-m', 'me too'], { as: 'read' })).exitCode).toBe(5);
    expect((await sb.run(['comments', 'react', 'sp-welcome', c.id, '👍'], { as: 'read' })).exitCode).toBe(5);
    expect((await sb.run(['comments', 'resolve', 'sp-welcome', c.id], { as: 'read' })).exitCode).toBe(5);
    const seen = await sb.json(['comments', 'list', 'sp-welcome'], { as: 'read' });
    expect(seen[0].permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect((await sb.json(['comments', 'list', 'sp-welcome'], { as: 'admin' }))[0].permissions).toEqual({ view: true, edit: true, reply: true, delete: true });

    expect((await sb.run(['comments', 'list', 'sp-welcome'], { as: 'guest' })).exitCode).toBe(5);
    expect((await sb.run(['comments', 'list', 'sp-welcome'], { as: 'outsider' })).exitCode).toBe(4);
    // A missing comment deletes as 204 (nothing to do); a missing space is still 404.
    expect((await sb.request('DELETE', '/v1/spaces/sp-welcome/comments/nope')).status).toBe(204);
    expect((await sb.request('DELETE', '/v1/spaces/no-space/comments/nope')).status).toBe(404);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.comments).toBe(1);
  });

  it('drops comments and change requests of a space purged after its 7 days in the trash', async () => {
    const space = (await sb.request('POST', '/v1/orgs/org-acme/spaces', { title: 'Doomed' })).body;
    const cr = (await sb.request('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const onSpace = (await sb.request('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'a' } })).body;
    const onCr = (await sb.request('POST', `/v1/spaces/${space.id}/change-requests/1/comments`, { body: { markdown: 'b' } })).body;
    await sb.request('POST', `/v1/spaces/${space.id}/comments/${onSpace.id}/replies`, { body: { markdown: 'c' } });
    const kept = (await sb.request('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown: 'kept' } })).body;

    const slices = async () => {
      const state = (await sb.request('GET', '/_sandbox/state')).body.data.slices.$map as [string, any][];
      return Object.fromEntries(state);
    };
    const dump = () => slices().then((s) => JSON.stringify(s));
    for (const id of [space.id, cr.id, onSpace.id, onCr.id, kept.id]) expect(await dump()).toContain(id);

    expect((await sb.request('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    await sb.request('POST', '/_sandbox/clock', { advance: '8d' });
    const after = await dump();
    for (const id of [cr.id, onSpace.id, onCr.id]) expect(after).not.toContain(id);
    expect(after).toContain(kept.id);
    expect((await slices()).comments.replies.$map).toEqual([]);
  });
});

describe('comments on a change request', () => {
  it('the same story with --cr N, counted on the change request, not on the space', { timeout: 240_000 }, async () => {
    const pages = await withPages();
    // The change request branches from the space's content: its pages are the space's.
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Review me'], { as: 'edit' });
    const counter = async () => (await sb.request('GET', `/v1/spaces/sp-welcome/change-requests/${cr.id}`)).body.comments;
    const posted = await story(['--cr', String(cr.number)], counter, pages);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.comments).toBe(0);
    expect(posted.target.changeRequest).toBe(cr.id);
    expect(posted.urls.location).toBe(`${sb.server.url}/v1/spaces/sp-welcome/change-requests/${cr.id}/comments/${posted.id}`);
  });

  it('--page names a page of the change request’s own content, even one the space does not have', async () => {
    // The change request adds the template's pages; the space has none.
    const created = await sb.request('POST', '/v1/spaces/sp-welcome/change-requests', { subject: 'New guide', template: { id: 'getting-started' } });
    expect(created.status).toBe(201);
    const cr = created.body;
    const { pages } = (await sb.request('GET', `/v1/spaces/sp-welcome/change-requests/${cr.id}/content/pages`)).body;
    const page = pages.find((p: { path: string }) => p.path === 'getting-started');
    expect(page).toBeDefined();
    expect((await sb.run(['comments', 'post', 'sp-welcome', '--page-id', 'getting-started', '-m', 'on the space'])).exitCode).toBe(4);
    const posted = await sb.json(['comments', 'post', 'sp-welcome', '--cr', String(cr.number), '--page-id', 'getting-started', '-m', 'on the CR']);
    expect(posted.target.page.id).toBe(page.id);
  });

  it('keeps the two discussions apart, and resolves replies (change requests only)', async () => {
    const cr = await sb.json(['cr', 'create', 'sp-welcome', '--subject', 'Review me']);
    const onSpace = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'space'], { as: 'comment' });
    const onCr = await sb.json(['comments', 'post', 'sp-welcome', '--cr', '1', '-m', 'change request'], { as: 'comment' });
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome']))).toEqual([onSpace.id]);
    expect(ids(await sb.json(['comments', 'list', 'sp-welcome', '--cr', cr.id]))).toEqual([onCr.id]);
    expect((await sb.run(['comments', 'get', 'sp-welcome', onCr.id])).exitCode).toBe(4);
    expect((await sb.run(['comments', 'get', 'sp-welcome', onSpace.id, '--cr', '1'])).exitCode).toBe(4);
    expect((await sb.request('GET', '/v1/spaces/sp-welcome')).body.comments).toBe(1);
    expect((await sb.json(['cr', 'get', 'sp-welcome', '1'])).comments).toBe(1);

    const reply = await sb.json(['comments', 'reply', 'sp-welcome', onCr.id, '--cr', '1', '-m', 'fixed'], { as: 'edit' });
    expect(reply).not.toHaveProperty('status');
    const resolved = await sb.json(['comments', 'resolve', 'sp-welcome', onCr.id, '--cr', '1', '--reply', reply.id], { as: 'comment' });
    expect(resolved).toMatchObject({ object: 'comment-reply', status: 'resolved', resolvedBy: { id: 'u-comment' } });
    const reopened = await sb.json(['comments', 'reopen', 'sp-welcome', onCr.id, '--cr', '1', '--reply', reply.id]);
    expect(reopened.status).toBe('open');

    const spaceReply = await sb.json(['comments', 'reply', 'sp-welcome', onSpace.id, '-m', 'ok']);
    const refused = await sb.run(['comments', 'resolve', 'sp-welcome', onSpace.id, '--reply', spaceReply.id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--reply: only replies to a change request’s comments can be resolved');
    const server = await sb.request('PUT', `/v1/spaces/sp-welcome/comments/${onSpace.id}/replies/${spaceReply.id}`, { resolved: true });
    expect(server.status).toBe(400);
    expect(server.body.error.message).toBe('body: unknown field "resolved"');

    expect((await sb.run(['comments', 'list', 'sp-welcome', '--cr', '9'])).exitCode).toBe(4);
    const readOnly = await sb.run(['comments', 'post', 'sp-welcome', '--cr', '1', '-m', 'x'], { as: 'read' });
    expect(readOnly.exitCode).toBe(5);
  });
});

describe('issue 15: comments', () => {
  it('the page a comment is about is --page-id in post and list; the old --page and --target-page still work', async () => {
    const pages = await withPages();
    const posted = await sb.json(['comments', 'post', 'sp-welcome', '--page-id', 'faq', '-m', 'new name']);
    expect(posted.target.page.id).toBe(pages.faq);
    const old = await sb.run(['comments', 'post', 'sp-welcome', '--page', 'faq', '-m', 'old name', '--json']);
    expect(old.exitCode).toBe(0);
    expect(JSON.parse(old.stdout).target.page.id).toBe(pages.faq);
    expect(old.stderr).toContain('warning: --page is deprecated here, use --page-id (--page is the paging cursor of lists)');
    const both = await sb.run(['comments', 'post', 'sp-welcome', '--page', 'faq', '--page-id', 'faq', '-m', 'x']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--page-id and --page cannot be used together');

    await sb.json(['comments', 'post', 'sp-welcome', '-m', 'about the space']);
    const listed = await sb.json(['comments', 'list', 'sp-welcome', '--page-id', pages.faq]);
    expect(listed).toHaveLength(2);
    expect(await sb.json(['comments', 'list', 'sp-welcome', '--target-page', pages.faq])).toEqual(listed);
    const help = (await sb.run(['comments', 'list', '--help'])).stdout;
    expect(help).toContain('--page-id <page>');
    expect(help).toContain('--page <cursor>');
    expect(help).not.toContain('--target-page');
  });

  it('post and reply without a body off a terminal are usage errors naming the flags; nothing is sent', async () => {
    const c = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'first']);
    const post = await sb.run(['comments', 'post', 'sp-welcome'], { env: { EDITOR: 'false' } });
    expect(post).toMatchObject({ exitCode: 2, stdout: '' });
    expect(post.stderr).toContain('missing --body');
    expect(post.stderr).toContain('opens your editor, on a terminal only');
    const reply = await sb.run(['comments', 'reply', 'sp-welcome', c.id]);
    expect(reply.exitCode).toBe(2);
    expect(reply.stderr).toContain('missing --body');
    expect(await sb.json(['comments', 'replies', 'sp-welcome', c.id])).toEqual([]);
  });

  it('delete without --yes names the comment by the start of its text and its id', async () => {
    const c = await sb.json(['comments', 'post', 'sp-welcome', '-m', 'Is the install guide still true on Windows 11 and later versions?']);
    const r = await sb.run(['comments', 'delete', 'sp-welcome', c.id]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`Delete comment "Is the install guide still true on Wind…" (${c.id}) and its replies?`);
  });
});
