/**
 * The access audit at size: `docsctl access who --space ID` and `docsctl access of USER` on an
 * organization of 1,000 spaces, 100 collections and 50 sites (orgs.mjs's file, `serve --seed`) with
 * 100 teams of the organization's members, each granted a role on 10 spaces (1,000 team grants), 100
 * user grants on collections and a default level on every fifth space; every GET delayed 20 ms (a
 * sandbox fault rule, as a service across a network). The default concurrency (8 requests at a time)
 * against the same reads one at a time (`--concurrency 1`), alternating; requests counted from
 * `--verbose`'s trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { api, benchEnv, BIN, setLatency, startServer, tempDir, timedCli } from '../lib/proc.mjs';
import { median, result } from '../lib/stats.mjs';
import { bigOrg } from './orgs.mjs';

const TEAMS = 100;
const SPACES_PER_TEAM = 10;
const LATENCY_MS = 20;
const ROLES = ['read', 'comment', 'edit', 'review'];

async function must(s, method, path, body) {
  const r = await api(s.info.url, s.info.token, method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

/** Every item of a list of the sandbox (setup). */
async function all(s, path) {
  const out = [];
  let page;
  do {
    const body = await must(s, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    out.push(...body.items);
    page = body.next?.page;
  } while (page);
  return out;
}

export default async function access({ quick }) {
  const dir = tempDir('access');
  const file = join(dir, 'org.yaml');
  writeFileSync(file, stringify(bigOrg()));
  const s = await startServer('node', [BIN, 'serve', '--memory', '--port', '0', '--json', '--seed', file]);
  try {
    const org = `/v1/orgs/${s.info.organizationId}`;
    const members = (await all(s, `${org}/members`)).map((m) => m.user.id);
    const spaces = (await all(s, `${org}/spaces`)).sort((a, b) => a.title.localeCompare(b.title, 'en', { numeric: true }));
    const collections = await all(s, `${org}/collections`);
    for (let t = 0; t < TEAMS; t++) {
      const team = await must(s, 'PUT', `${org}/teams`, { title: `Team ${t}` });
      for (const m of [members[t % members.length], members[(t + 3) % members.length]]) await must(s, 'PUT', `${org}/teams/${team.id}/members/${m}`, {});
      for (let k = 0; k < SPACES_PER_TEAM; k++) {
        const space = spaces[(t * SPACES_PER_TEAM + k) % spaces.length];
        await must(s, 'POST', `/v1/spaces/${space.id}/permissions`, { role: ROLES[(t + k) % ROLES.length], teams: [team.id] });
      }
      const c = collections[t % collections.length];
      await must(s, 'POST', `/v1/collections/${c.id}/permissions`, { role: ROLES[t % ROLES.length], users: [members[(t + 1) % members.length]] });
    }
    for (let i = 0; i < spaces.length; i += 5) await must(s, 'PATCH', `/v1/spaces/${spaces[i].id}`, { defaultLevel: ROLES[i % ROLES.length] });
    const env = benchEnv({ DOCSCTL_API_URL: s.info.url, DOCSCTL_TOKEN: s.info.token, DOCSCTL_ORG: s.info.organizationId });
    // A space that inherits, two collections deep (Space 11 is in Collection 11, in Collection 1) and
    // shown by a site (Site 2); a member who is not an admin.
    const space = spaces.find((x) => x.title === 'Space 11').id;
    const member = (await all(s, `${org}/members`)).find((m) => m.role === 'edit').user.id;
    await setLatency(s.info, LATENCY_MS);
    const rounds = quick ? 1 : 2;
    const out = [];
    for (const [what, args] of [
      ['who', ['access', 'who', '--space', space]],
      ['of', ['access', 'of', member]],
    ]) {
      const pooled = [];
      const serial = [];
      let requests = 0;
      for (let i = 0; i < rounds; i++) {
        const a = await timedCli(env, args);
        const b = await timedCli(env, [...args, '--concurrency', '1']);
        pooled.push(a.ms);
        serial.push(b.ms);
        requests = a.requests;
        if (a.requests !== b.requests) throw new Error(`${what}: ${a.requests} requests pooled, ${b.requests} one at a time`);
      }
      const command = `docsctl ${args.join(' ')} (1,000 spaces, 100 collections, 50 sites, 100 teams, 1,100 grants; every GET delayed ${LATENCY_MS} ms), vs --concurrency 1`;
      out.push(
        result({
          part: 'access',
          name: `access ${what}, ${LATENCY_MS} ms per GET: wall time, 8 requests at a time vs one at a time`,
          value: median(pooled),
          baseline: median(serial),
          unit: 'ms',
          command,
        }),
      );
      out.push(result({ part: 'access', name: `access ${what}: requests made`, value: requests, unit: 'requests', command }));
    }
    await setLatency(s.info, 0);
    return out;
  } finally {
    await s.stop();
  }
}
