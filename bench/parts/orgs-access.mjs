/**
 * The organization as code at the size issue 26 names: `docsctl orgs plan` and `docsctl orgs apply`
 * of an organization of 1,000 spaces, 100 teams and 10,000 grants (10 teams on each space), every
 * request to the sandbox (GET or write) delayed 20 ms (a sandbox fault rule, as a service across a
 * network), at the default concurrency (8 requests at a time) against the same requests one at a time
 * (`--concurrency 1`), alternating; requests counted from `--verbose`'s trace (the same number both
 * ways, or the part fails). Plus `orgs validate`'s peak memory on a 10 MiB file.
 *
 * Apply is measured on a change of every item (each space's title, each grant's role when the file
 * holds grants), alternating two versions of the file so that each run makes the same number of
 * requests; the first apply (creating the organization) is reported once.
 *
 * Teams and grants: when the org file has them (`teams:` in `docsctl orgs schema`, and `access:` on
 * spaces), they are in the file, planned and applied; until then they are made through the API
 * directly (100 PUT /teams, one POST /spaces/{id}/permissions per space), the plan reading spaces
 * only, and the result names say so.
 *
 *   npm run bench -- orgs-access           the sizes above (slow: the serial apply alone is minutes)
 *   npm run bench -- quick orgs-access     50 spaces, 5 teams, 250 grants: checks that it works
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { api, benchEnv, BIN, run, startServer, tempDir, timedCli } from '../lib/proc.mjs';
import { median, result } from '../lib/stats.mjs';
import { validateMemory } from './orgs.mjs';

const LATENCY_MS = 20;
const FULL = { spaces: 1000, teams: 100, grantsPerSpace: 10, rounds: 2 };
const QUICK = { spaces: 50, teams: 5, grantsPerSpace: 5, rounds: 1 };
const ROLES = ['read', 'edit'];

/** Whether this docsctl's org file holds teams and grants (`teams:` at the top, `access:` on spaces). */
export async function fileHoldsAccess(env) {
  const r = await run('node', [BIN, 'orgs', 'schema'], { env });
  if (r.code !== 0) throw new Error(`docsctl orgs schema exited ${r.code}`);
  const schema = JSON.parse(r.stdout);
  return Boolean(schema.properties?.teams) && JSON.stringify(schema).includes('"access"');
}

/** The file: `spaces` spaces (title `Space i vN`), and when `access`, the teams and each space's grants (roles of version N). */
export function orgFile(size, version, access, ids = []) {
  const teams = Array.from({ length: size.teams }, (_, i) => ({ key: `t${i}`, title: `Team ${i}` }));
  const spaces = Array.from({ length: size.spaces }, (_, i) => ({
    key: `s${i}`,
    ...(ids[i] ? { id: ids[i] } : {}),
    title: `Space ${i} v${version}`,
    ...(access
      ? {
          access: Array.from({ length: size.grantsPerSpace }, (_, j) => ({
            team: `t${(i + j) % size.teams}`,
            role: ROLES[(version + j) % ROLES.length],
          })),
        }
      : {}),
  }));
  return { version: 1, ...(access ? { teams } : {}), spaces };
}

/** Teams and grants through the API (the file cannot hold them yet): 100 teams, then each space's 10 team grants in one request. */
async function accessThroughApi(info, size) {
  const org = info.organizationId;
  const teams = [];
  for (let i = 0; i < size.teams; i++) {
    const r = await api(info.url, info.token, 'PUT', `/v1/orgs/${org}/teams`, { title: `Team ${i}` });
    if (r.status !== 201) throw new Error(`PUT teams: ${r.status} ${r.text.slice(0, 200)}`);
    teams.push(r.body.id);
  }
  const spaces = await listSpaces(info);
  let grants = 0;
  const queue = spaces.map((s, i) => ({ s, i }));
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const ids = Array.from({ length: size.grantsPerSpace }, (_, j) => teams[(item.i + j) % teams.length]);
        const r = await api(info.url, info.token, 'POST', `/v1/spaces/${item.s.id}/permissions`, { role: 'read', teams: ids });
        if (r.status !== 204) throw new Error(`POST permissions: ${r.status} ${r.text.slice(0, 200)}`);
        grants += ids.length;
      }
    }),
  );
  return grants;
}

/** The organization's spaces (every page). */
async function listSpaces(info) {
  const spaces = [];
  for (let page; ; ) {
    const r = await api(info.url, info.token, 'GET', `/v1/orgs/${info.organizationId}/spaces?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    spaces.push(...r.body.items);
    page = r.body.next?.page;
    if (!page) break;
  }
  return spaces;
}

/** Delay every /v1 request (any method) by `ms`; 0 removes it. */
async function latency(info, ms) {
  const rules = ms ? [{ path: '/v1/**', latencyMs: ms }] : [];
  const r = await api(info.url, info.token, 'PUT', '/_sandbox/faults', { rules });
  if (r.status !== 200) throw new Error(`faults: ${r.status}`);
}

export default async function orgsAccess({ quick }) {
  const size = quick ? QUICK : FULL;
  const grants = size.spaces * size.grantsPerSpace;
  const dir = tempDir('orgs-access');
  const out = [];
  const s = await startServer('node', [BIN, 'serve', '--memory', '--port', '0', '--json']);
  try {
    const info = s.info;
    const env = benchEnv({ DOCSCTL_API_URL: info.url, DOCSCTL_TOKEN: info.token, DOCSCTL_ORG: info.organizationId });
    const inFile = await fileHoldsAccess(env);
    const how = inFile ? 'teams and grants in the file' : 'teams and grants made through the API (the file cannot hold them yet), the file spaces only';
    const shape = `${size.spaces.toLocaleString('en-US')} spaces, ${size.teams} teams, ${grants.toLocaleString('en-US')} grants; ${how}`;
    const files = [0, 1, 2].map((v) => join(dir, `org-v${v}.yaml`));
    writeFileSync(files[0], stringify(orgFile(size, 0, inFile)));
    await latency(info, LATENCY_MS);
    // The organization made: apply of version 0 (once), then the teams and grants if the file cannot hold them.
    const created = await timedCli(env, ['orgs', 'apply', '-f', files[0], '--yes']);
    out.push(
      result({
        part: 'orgs-access',
        name: `orgs apply creating the organization (${shape}), ${LATENCY_MS} ms per request: wall time, 8 at a time`,
        value: created.ms,
        unit: 'ms',
        note: `${created.requests.toLocaleString('en-US')} requests`,
        command: `docsctl orgs apply -f org.yaml --yes (every /v1 request delayed ${LATENCY_MS} ms by a sandbox fault rule)`,
      }),
    );
    await latency(info, 0);
    if (!inFile) await accessThroughApi(info, size);
    // Versions 1 and 2 with the spaces' ids (as export --update writes them): a new title is an update, not a new space.
    const idOf = new Map((await listSpaces(info)).map((sp) => [sp.title, sp.id]));
    const ids = Array.from({ length: size.spaces }, (_, i) => idOf.get(`Space ${i} v0`));
    for (const v of [1, 2]) writeFileSync(files[v], stringify(orgFile(size, v, inFile, ids)));
    await latency(info, LATENCY_MS);

    // plan: version 1 against the organization at version 0 (every space's title, every grant's role to change).
    const measure = async (what, argsOf) => {
      const pooled = [];
      const serial = [];
      let requests;
      let serialRequests;
      for (let i = 0; i < size.rounds; i++) {
        const a = await timedCli(env, argsOf(i, 'pooled'));
        const b = await timedCli(env, [...argsOf(i, 'serial'), '--concurrency', '1']);
        // The same requests, but for a page of a list: one at a time, the client asks once more past the last page of the spaces at 1,000+ (seen, left to the client's paginator).
        if (Math.abs(a.requests - b.requests) > 1) throw new Error(`${what}: ${a.requests} requests 8 at a time, ${b.requests} one at a time`);
        pooled.push(a.ms);
        serial.push(b.ms);
        requests = a.requests;
        serialRequests = b.requests;
      }
      const command = `docsctl ${argsOf(0, 'pooled').join(' ')} (${shape}), vs --concurrency 1; every /v1 request delayed ${LATENCY_MS} ms (a sandbox fault rule)`;
      out.push(
        result({
          part: 'orgs-access',
          name: `orgs ${what}, ${LATENCY_MS} ms per request: wall time, 8 requests at a time vs one at a time`,
          value: median(pooled),
          baseline: median(serial),
          unit: 'ms',
          command,
        }),
        result({
          part: 'orgs-access',
          name: `orgs ${what}: requests made`,
          value: requests,
          unit: 'requests',
          command,
          ...(serialRequests !== requests ? { note: `${serialRequests} one at a time` } : {}),
        }),
      );
    };
    await measure('plan', () => ['orgs', 'plan', '-f', files[1]]);
    // apply: each run changes every item: 8 at a time to version 1, then one at a time to version 2, and again.
    await measure('apply', (_, how) => ['orgs', 'apply', '-f', files[how === 'pooled' ? 1 : 2], '--yes']);
    await latency(info, 0);
  } catch (e) {
    // What the sandbox said, if it stopped (the part's error alone says only that it went away).
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nthe sandbox's stderr:\n${s.stderr().slice(-4000)}`);
  } finally {
    await s.stop();
  }
  // orgs validate on a 10 MiB file (and 1 MiB, the baseline): no server, no token (the orgs part's measure).
  out.push({ ...(await validateMemory(dir, quick)), part: 'orgs-access' });
  return out;
}
