/**
 * A scripted admin session run twice, against a calm sandbox and through `--chaos 0.2`: the end
 * states are the same. Idempotent requests are retried by the CLI; a failed non-idempotent one is
 * reported clearly (an exit code and an `error:` line, never a stack) and changed nothing, so the
 * script runs it again, as a CI script would: nothing is ever doubled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { AppDispatcher, docsctlInProcess } from '../helpers/inprocess.js';

const home = mkdtempSync(join(tmpdir(), 'docsctl-chaos-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const ORG = 'org-acme';

interface Outcome {
  /** Failed attempts, by exit code, before each step succeeded. */
  failures: number[];
  stepsRetried: number;
}

/** The session; `cli` runs one step until it succeeds and returns its stdout. */
async function session(cli: (args: string[]) => Promise<string>): Promise<void> {
  const json = async (args: string[]) => JSON.parse(await cli([...args, '--json']));
  const guides = await json(['collections', 'create', '--title', 'Guides']);
  await cli(['collections', 'update', guides.id, '--description', 'Everything we wrote']);
  await cli(['collections', 'list']);
  const space = await json(['spaces', 'create', '--title', 'Widget', '--parent', guides.id]);
  await cli(['content', 'template', space.id, 'getting-started']);
  await cli(['content', 'pages', space.id]);
  await cli(['spaces', 'update', space.id, '--title', 'Widget docs']);
  await cli(['spaces', 'get', space.id]);
  const cr = await json(['cr', 'create', space.id, '--subject', 'API reference']);
  await cli(['cr', 'get', space.id, String(cr.number)]);
  await cli(['comments', 'post', space.id, '--cr', String(cr.number), '-m', 'Looks good']);
  await cli(['comments', 'list', space.id, '--cr', String(cr.number)]);
  await cli(['cr', 'merge', space.id, String(cr.number), '--yes']);
  await cli(['comments', 'post', space.id, '-m', 'Merged the API reference']);
  await cli(['content', 'search', space.id, 'install']);
  await cli(['members', 'set-role', 'u-read', 'comment', '--yes']);
  await cli(['members', 'list']);
  const site = await json(['sites', 'create', '--title', 'Widget site', '--space', space.id]);
  await cli(['sites', 'publish', site.id]);
  await cli(['sites', 'get', site.id]);
  await cli(['spaces', 'delete', 'sp-welcome', '--yes']);
  await cli(['tree']);
  await cli(['spaces', 'list', '--all', '--json']);
}

async function run(server: RunningServer): Promise<Outcome> {
  const outcome: Outcome = { failures: [], stepsRetried: 0 };
  const env = {
    HOME: home,
    DOCSCTL_CONFIG_DIR: home,
    DOCSCTL_API_URL: server.url,
    DOCSCTL_TOKEN: server.token,
    DOCSCTL_ORG: ORG,
  };
  // docsctl in process, the server's app answering for its URL (a dropped answer is a socket error).
  const dispatcher = new AppDispatcher(server.app, new URL(server.url).origin);
  await session(async (args) => {
    for (let attempt = 1; ; attempt++) {
      const r = await docsctlInProcess(args, env, { dispatcher });
      if (r.exitCode === 0) {
        if (attempt > 1) outcome.stepsRetried++;
        return r.stdout;
      }
      // Reported clearly: a documented exit code, one error line, no stack trace, no data.
      expect([1, 7, 8], `${args.join(' ')}: ${r.stderr}`).toContain(r.exitCode);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
      outcome.failures.push(r.exitCode);
      expect(attempt, `${args.join(' ')} keeps failing`).toBeLessThan(8);
    }
  });
  return outcome;
}

/** What the session built, read through the API of a calm sandbox holding the state (ids left out). */
async function endState(server: RunningServer) {
  const exported = await server.app.handle({ method: 'GET', url: '/_sandbox/state', headers: { authorization: `Bearer ${server.token}` } });
  const calm = await startServer({ port: 0 });
  try {
    expect(
      (await calm.app.handle({ method: 'PUT', url: '/_sandbox/state', headers: { authorization: `Bearer ${calm.token}` }, body: exported.body })).status,
    ).toBe(200);
    const token = server.token; // the state carries the users and their tokens
    const get = async (url: string) => {
      const r = await calm.app.handle({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(r.status, url).toBe(200);
      return JSON.parse(r.body!.toString());
    };
    const collections = (await get(`/v1/orgs/${ORG}/collections?limit=1000`)).items;
    const titleOf = new Map<string, string>(collections.map((c: { id: string; title: string }) => [c.id, c.title]));
    const spaces = [];
    for (const s of (await get(`/v1/orgs/${ORG}/spaces?limit=1000`)).items) {
      const pages = (await get(`/v1/spaces/${s.id}/content/pages`)).pages.map((p: { path: string }) => p.path);
      const crs = (await get(`/v1/spaces/${s.id}/change-requests?status=merged&limit=1000`)).items.map(
        (c: { number: number; subject: string; status: string }) => [c.number, c.subject, c.status],
      );
      const comments = (await get(`/v1/spaces/${s.id}/comments?limit=1000`)).items.map((c: { body: unknown }) => c.body);
      spaces.push({
        title: s.title,
        visibility: s.visibility,
        parent: titleOf.get(s.parent) ?? null,
        pages,
        crs,
        comments,
        counters: [s.comments, s.changeRequests, s.changeRequestsOpen],
      });
    }
    return {
      collections: collections.map((c: { title: string; description?: string; parent?: string }) => [
        c.title,
        c.description ?? null,
        c.parent ? titleOf.get(c.parent) : null,
      ]),
      spaces: spaces.sort((a, b) => a.title.localeCompare(b.title)),
      deleted: (await get(`/v1/orgs/${ORG}/spaces?deleted=true&limit=1000`)).items.map((s: { title: string }) => s.title),
      members: (await get(`/v1/orgs/${ORG}/members?limit=1000`)).items.map((m: { user: { id: string }; role: string | null }) => [m.user.id, m.role]).sort(),
      sites: (await get(`/v1/orgs/${ORG}/sites?limit=1000`)).items.map((s: { title: string; published: boolean; siteSpaces: number }) => [
        s.title,
        s.published,
        s.siteSpaces,
      ]),
    };
  } finally {
    await calm.close();
  }
}

describe('an admin session through chaos', () => {
  it('ends in the same state as without chaos: retried where safe, reported where not, never doubled', { timeout: 240_000 }, async () => {
    const reference = await startServer({ port: 0 });
    const chaotic = await startServer({ port: 0, chaos: { rate: 0.2, seed: 20261123 } });
    try {
      const calm = await run(reference);
      expect(calm.failures).toEqual([]);
      const stormy = await run(chaotic);
      const expected = await endState(reference);
      expect(expected.spaces.find((s) => s.title === 'Widget docs')?.crs).toEqual([[1, 'API reference', 'merged']]);
      expect(await endState(chaotic)).toEqual(expected);
      // The chaos was real: requests were faulted, and some steps failed and had to be run again.
      const faulted = await chaotic.app.handle({ method: 'GET', url: '/_sandbox/faults', headers: { authorization: `Bearer ${chaotic.token}` } });
      const { chaos } = JSON.parse(faulted.body!.toString());
      const injected = Object.values(chaos.injected as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(injected).toBeGreaterThanOrEqual(5);
      expect(stormy.stepsRetried).toBeGreaterThan(0);
    } finally {
      await reference.close();
      await chaotic.close();
    }
  });
});
