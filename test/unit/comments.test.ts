import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/cli/context.js';
import { renderThreads, type Thread } from '../../src/commands/comments/columns.js';
import { isEmoji } from '../../src/contract/comments.js';

describe('isEmoji: one emoji grapheme', () => {
  it.each([
    '👍', '🎉', '❤️', '❤', '✅', '👍🏽', '👩‍💻', '👨‍👩‍👧', '🏳️‍🌈', '🇫🇷', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1️⃣', '#️⃣', '©️',
  ])('accepts %s', (e) => expect(isEmoji(e)).toBe(true));

  it.each([
    '', ' ', 'a', '1', ':+1:', 'thumbsup', '👍👍', '👍 ', ' 👍', '👍a', '\u200D', '\uFE0F', '👩‍', 'x\u20E3',
  ])('rejects %j', (e) => expect(isEmoji(e)).toBe(false));
});

describe('renderThreads', () => {
  const user = (id: string, displayName: string) => ({ object: 'user' as const, id, displayName, urls: { location: '' } });
  const base = { reactions: [], urls: {}, permissions: {} };
  const threads: Thread[] = [{
    comment: {
      ...base, object: 'comment', id: 'c1', postedBy: user('u1', 'Cora'), postedAt: '2026-01-01T10:00:00.000Z',
      status: 'resolved', replies: 1, repliers: [], body: { markdown: 'Line one\nline two\n' },
      target: { space: 's', page: { id: 'p', path: 'guides/install' } },
      reactions: [{ emoji: '👍', count: 2, users: [] }],
    },
    replies: [{
      ...base, object: 'comment-reply', id: 'r1', postedBy: user('u2', 'Ed'), postedAt: '2026-01-01T11:00:00.000Z',
      body: { markdown: 'Done.' },
    }],
  }, {
    comment: {
      ...base, object: 'comment', id: 'c2', postedBy: user('u2', 'Ed'), postedAt: '2026-01-02T09:00:00.000Z',
      status: 'open', replies: 0, repliers: [], body: { markdown: 'Second' }, target: { space: 's' },
    },
    replies: [],
  }];

  it('shows each comment, then its replies indented under it', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} };
    const ctx = new Context({ verbose: false, interactive: false, color: false }, io);
    expect(await renderThreads(threads, ctx)).toBe([
      'Cora · 2026-01-01T10:00:00.000Z · resolved · on guides/install · 👍 2  c1',
      '  Line one',
      '  line two',
      '  ↳ Ed · 2026-01-01T11:00:00.000Z  r1',
      '      Done.',
      '',
      'Ed · 2026-01-02T09:00:00.000Z  c2',
      '  Second',
      '',
    ].join('\n'));
  });
});
