/**
 * `serve --data FILE`: the state in a SQLite database. Every acknowledged write survives SIGKILLs
 * under load, nothing but the database and its log is left beside it, background work (OpenAPI
 * processing) is saved too, a JSON state file is imported once, `--token` applies to a saved state,
 * and a bad file is refused untouched.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { execa, type ResultPromise } from 'execa';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'docsctl-data-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };

interface Info {
  url: string;
  token: string;
  organizationId: string;
}

async function serve(file: string, extra: string[] = [], token = 'persist-token-1'): Promise<{ child: ResultPromise; info: Info; stderr: () => string }> {
  const child = execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json', '--token', token, ...extra], {
    env,
    extendEnv: false,
    reject: false,
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void child.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)));
  });
  return { child, info: JSON.parse(line) as Info, stderr: () => err };
}

async function call(info: Info, method: string, path: string, body?: unknown, token = info.token) {
  const r = await request(`${info.url}${path.startsWith('/_sandbox') ? '' : '/v1'}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function kill(child: ResultPromise) {
  child.kill('SIGKILL');
  await child;
}

/** Every collection title of the organization. */
async function titles(info: Info): Promise<Set<string>> {
  const listed = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await call(info, 'GET', `/orgs/${info.organizationId}/collections?limit=1000${cursor ? `&page=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    for (const c of page.json.items) listed.add(c.title);
    cursor = page.json.next?.page;
  } while (cursor);
  return listed;
}

/** A process id no process has (above Linux's largest). */
const DEAD_PID = 4_194_305;

describe('docsctl serve --data', () => {
  it('keeps every acknowledged write through 10 SIGKILLs under concurrent writers, leaving only the database and its log', async () => {
    const dir = mkdtempSync(join(home, 'kill-'));
    const file = join(dir, 'state.db');
    // Two spaces to rename, made before the first kill.
    const setup = await serve(file);
    const spaceIds: string[] = [];
    for (const title of ['One', 'Two']) {
      const r = await call(setup.info, 'POST', `/orgs/${setup.info.organizationId}/spaces`, { title });
      expect(r.status).toBe(201);
      spaceIds.push(r.json.id);
    }
    await kill(setup.child);
    // A full JSON copy of the state that versions before the database left after a SIGKILL: removed at start.
    writeFileSync(join(dir, `state.db.${DEAD_PID}.tmp`), '{"version": 1}');
    const acknowledged: string[] = [];
    const renamed = new Map<string, string>();
    /** The rename sent after the last acknowledged one, per space, when its answer never came. */
    const inFlight = new Map<string, string>();
    for (let round = 0; round < 10; round++) {
      const { child, info } = await serve(file);
      const listed = await titles(info);
      for (const title of acknowledged) expect(listed, `round ${round}: ${title}`).toContain(title);
      // The last acknowledged rename stands, or the one sent after it: a write can be committed and the
      // server killed before its answer left (each writer has one request in flight at most).
      for (const [id, title] of renamed) {
        const now = (await call(info, 'GET', `/spaces/${id}`)).json.title;
        expect([title, inFlight.get(id)], `round ${round}: ${id}`).toContain(now);
        renamed.set(id, now);
      }
      inFlight.clear();

      // Writers create collections and rename spaces while the server is killed under them.
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const title = `r${round}-w${w}-${i}`;
          try {
            if (w % 2 === 0) {
              const r = await call(info, 'POST', `/orgs/${info.organizationId}/collections`, { title });
              if (r.status === 201) acknowledged.push(title);
              else expect.fail(`POST answered ${r.status}`);
            } else {
              const id = spaceIds[w === 1 ? 0 : 1];
              inFlight.set(id, title);
              const r = await call(info, 'PATCH', `/spaces/${id}`, { title });
              if (r.status === 200) {
                renamed.set(id, title);
                inFlight.delete(id);
              } else expect.fail(`PATCH answered ${r.status}`);
            }
          } catch (e) {
            if ((e as Error).name === 'AssertionError') throw e;
            return; // the connection died with the server: not acknowledged
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      // Killed once writes are flowing (a loaded machine starts slower), at a different moment each round.
      const ackedBefore = acknowledged.length;
      for (let waited = 0; acknowledged.length < ackedBefore + 2 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, (round % 4) * 40));
      await kill(child);
      stop = true;
      await Promise.all(writers);
      // Nothing beside the database but its write-ahead log (and its index), also after a SIGKILL.
      for (const name of readdirSync(dir)) expect(['state.db', 'state.db-wal', 'state.db-shm']).toContain(name);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    const { child, info } = await serve(file);
    const listed = await titles(info);
    for (const t of acknowledged) expect(listed).toContain(t);
    // A stop (SIGTERM) folds the log in: the database alone remains.
    child.kill('SIGTERM');
    expect((await child).exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual(['state.db']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('saves the result of background OpenAPI processing, and restarts processing cut off by a crash', async () => {
    const file = join(home, 'openapi.db');
    const first = await serve(file);
    const { info } = first;
    const text = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
    const created = await call(info, 'POST', `/orgs/${info.organizationId}/openapi`, { slug: 'pets', source: { text } });
    expect(created.status).toBe(201);
    let spec;
    for (let i = 0; i < 100; i++) {
      spec = (await call(info, 'GET', `/orgs/${info.organizationId}/openapi/pets`)).json;
      if (spec.processingState === 'complete') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(spec.processingState).toBe('complete');
    await kill(first.child);

    const second = await serve(file);
    const again = await call(second.info, 'GET', `/orgs/${info.organizationId}/openapi/pets`);
    expect(again.json).toMatchObject({ processingState: 'complete', lastVersion: spec.lastVersion });
    await kill(second.child);

    // A state saved while processing was pending (the specification's row says so) resumes it on load.
    const db = new Database(file);
    const row = db.prepare("SELECT key, value FROM record WHERE tbl = 'openapi.specs'").get() as { key: string; value: string };
    db.prepare("UPDATE record SET value = ? WHERE tbl = 'openapi.specs' AND key = ?").run(
      JSON.stringify({ ...JSON.parse(row.value), processingState: 'pending' }),
      row.key,
    );
    db.close();
    const third = await serve(file);
    let resumed;
    for (let i = 0; i < 100; i++) {
      resumed = (await call(third.info, 'GET', `/orgs/${info.organizationId}/openapi/pets`)).json;
      if (resumed.processingState === 'complete') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(resumed.processingState).toBe('complete');
    expect(resumed.lastVersion).not.toBe(spec.lastVersion);
    await kill(third.child);
    const fourth = await serve(file);
    expect((await call(fourth.info, 'GET', `/orgs/${info.organizationId}/openapi/pets`)).json.lastVersion).toBe(resumed.lastVersion);
    await kill(fourth.child);
  });

  it('keeps permission grants through a SIGKILL, and their removal', async () => {
    const file = join(home, 'grants.db');
    const first = await serve(file);
    const orgId = first.info.organizationId;
    const me = (await call(first.info, 'GET', '/user')).json.id;
    const space = (await call(first.info, 'POST', `/orgs/${orgId}/spaces`, { title: 'Shared' })).json.id;
    expect((await call(first.info, 'POST', `/spaces/${space}/permissions`, { role: 'comment', users: [me] })).status).toBe(204);
    await kill(first.child);
    const grantsOf = async (info: Info) =>
      (await call(info, 'GET', `/spaces/${space}/permissions/users`)).json.items.map((i: { user: { id: string }; permission: string }) => [
        i.user.id,
        i.permission,
      ]);
    const second = await serve(file);
    expect(await grantsOf(second.info)).toEqual([[me, 'comment']]);
    expect((await call(second.info, 'DELETE', `/spaces/${space}/permissions/users/${me}`)).status).toBe(205);
    await kill(second.child);
    const third = await serve(file);
    expect(await grantsOf(third.info)).toEqual([]);
    await kill(third.child);
  });

  it("applies --token to a saved state: the admin's token becomes that one", async () => {
    const file = join(home, 'token.db');
    const first = await serve(file, [], 'first-token-1');
    await kill(first.child);
    const second = await serve(file, [], 'second-token-2');
    expect(second.info.token).toBe('second-token-2');
    expect((await call(second.info, 'GET', '/orgs')).status).toBe(200);
    expect((await call(second.info, 'GET', '/orgs', undefined, 'first-token-1')).status).toBe(401);
    await kill(second.child);
    // Saved: without --token, the last one given stays the admin's.
    const child = execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json'], { env, extendEnv: false, reject: false });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    expect(JSON.parse(line).token).toBe('second-token-2');
    await kill(child);
  });

  it('refuses a --token another user of the saved state has, with exit 2, changing nothing', async () => {
    const file = join(home, 'token-taken.db');
    const first = await serve(file, ['--json']);
    const users = (await call(first.info, 'GET', '/_sandbox/state')).json.data.users.$map as [string, { token: string }][];
    const other = users.find(([id]) => id !== 'u-admin' && users.length > 1)![1].token;
    await kill(first.child);
    const r = await execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json', '--token', other], { env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--token: this token is already .*'s: choose another/);
    const again = await serve(file);
    expect((await call(again.info, 'GET', '/orgs', undefined, other)).status).toBe(200);
    await kill(again.child);
  });

  it('imports a JSON state file once into a database, keeping the JSON file as FILE.bak; the export is a --seed too', async () => {
    const source = await serve(join(home, 'source.db'));
    expect((await call(source.info, 'POST', `/orgs/${source.info.organizationId}/collections`, { title: 'Kept across the import' })).status).toBe(201);
    const state = (await call(source.info, 'GET', '/_sandbox/state')).json as { version: number };
    await kill(source.child);
    // The export is also a --seed: the portable format.
    const exported = join(home, 'exported-state.json');
    writeFileSync(exported, JSON.stringify(state));
    const seeded = execa('node', [BIN, 'serve', '--memory', '--seed', exported, '--port', '0', '--json'], { env, extendEnv: false, reject: false });
    const seededInfo = JSON.parse(await new Promise<string>((resolve) => createInterface({ input: seeded.stdout! }).once('line', resolve))) as Info;
    expect(await titles(seededInfo)).toContain('Kept across the import');
    await kill(seeded);
    writeFileSync(exported, JSON.stringify({ ...state, data: { users: { $map: [] } } }));
    const bad = await execa('node', [BIN, 'serve', '--memory', '--seed', exported, '--port', '0'], { env, extendEnv: false, reject: false });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--seed: \S+: state: data.sandboxAdmin must name one of data.users/);
    // A file as docsctl wrote it before the database (version 1: no user value here has a `$` key).
    const file = join(home, 'old.json');
    writeFileSync(file, JSON.stringify({ ...state, version: 1 }), { mode: 0o600 });
    const first = await serve(file);
    expect(first.stderr()).toMatch(/old\.json held a JSON state: it is now a SQLite database .* kept as .*old\.json\.bak/);
    expect(await titles(first.info)).toContain('Kept across the import');
    await kill(first.child);
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(JSON.parse(readFileSync(`${file}.bak`, 'utf8')).version).toBe(1);
    expect(statSync(`${file}.bak`).mode & 0o777).toBe(0o600);
    // Once: the database is read from then on.
    const second = await serve(file);
    expect((await call(second.info, 'POST', `/orgs/${second.info.organizationId}/collections`, { title: 'After the import' })).status).toBe(201);
    await kill(second.child);
    const third = await serve(file);
    expect(third.stderr()).not.toMatch(/JSON state/);
    const listed = await titles(third.info);
    expect(listed).toContain('Kept across the import');
    expect(listed).toContain('After the import');
    await kill(third.child);
  });

  it('refuses a file that is not a sandbox state, with exit 2, and leaves it untouched', async () => {
    const file = join(home, 'bad.json');
    writeFileSync(file, '{"hello": "world"}');
    const r = await execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json'], { env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--data: .*bad\.json is not a docsctl sandbox state file/);
    expect(readFileSync(file, 'utf8')).toBe('{"hello": "world"}');
    expect(readdirSync(home).filter((n) => n.startsWith('bad.json'))).toEqual(['bad.json']);
  });

  it('refuses a damaged database (truncated anywhere, a bit flipped in its header, a page or a record) and a broken JSON state, with exit 2 naming the file and what is wrong, leaving it untouched', async () => {
    const dir = mkdtempSync(join(home, 'damaged-'));
    const good = join(dir, 'good.db');
    const source = await serve(good);
    expect((await call(source.info, 'POST', `/orgs/${source.info.organizationId}/collections`, { title: 'A collection' })).status).toBe(201);
    const state = JSON.stringify((await call(source.info, 'GET', '/_sandbox/state')).json);
    source.child.kill('SIGTERM');
    expect((await source.child).exitCode).toBe(0);
    const bytes = readFileSync(good);
    const pageSize = bytes.readUInt16BE(16);
    const flipped = (at: number, bit = 0x10) => {
      const b = Buffer.from(bytes);
      b[at] ^= bit;
      return b;
    };
    // A record's JSON: its first quote made a '#', wherever a record with a title is (an old copy of
    // a page, left free by a later write, may come first in the file).
    const records: number[] = [];
    for (let at = bytes.indexOf('"title":'); at >= 0; at = bytes.indexOf('"title":', at + 1)) records.push(at);
    expect(records.length).toBeGreaterThan(0);
    const flippedRecords = () => {
      const b = Buffer.from(bytes);
      for (const at of records) b[at] ^= 0x01;
      return b;
    };
    const cases: [name: string, content: Buffer | string, says: RegExp][] = [
      ['cut-100.db', bytes.subarray(0, 100), /is truncated: 100 bytes, not a whole number of its \d+-byte pages/],
      ['cut-page.db', bytes.subarray(0, pageSize), /is truncated: it holds 1 of the \d+ pages its header counts/],
      ['cut-half.db', bytes.subarray(0, Math.floor(bytes.length / pageSize / 2) * pageSize), /is truncated: it holds \d+ of the \d+ pages/],
      ['cut-1.db', bytes.subarray(0, bytes.length - 1), /is truncated: \d+ bytes, not a whole number/],
      ['flip-header.db', flipped(16, 0x01), /cannot be loaded: the database is damaged or truncated \(SQLite: /],
      ['flip-page.db', flipped(pageSize + 3), /cannot be loaded: the database is damaged or truncated \(SQLite: database disk image is malformed\)/],
      ['flip-record.db', flippedRecords(), /cannot be loaded: it is damaged \(the record \S+ \S+: .*JSON/],
      ['broken.json', state.slice(0, state.length / 2), /is not a docsctl sandbox state file \(.*JSON/],
    ];
    for (const [name, content, says] of cases) {
      const file = join(dir, name);
      writeFileSync(file, content, { mode: 0o600 });
      const r = await execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json'], { env, extendEnv: false, reject: false, timeout: 20_000 });
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stdout, name).toBe('');
      const error = JSON.parse(r.stderr).error as { message: string; hint: string | null };
      expect(error.message, name).toContain(`--data: ${file} `);
      expect(error.message, name).toMatch(says);
      expect(error.message, name).toMatch(/it was left untouched$/);
      if (name.endsWith('.db')) expect(error.hint, name).toMatch(/restore it from a backup \(docs\/reliability\.md, Backups\)/);
      expect(readFileSync(file).equals(Buffer.from(content)), `${name} changed`).toBe(true);
    }
    // Nothing made beside them (no log, no import, no backup).
    expect(readdirSync(dir).sort()).toEqual(['good.db', ...cases.map(([name]) => name)].sort());
  });

  it('says how old the state is of a database copied without its log while the sandbox ran (its last checkpoint), and the export copies a running sandbox whole', async () => {
    const dir = mkdtempSync(join(home, 'copy-'));
    const file = join(dir, 'state.db');
    const running = await serve(file);
    const org = running.info.organizationId;
    expect((await call(running.info, 'POST', `/orgs/${org}/collections`, { title: 'Before the checkpoint' })).status).toBe(201);
    // The log is folded in once writes pause (1 s), and emptied.
    for (let waited = 0; statSync(`${file}-wal`).size > 0; waited += 50) {
      if (waited > 10_000) expect.fail('no checkpoint within 10 s of the last write');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call(running.info, 'POST', `/orgs/${org}/collections`, { title: 'After the checkpoint' })).status).toBe(201);
    const copy = join(dir, 'copy.db');
    cpSync(file, copy);
    // Not checkpointed since (the log still holds the last write): the copy cannot hold it.
    const logHeldIt = statSync(`${file}-wal`).size > 0;
    // The way to copy it whole: the export, a --seed of a new database.
    const exported = join(dir, 'backup.json');
    writeFileSync(exported, JSON.stringify((await call(running.info, 'GET', '/_sandbox/state')).json), { mode: 0o600 });

    const fromCopy = await serve(copy);
    expect(fromCopy.stderr()).toContain(`${copy} was in use by a sandbox (process `);
    expect(fromCopy.stderr()).toMatch(
      /\(process \d+, since \d{4}-\d\d-\d\dT[\d:.]+Z\) and its log \S+copy\.db-wal is not here: it was copied or moved while that sandbox ran/,
    );
    expect(fromCopy.stderr()).toMatch(/It holds the state as of its last checkpoint, \d{4}-\d\d-\d\dT[\d:.]+Z; writes made after that are not in it/);
    const listed = await titles(fromCopy.info);
    expect(listed).toContain('Before the checkpoint');
    if (logHeldIt) expect(listed).not.toContain('After the checkpoint');
    await kill(fromCopy.child);

    const restored = await serve(join(dir, 'restored.db'), ['--seed', exported]);
    expect(restored.stderr()).toBe('');
    const whole = await titles(restored.info);
    expect(whole).toContain('Before the checkpoint');
    expect(whole).toContain('After the checkpoint');
    await kill(restored.child);

    // A copy after a stop is whole, and nothing is said.
    running.child.kill('SIGTERM');
    expect((await running.child).exitCode).toBe(0);
    const later = join(dir, 'later.db');
    cpSync(file, later);
    const afterStop = await serve(later);
    expect(afterStop.stderr()).toBe('');
    expect(await titles(afterStop.info)).toContain('After the checkpoint');
    await kill(afterStop.child);
  });

  it('says which package is missing, with exit 1, when better-sqlite3 cannot be loaded', async () => {
    // The built CLI alone, with no node_modules to find better-sqlite3 in.
    const alone = mkdtempSync(join(tmpdir(), 'docsctl-alone-'));
    cpSync(join(dirname(BIN), '..', 'dist'), join(alone, 'dist'), { recursive: true });
    const file = join(home, 'no-sqlite.db');
    const r = await execa('node', [join(alone, 'dist', 'cli.cjs'), 'serve', '--data', file, '--port', '0'], { env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--data keeps the state in SQLite through the optional package better-sqlite3, which could not be loaded/);
    expect(r.stderr).toMatch(/npm install better-sqlite3/);
    expect(existsSync(file)).toBe(false);
    // --memory needs no database.
    const m = execa('node', [join(alone, 'dist', 'cli.cjs'), 'serve', '--memory', '--port', '0', '--json'], { env, extendEnv: false, reject: false });
    const line = await new Promise<string>((resolve) => createInterface({ input: m.stdout! }).once('line', resolve));
    expect(JSON.parse(line).url).toMatch(/^http:/);
    await kill(m);
  });
});
