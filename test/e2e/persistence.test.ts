/**
 * `serve --data FILE`: every acknowledged write survives a crash (SIGKILL at any moment), the file is
 * always whole, background work (OpenAPI processing) is saved too, and a bad file is refused untouched.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'docsctl-data-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, DOCSCTL_CONFIG_DIR: home };

interface Info { url: string; token: string; organizationId: string }

async function serve(file: string, extra: string[] = []): Promise<{ child: ResultPromise; info: Info }> {
  const child = execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json', '--token', 'persist-token-1', ...extra], {
    env, extendEnv: false, reject: false,
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void child.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)));
  });
  return { child, info: JSON.parse(line) as Info };
}

async function call(info: Info, method: string, path: string, body?: unknown) {
  const r = await request(`${info.url}/v1${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? JSON.parse(text) : undefined };
}

async function kill(child: ResultPromise) {
  child.kill('SIGKILL');
  await child;
}

describe('docsctl serve --data', () => {
  it('keeps every acknowledged write through repeated SIGKILLs in the middle of concurrent writes', async () => {
    const file = join(home, 'kill.json');
    const acknowledged: string[] = [];
    for (let round = 0; round < 4; round++) {
      const { child, info } = await serve(file);
      // Everything acknowledged in earlier rounds is here.
      const listed = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await call(info, 'GET', `/orgs/${info.organizationId}/collections?limit=1000${cursor ? `&page=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        for (const c of page.json.items) listed.add(c.title);
        cursor = page.json.next?.page;
      } while (cursor);
      for (const title of acknowledged) expect(listed, `round ${round}: ${title}`).toContain(title);

      // Writers keep creating while the server is killed under them.
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const title = `r${round}-w${w}-${i}`;
          try {
            const r = await call(info, 'POST', `/orgs/${info.organizationId}/collections`, { title });
            if (r.status === 201) acknowledged.push(title);
          } catch {
            return; // the connection died with the server: not acknowledged
          }
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await new Promise((r) => setTimeout(r, 150 + round * 60));
      await kill(child);
      stop = true;
      await Promise.all(writers);
      // The file is whole JSON at every moment.
      expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    }
    expect(acknowledged.length).toBeGreaterThan(8);
    const { child, info } = await serve(file);
    const all = await call(info, 'GET', `/orgs/${info.organizationId}/collections?limit=1000`);
    const titles = new Set(all.json.items.map((c: { title: string }) => c.title));
    for (const t of acknowledged) expect(titles).toContain(t);
    await kill(child);
  });

  it('saves the result of background OpenAPI processing, and restarts processing cut off by a crash', async () => {
    const file = join(home, 'openapi.json');
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

    // A state saved while processing was pending resumes it on load.
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const specs = state.data.slices.$map.find(([k]: [string]) => k === 'openapi')[1].specs.$map;
    specs[0][1].processingState = 'pending';
    writeFileSync(file, JSON.stringify(state));
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
  });

  it('refuses a file that is not a sandbox state, with exit 2, and leaves it untouched', async () => {
    const file = join(home, 'bad.json');
    writeFileSync(file, '{"hello": "world"}');
    const r = await execa('node', [BIN, 'serve', '--data', file, '--port', '0', '--json'], { env, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--data: .*bad\.json is not a docsctl sandbox state file/);
    expect(readFileSync(file, 'utf8')).toBe('{"hello": "world"}');
  });
});
