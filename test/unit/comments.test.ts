import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { renderThreads, type Thread } from '../../src/commands/comments/columns.js';
import { CommentBody, ListCommentsQuery, UpdateCommentBody } from '../../src/contract/comments.js';

describe('the comment bodies the official document accepts', () => {
  const doc = {
    object: 'document',
    data: {},
    nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi', marks: [] }] }] }],
  };

  it.each([
    ['Markdown', { markdown: 'Is this *still* true?' }],
    ['empty Markdown (the sandbox refuses it, the schema does not)', { markdown: '' }],
    ['rich text', { document: doc }],
    ['rich text with a schema version', { document: { ...doc, data: { schemaVersion: 1 } } }],
    ['nothing (the official "Empty" form)', {}],
  ])('takes %s', (_, body) => expect(CommentBody.safeParse(body).success).toBe(true));

  it.each([
    ['both forms at once', { markdown: 'a', document: doc }],
    ['an unknown field', { text: 'a' }],
    ['a document that is not one', { document: { object: 'block', nodes: [] } }],
  ])('refuses %s', (_, body) => expect(CommentBody.safeParse(body).success).toBe(false));

  it('takes any reaction text, and empty lists of reactions', () => {
    for (const reaction of ['👍', ':+1:', 'thumbsup', '👍👍', '👩‍💻', 'a']) {
      expect(UpdateCommentBody.safeParse({ addedReactions: [reaction], removedReactions: [] }).success, reaction).toBe(true);
    }
    expect(UpdateCommentBody.safeParse({ addedReactions: [] }).success).toBe(true);
    expect(UpdateCommentBody.safeParse({ addedReactions: [1] }).success).toBe(false);
  });

  it('reads authors repeated or comma-separated; an empty list is no filter', () => {
    expect(ListCommentsQuery.parse({ authors: ['u-a', 'u-b,u-c'] }).authors).toEqual(['u-a', 'u-b', 'u-c']);
    expect(ListCommentsQuery.parse({ authors: '' }).authors).toEqual([]);
    expect(ListCommentsQuery.parse({ authors: [] }).authors).toEqual([]);
  });
});

describe('renderThreads', () => {
  const user = (id: string, displayName: string) => ({ object: 'user' as const, id, displayName, urls: { location: '' } });
  const base = { reactions: [], urls: {}, permissions: {} };
  const threads: Thread[] = [
    {
      comment: {
        ...base,
        object: 'comment',
        id: 'c1',
        postedBy: user('u1', 'Cora'),
        postedAt: '2026-01-01T10:00:00.000Z',
        status: 'resolved',
        replies: 1,
        repliers: [],
        body: { markdown: 'Line one\nline two\n' },
        target: { space: 's', page: { id: 'p', path: 'guides/install' } },
        reactions: [{ emoji: '👍', count: 2, users: [] }],
      },
      replies: [
        {
          ...base,
          object: 'comment-reply',
          id: 'r1',
          postedBy: user('u2', 'Ed'),
          postedAt: '2026-01-01T11:00:00.000Z',
          body: { markdown: 'Done.' },
        },
      ],
    },
    {
      comment: {
        ...base,
        object: 'comment',
        id: 'c2',
        postedBy: user('u2', 'Ed'),
        postedAt: '2026-01-02T09:00:00.000Z',
        status: 'open',
        replies: 0,
        repliers: [],
        body: { markdown: 'Second' },
        target: { space: 's' },
      },
      replies: [],
    },
  ];

  it('shows each comment, then its replies indented under it', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} };
    const ctx = new Context({ verbose: false, interactive: false, color: false }, io);
    expect(await renderThreads(threads, ctx)).toBe(
      [
        'Cora · 2026-01-01T10:00:00.000Z · resolved · on guides/install · 👍 2  c1',
        '  Line one',
        '  line two',
        '  ↳ Ed · 2026-01-01T11:00:00.000Z  r1',
        '      Done.',
        '',
        'Ed · 2026-01-02T09:00:00.000Z  c2',
        '  Second',
        '',
      ].join('\n'),
    );
  });
});
