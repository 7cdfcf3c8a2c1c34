/**
 * `serve --data` in process (the sandbox on a socket, its real SQLite database): a write that cannot
 * be saved is not made (503, memory and disk agree), deep user content never breaks the export or
 * later writes, and background work (a purge after 7 days) is saved like a request's.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/server/limits.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';

const dir = mkdtempSync(join(tmpdir(), 'docsctl-storage-'));
const TOKEN = 'storage-token-1';
const open: RunningServer[] = [];
afterAll(async () => {
  for (const s of open) await s.close();
});

async function start(file: string): Promise<RunningServer> {
  const s = await startServer({ data: file, token: TOKEN, notice: () => undefined });
  open.push(s);
  return s;
}

async function stop(s: RunningServer): Promise<void> {
  open.splice(open.indexOf(s), 1);
  await s.close();
}

async function call(s: RunningServer, method: string, path: string, body?: unknown, raw?: string) {
  const r = await request(`${s.url}${path.startsWith('/_sandbox') ? '' : '/v1'}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined && raw === undefined ? {} : { body: raw ?? JSON.stringify(body) }),
  });
  const text = await r.body.text();
  // The export of a deep state is text only here (JSON.parse of it would be deep too).
  return { status: r.statusCode, text, json: text && !path.startsWith('/_sandbox/state') ? JSON.parse(text) : undefined };
}

async function processed(s: RunningServer, slug: string) {
  for (let i = 0; i < 200; i++) {
    const spec = (await call(s, 'GET', `/orgs/${s.organizationId}/openapi/${slug}`)).json;
    if (spec.processingState === 'complete') return spec;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${slug} was not processed`);
}

describe('serve --data, in process', () => {
  it('answers 503 to a write the database cannot take, and makes nothing of it, in memory or on disk', async () => {
    const file = join(dir, 'full.db');
    let s = await start(file);
    const before = (await call(s, 'GET', '/_sandbox/state')).text;
    // The database takes no write (SQLITE_READONLY), as on a file system remounted read-only.
    const db = s.persistence!.rows.db;
    db.pragma('query_only = ON');
    const writes = await Promise.all(Array.from({ length: 20 }, (_, i) => call(s, 'POST', `/orgs/${s.organizationId}/collections`, { title: `unsaved-${i}` })));
    for (const w of writes) {
      expect(w.status).toBe(503);
      expect(w.json.error.message).toMatch(
        /could not save this change to its database, so it was not made \(SQLITE_READONLY: .*\); the state is as it was before the request/,
      );
    }
    // A change made in place (a space renamed) is put back as well.
    const renamed = await call(s, 'PATCH', '/spaces/sp-welcome', { title: 'Unsaved title' });
    expect(renamed.status).toBe(503);
    expect((await call(s, 'GET', '/spaces/sp-welcome')).json.title).toBe('Welcome');
    expect((await call(s, 'GET', '/_sandbox/state')).text).toBe(before);
    // Writable again: a write is made.
    db.pragma('query_only = OFF');
    expect((await call(s, 'POST', `/orgs/${s.organizationId}/collections`, { title: 'After the disk was freed' })).status).toBe(201);
    await stop(s);
    // What the database holds is what memory held.
    s = await start(file);
    const listedAgain = (await call(s, 'GET', `/orgs/${s.organizationId}/collections?limit=1000`)).json.items.map(
      (c: { title: string }) => c.title,
    ) as string[];
    expect(listedAgain.filter((t) => t.startsWith('unsaved-'))).toEqual([]);
    expect(listedAgain).toContain('After the disk was freed');
    expect((await call(s, 'GET', '/spaces/sp-welcome')).json.title).toBe('Welcome');
    await stop(s);
  });

  it('keeps an OpenAPI document nested 5,000 levels: the state exports, later writes are saved, and it loads again', async () => {
    const file = join(dir, 'deep.db');
    let s = await start(file);
    const depth = 5000;
    const text = `{"openapi":"3.0.0","info":{"title":"Deep","version":"1"},"paths":{},"x-deep":${'['.repeat(depth)}{"$map":[["a",1]]}${']'.repeat(depth)}}`;
    expect((await call(s, 'POST', `/orgs/${s.organizationId}/openapi`, { slug: 'deep', source: { text } })).status).toBe(201);
    const spec = await processed(s, 'deep');
    const exported = await call(s, 'GET', '/_sandbox/state');
    expect(exported.status).toBe(200);
    const write = await call(s, 'POST', `/orgs/${s.organizationId}/collections`, { title: 'Written after the deep one' });
    expect(write.status).toBe(201);
    await stop(s);
    s = await start(file);
    expect((await call(s, 'GET', `/orgs/${s.organizationId}/openapi/deep`)).json).toMatchObject({ processingState: 'complete', updatedAt: spec.updatedAt });
    expect((await call(s, 'GET', '/_sandbox/state')).status).toBe(200);
    const listed = (await call(s, 'GET', `/orgs/${s.organizationId}/collections?limit=1000`)).json.items.map((c: { title: string }) => c.title);
    expect(listed).toContain('Written after the deep one');
    // The export of the deep state imports (PUT) as it was exported.
    expect((await call(s, 'PUT', '/_sandbox/state', undefined, exported.text)).status).toBeLessThan(300);
    await stop(s);
  });

  it('saves a change an async write makes after an await to a record it reached after an earlier await, another write committing in between', async () => {
    const file = join(dir, 'async.db');
    let s = await start(file);
    const { journal } = s.persistence!;
    const spaces = s.store.data.spaces;
    // Write A: its synchronous part ends (it awaits)...
    const a = journal.begin();
    journal.endSync(a);
    // ...and in a continuation reaches a record, then awaits again.
    const held = spaces.get('sp-welcome')!;
    // Write B runs and commits meanwhile.
    const b = journal.begin();
    spaces.get('sp-welcome');
    journal.endSync(b);
    journal.commit();
    journal.end(b);
    // A changes what it holds, then commits.
    held.title = 'Changed after two awaits';
    journal.commit();
    journal.end(a);
    await stop(s);
    s = await start(file);
    expect((await call(s, 'GET', '/spaces/sp-welcome')).json.title).toBe('Changed after two awaits');
    await stop(s);
  });

  it('folds the log into the database at the latest LIMITS.storage.checkpointEveryMs after a write, however busy: a copy of the file alone then holds it', async () => {
    const saved = { ...LIMITS.storage };
    // Writes never pause long enough for the idle checkpoint: only the bound folds the log in.
    Object.assign(LIMITS.storage, { checkpointIdleMs: 60_000, checkpointEveryMs: 300 });
    try {
      const file = join(dir, 'busy.db');
      const s = await start(file);
      const acked: string[] = [];
      const began = Date.now();
      while (Date.now() - began < 1_200) {
        const title = `Busy ${acked.length}`;
        expect((await call(s, 'POST', `/orgs/${s.organizationId}/collections`, { title })).status).toBe(201);
        acked.push(title);
        await new Promise((r) => setTimeout(r, 20));
      }
      const copy = join(dir, 'busy-copy.db');
      copyFileSync(file, copy);
      let said = '';
      const fromCopy = await startServer({ data: copy, token: TOKEN, notice: (m) => (said += m) });
      open.push(fromCopy);
      expect(said).toMatch(/busy-copy\.db was in use by a sandbox .* It holds the state as of its last checkpoint, /);
      const titles = new Set(
        (await call(fromCopy, 'GET', `/orgs/${s.organizationId}/collections?limit=1000`)).json.items.map((c: { title: string }) => c.title),
      );
      // At least the writes of the first 300 ms (the first checkpoint after them came within the bound).
      expect(titles.has('Busy 0')).toBe(true);
      expect(acked.filter((t) => titles.has(t)).length).toBeGreaterThan(0);
      await stop(fromCopy);
      await stop(s);
    } finally {
      Object.assign(LIMITS.storage, saved);
    }
  });

  it('saves a purge of spaces deleted more than 7 days ago, made by background work', async () => {
    const file = join(dir, 'purge.db');
    let s = await start(file);
    const created = await call(s, 'POST', `/orgs/${s.organizationId}/spaces`, { title: 'To purge' });
    const id = created.json.id as string;
    expect((await call(s, 'DELETE', `/spaces/${id}`)).status).toBe(204);
    const rows = () =>
      s.persistence!.rows.db.prepare("SELECT count(*) FROM record WHERE (tbl = 'spaces' OR tbl = 'trash') AND key = ?").pluck().get(JSON.stringify(id));
    expect(rows()).toBe(2);
    expect((await call(s, 'POST', '/_sandbox/clock', { advance: '8d' })).status).toBeLessThan(300);
    // A read after the clock moved purges; the purge is committed at once.
    expect((await call(s, 'GET', `/spaces/${id}`)).status).toBe(404);
    expect(rows()).toBe(0);
    await stop(s);
    s = await start(file);
    expect((await call(s, 'GET', `/spaces/${id}`)).status).toBe(404);
    await stop(s);
  });
});
