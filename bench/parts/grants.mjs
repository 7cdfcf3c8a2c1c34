/**
 * The cost of permission grants on reads: sandbox GET throughput with 10,000 grants in the
 * organization against the same sandbox without any, at 50 connections, rounds alternating, medians.
 * The caller is an editor (u-edit), not the admin, so every answer computes a role through the grants
 * (an admin's is known at once). Two reads: GET /v1/spaces/{id} (an answer the sandbox keeps until
 * the state changes) and GET /v1/orgs/{id}/spaces (a list: each space's role computed per request).
 * Target: ≥ 0.9 × for both. The grants (on the organization's spaces, collections and sites, to users
 * and teams, 16 of them on the space read) are put in an exported state that both sandboxes start from
 * (`serve --seed`), the baseline without them.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, tempDir } from '../lib/proc.mjs';
import { startSandbox } from '../lib/sandbox.mjs';
import { median, result } from '../lib/stats.mjs';
import { CONNECTIONS, LOAD_TOOL, loadRun } from './http.mjs';

const SPACE = 'sp-welcome';
const GRANTS = 10_000;
const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/** A sandbox started from `state` with `count` grants added (none: as it is), and u-edit's token in it. */
async function start(state, count) {
  const copy = structuredClone(state);
  if (count > 0) {
    const now = new Date().toISOString();
    const entries = [];
    for (let i = 0; i < count; i++) {
      // Most on other content (as in an organization of many spaces), some on the space read: its users and teams.
      const onSpace = i % 625 === 0;
      const target = onSpace ? 'space' : ['space', 'collection', 'site'][i % 3];
      const targetId = onSpace ? SPACE : `${target}-${i}`;
      const principal = i % 2 ? 'team' : 'user';
      const principalId = onSpace && principal === 'team' ? 'team-writers' : `${principal}-${i}`;
      const rec = { target, targetId, principal, principalId, org: 'org-acme', role: ROLES[i % ROLES.length], createdAt: now };
      entries.push([`${target}:${targetId}/${principal}:${principalId}`, rec]);
    }
    copy.data.slices.$map.push(['permissions', { grants: { $map: entries } }]);
  }
  const dir = tempDir('grants');
  const file = join(dir, 'state.json');
  writeFileSync(file, JSON.stringify(copy));
  const sandbox = await startSandbox(['--seed', file]);
  const token = copy.data.users.$map.find(([id]) => id === 'u-edit')[1].token;
  return { sandbox, token, stop: async () => (await sandbox.stop(), rmSync(dir, { recursive: true, force: true })) };
}

export default async function grants({ quick }) {
  const rounds = quick ? 2 : 5;
  const durationMs = quick ? 3000 : 6000;
  const origin = await startSandbox();
  const state = (await api(origin.url, origin.token, 'GET', '/_sandbox/state')).body;
  await origin.stop();
  const started = { none: await start(state, 0), many: await start(state, GRANTS) };
  const none = started.none.sandbox;
  const many = started.many.sandbox;
  try {
    const tokens = { none: started.none.token, many: started.many.token };
    const reads = { space: `/v1/spaces/${SPACE}`, list: '/v1/orgs/org-acme/spaces' };
    const targets = {};
    for (const [read, path] of Object.entries(reads)) {
      for (const [name, sandbox] of Object.entries({ none, many })) {
        const got = await api(sandbox.url, tokens[name], 'GET', path);
        if (got.status !== 200) throw new Error(`${name}: GET ${path}: ${got.status} ${got.text}`);
        targets[`${read} ${name}`] = {
          url: `${sandbox.url}${path}`,
          headers: { authorization: `Bearer ${tokens[name]}` },
          connections: CONNECTIONS,
          durationMs,
        };
      }
    }
    const names = Object.keys(targets);
    const runs = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length];
        const r = await loadRun(targets[name]);
        if (r.errors || r.statuses[200] !== r.requests) throw new Error(`${name}: unexpected answers ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
        runs[name].push(r);
        process.stderr.write(`    round ${round + 1}: ${name} ${Math.round(r.rps)} req/s\n`);
      }
    }
    const med = (name) => median(runs[name].map((r) => r.rps));
    const command = `npm run bench -- grants  (${LOAD_TOOL}, ${CONNECTIONS} connections, ${durationMs / 1000} s × ${rounds} rounds, alternating)`;
    return Object.entries(reads).map(([read, path]) =>
      result({
        part: 'grants',
        name: `GET ${path.replace(SPACE, '{id}').replace('org-acme', '{id}')} as an editor, ${GRANTS.toLocaleString('en-US')} grants vs none: requests/s`,
        value: med(`${read} many`),
        baseline: med(`${read} none`),
        unit: 'req/s',
        target: 0.9,
        dir: '>=',
        command,
      }),
    );
  } finally {
    await started.none.stop();
    await started.many.stop();
  }
}
