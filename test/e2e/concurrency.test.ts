/**
 * Concurrent writes keep the invariants, over real sockets: change-request numbers, the order of a
 * site's sections, groups and site spaces, reaction counts, and the CLI's config file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { prng } from '../../src/server/faults.js';
import { defaultSeed } from '../../src/server/seed.js';
import { docsctl, useSandbox } from '../helpers/cli.js';

/** Readers of the comment thread: the default members plus this many users with the comment role. */
const EXTRA_COMMENTERS = 25;
const seed = defaultSeed('concurrency-admin-token');
for (let i = 0; i < EXTRA_COMMENTERS; i++) {
  seed.users.push({ id: `u-c${i}`, displayName: `Commenter ${i}`, email: `c${i}@acme.test`, token: `commenter-token-${i}` });
  seed.members.push({ organization: 'org-acme', user: `u-c${i}`, role: 'comment' });
}
const sb = useSandbox({ seed });
const agent = new Agent({ connections: 64, pipelining: 0 });
afterAll(() => agent.close());

const tokenOf = (userId: string) => seed.users.find((u) => u.id === userId)!.token;

async function call(method: string, path: string, body?: unknown, token = seed.users[0].token) {
  const r = await request(`${sb.server.url}/v1${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function ok(method: string, path: string, body?: unknown, token?: string) {
  const r = await call(method, path, body, token);
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

describe('concurrent writes', () => {
  it('200 parallel change-request creations in one space get the numbers 1..200, each once', async () => {
    const editors = ['u-admin', 'u-create', 'u-review', 'u-edit'];
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call('POST', '/spaces/sp-welcome/change-requests', { subject: `Parallel ${i}` }, tokenOf(editors[i % editors.length])),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(200).fill(201));
    expect(created.map((r) => r.json.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(created.map((r) => r.json.id)).size).toBe(200);

    const listed = await ok('GET', '/spaces/sp-welcome/change-requests?status=draft&limit=1000');
    expect(listed.count).toBe(200);
    expect(new Set(listed.items.map((cr: { subject: string }) => cr.subject))).toEqual(new Set(created.map((r) => r.json.subject)));
    const space = await ok('GET', '/spaces/sp-welcome');
    expect(space).toMatchObject({ changeRequests: 200, changeRequestsDraft: 200 });
    // Each number resolves to the change request that got it.
    const byNumber = await Promise.all([1, 77, 200].map((n) => ok('GET', `/spaces/sp-welcome/change-requests/${n}`)));
    for (const cr of byNumber) expect(created.find((r) => r.json.number === cr.number)!.json.id).toBe(cr.id);
  });

  it('parallel moves of sections, groups and site spaces keep every item exactly once, in a valid tree', async () => {
    const site = await ok('POST', '/orgs/org-acme/sites', { title: 'Moves', spaces: ['sp-welcome'] });
    const base = `/orgs/org-acme/sites/${site.id}`;
    // Created one by one: the set-up is not what is tested.
    for (let i = 0; i < 10; i++) await ok('POST', `${base}/sections`, { spaceId: 'sp-welcome', title: `Section ${i}` });
    const sections: string[] = (await ok('GET', `${base}/sections?limit=1000`)).items.map((s: { id: string }) => s.id);
    const groups: string[] = [];
    for (let i = 0; i < 3; i++) groups.push((await ok('POST', `${base}/section-groups`, { title: `Group ${i}`, sections: [sections[i * 2]] })).id);
    const first = sections[0];
    for (let i = 0; i < 7; i++) await ok('POST', `${base}/site-spaces`, { spaceId: 'sp-welcome', sectionId: first });
    const siteSpaces: string[] = (await ok('GET', `${base}/sections?limit=1000`)).items
      .find((s: { id: string }) => s.id === first)
      .siteSpaces.map((ss: { id: string }) => ss.id);
    expect(siteSpaces.length).toBe(8);

    const random = prng(20260101);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const side = () => (random() < 0.5 ? 'before' : 'after');
    const moves = Array.from({ length: 150 }, (_, i) => {
      if (i % 3 === 0) {
        return call('POST', `${base}/site-spaces/${pick(siteSpaces)}/move`, { position: { [side()]: { type: 'site-space', siteSpace: pick(siteSpaces) } } });
      }
      const anchor = pick([...sections, ...groups]);
      if (i % 3 === 1)
        return call('POST', `${base}/sections/${pick(sections)}/move`, { position: { [side()]: { type: 'site-section', siteSection: anchor } } });
      return call('POST', `${base}/section-groups/${pick(groups)}/move`, { position: { [side()]: { type: 'site-section', id: anchor } } });
    });
    const answers = await Promise.all(moves);
    // Some moves are refused (an item relative to itself, a group into itself): never a 5xx.
    for (const a of answers) expect([200, 400]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(75);

    const published = await ok('GET', `${base}/published`);
    const seenSections: string[] = [];
    const seenGroups: string[] = [];
    const walk = (items: { object: string; id: string; children?: unknown[]; sectionGroup?: string }[], parent?: string) => {
      for (const item of items) {
        expect(item.sectionGroup, `${item.id} is listed under ${parent ?? 'the root'}`).toBe(parent);
        if (item.object === 'site-section-group') {
          seenGroups.push(item.id);
          walk(item.children as typeof items, item.id);
        } else {
          seenSections.push(item.id);
        }
      }
    };
    walk(published.structure.structure);
    expect(seenSections.sort()).toEqual([...sections].sort());
    expect(seenGroups.sort()).toEqual([...groups].sort());
    const listed = (await ok('GET', `${base}/sections?limit=1000`)).items;
    expect(listed.map((s: { id: string }) => s.id).sort()).toEqual([...sections].sort());
    expect(
      listed
        .find((s: { id: string }) => s.id === first)
        .siteSpaces.map((ss: { id: string }) => ss.id)
        .sort(),
    ).toEqual([...siteSpaces].sort());
  });

  it('parallel reaction adds and removes keep every count equal to the users listed', async () => {
    const comment = await ok('POST', '/spaces/sp-welcome/comments', { body: { markdown: 'React to me' } });
    const url = `/spaces/sp-welcome/comments/${comment.id}`;
    const users = ['u-admin', 'u-create', 'u-review', 'u-edit', 'u-comment', ...Array.from({ length: EXTRA_COMMENTERS }, (_, i) => `u-c${i}`)];
    const emojis = ['👍', '🎉', '❤️', '👀'];
    const random = prng(7);
    // Each user toggles reactions one request after the other (so each request is valid), all users at once.
    const expected = new Map(emojis.map((e) => [e, new Set<string>()]));
    const chains = users.map((user) => {
      const steps: { added?: string[]; removed?: string[] }[] = [];
      const mine = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const emoji = emojis[Math.floor(random() * emojis.length)];
        if (mine.has(emoji)) {
          mine.delete(emoji);
          steps.push({ removed: [emoji] });
        } else {
          mine.add(emoji);
          steps.push({ added: [emoji] });
        }
      }
      for (const e of mine) expected.get(e)!.add(user);
      return (async () => {
        for (const s of steps) {
          const r = await call(
            'PUT',
            url,
            { ...(s.added ? { addedReactions: s.added } : {}), ...(s.removed ? { removedReactions: s.removed } : {}) },
            tokenOf(user),
          );
          expect(r.status, JSON.stringify(r.json)).toBe(200);
        }
      })();
    });
    await Promise.all(chains);
    const after = await ok('GET', url);
    const got = new Map<string, string[]>(
      after.reactions.map((r: { emoji: string; users: { user: { id: string } }[] }) => [r.emoji, r.users.map((u) => u.user.id)]),
    );
    for (const r of after.reactions) expect(r.count).toBe(r.users.length);
    for (const [emoji, who] of expected) {
      expect([...(got.get(emoji) ?? [])].sort(), emoji).toEqual([...who].sort());
    }

    // The same add sent three times at once by everyone: each user is listed once.
    await Promise.all(users.flatMap((user) => [0, 1, 2].map(() => call('PUT', url, { addedReactions: ['🚀'] }, tokenOf(user)))));
    const rocket = (await ok('GET', url)).reactions.find((r: { emoji: string }) => r.emoji === '🚀');
    expect(rocket.count).toBe(users.length);
    expect(new Set(rocket.users.map((u: { user: { id: string } }) => u.user.id)).size).toBe(users.length);
  });

  it('parallel auth logins neither corrupt the config file nor lose a profile', async () => {
    const who = ['admin', 'read', 'edit', 'comment'];
    const file = join(sb.home, 'config.json');
    const expected: Record<string, unknown> = {};
    for (let round = 0; round < 2; round++) {
      const names = who.map((w) => `r${round}-${w}`);
      const runs = await Promise.all(
        who.map((w, i) =>
          docsctl(
            ['--profile', names[i], 'auth', 'login', '--api-url', sb.server.url, '--org', 'org-acme', '--with-token'],
            { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home },
            { input: `${sb.token(w)}\n` },
          ),
        ),
      );
      for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
      who.forEach((w, i) => (expected[names[i]] = { apiUrl: sb.server.url, token: sb.token(w), org: 'org-acme', user: expect.any(String) }));
      // Whole JSON, every login of every round in it, each profile exactly what its login saved.
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved.profiles).toEqual(expected);
      expect(names).toContain(saved.currentProfile);
      expect(existsSync(`${file}.lock`)).toBe(false);
    }
    // Parallel logouts too.
    const outs = await Promise.all(
      Object.keys(expected).map((name) => docsctl(['--profile', name, 'auth', 'logout'], { HOME: sb.home, DOCSCTL_CONFIG_DIR: sb.home })),
    );
    for (const r of outs) expect(r.exitCode, r.stderr).toBe(0);
    const left = JSON.parse(readFileSync(file, 'utf8')).profiles;
    expect(Object.keys(left).sort()).toEqual(Object.keys(expected).sort());
    for (const profile of Object.values(left)) expect(profile).toEqual({ apiUrl: sb.server.url, org: 'org-acme', user: expect.any(String) });
  });
});
