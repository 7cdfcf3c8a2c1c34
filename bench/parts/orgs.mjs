/**
 * The organization as code at size: `docsctl orgs export` and `docsctl orgs plan` of an organization
 * of 1,000 spaces, 100 collections and 50 sites with sections (the sandbox started from that file with
 * `serve --seed`), at the default concurrency (8 requests at a time) against the same reads done
 * one at a time (`--concurrency 1`), alternating. Requests are counted from `--verbose`'s trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { benchEnv, BIN, peakRss, setLatency, startServer, tempDir, timedCli } from '../lib/proc.mjs';
import { median, result } from '../lib/stats.mjs';

const COLLECTIONS = 100;
const SPACES = 1000;
const SITES = 50;

/** The organization as a file written by hand: keys, references by key, no ids. */
export function bigOrg() {
  const collections = Array.from({ length: COLLECTIONS }, (_, i) => ({
    key: `c${i}`,
    title: `Collection ${i}`,
    ...(i >= 10 ? { parent: `c${i % 10}` } : {}),
  }));
  const spaces = Array.from({ length: SPACES }, (_, i) => ({ key: `s${i}`, title: `Space ${i}`, parent: `c${i % COLLECTIONS}` }));
  const sites = Array.from({ length: SITES }, (_, i) => ({
    key: `site${i}`,
    title: `Site ${i}`,
    sections: [0, 1].map((j) => ({
      key: `sec${j}`,
      title: `Section ${j}`,
      siteSpaces: [0, 1].map((k) => ({ space: `s${(i * 4 + j * 2 + k) % SPACES}` })),
    })),
  }));
  return { version: 1, collections, spaces, sites };
}

/** An organization file of about `mib` MiB written by hand: 100 collections, spaces to fill it. */
function orgFileOf(mib) {
  const collections = Array.from({ length: 100 }, (_, i) => `  - key: c${i}\n    title: Collection ${i}\n${i >= 10 ? `    parent: c${i % 10}\n` : ''}`);
  const head = `version: 1\ncollections:\n${collections.join('')}spaces:\n`;
  const spaces = [];
  let size = head.length;
  for (let i = 0; size < mib * 2 ** 20; i++) {
    const s = `  - key: s${i}\n    title: Space number ${i}\n    parent: c${i % 100}\n    editMode: live\n`;
    spaces.push(s);
    size += s.length;
  }
  return { text: head + spaces.join(''), spaces: spaces.length };
}

/** `orgs validate`'s peak memory on a 10 MiB file against a 1 MiB one: no server, no token. */
export async function validateMemory(dir, quick) {
  const env = benchEnv({ DOCSCTL_ORG_FILE_MAX_BYTES: String(16 * 2 ** 20), DOCSCTL_API_URL: 'http://127.0.0.1:9' });
  delete env.DOCSCTL_TOKEN;
  const rss = {};
  let spaces = 0;
  for (const mib of [1, 10]) {
    const file = join(dir, `validate-${mib}.yaml`);
    const made = orgFileOf(mib);
    writeFileSync(file, made.text);
    if (mib === 10) spaces = made.spaces;
    rss[mib] = [];
    for (let i = 0; i < (quick ? 1 : 3); i++) rss[mib].push(await peakRss(['orgs', 'validate', '-f', file], env));
  }
  return result({
    part: 'orgs',
    name: `orgs validate of a 10 MiB file (${spaces.toLocaleString('en-US')} spaces): peak RSS, vs a 1 MiB file`,
    value: median(rss[10]) / 2 ** 20,
    baseline: median(rss[1]) / 2 ** 20,
    unit: 'MiB',
    command: '/usr/bin/time -f %M docsctl orgs validate -f org.yaml (DOCSCTL_ORG_FILE_MAX_BYTES=16777216; no server, no token)',
  });
}

export default async function orgs({ quick }) {
  const dir = tempDir('orgs');
  const file = join(dir, 'org.yaml');
  writeFileSync(file, stringify(bigOrg()));
  const t0 = Date.now();
  const s = await startServer('node', [BIN, 'serve', '--memory', '--port', '0', '--json', '--seed', file]);
  const seedSeconds = (Date.now() - t0) / 1000;
  try {
    const env = benchEnv({ DOCSCTL_API_URL: s.info.url, DOCSCTL_TOKEN: s.info.token, DOCSCTL_ORG: s.info.organizationId });
    const exported = join(dir, 'exported.yaml');
    const timed = (args) => timedCli(env, args);
    const rounds = quick ? 1 : 3;
    const out = [];
    const latency = (ms) => setLatency(s.info, ms);
    for (const [what, args, ms] of [
      ['export', ['orgs', 'export', '--out', exported], 0],
      ['plan', ['orgs', 'plan', '-f', file], 0],
      ['export', ['orgs', 'export', '--out', exported], 20],
      ['plan', ['orgs', 'plan', '-f', file], 20],
    ]) {
      await latency(ms);
      const pooled = [];
      const serial = [];
      let requests = 0;
      for (let i = 0; i < rounds; i++) {
        const a = await timed(args);
        const b = await timed([...args, '--concurrency', '1']);
        pooled.push(a.ms);
        serial.push(b.ms);
        requests = a.requests;
        if (a.requests !== b.requests) throw new Error(`${what}: ${a.requests} requests pooled, ${b.requests} one at a time`);
      }
      const command = `docsctl ${args.join(' ')} (1,000 spaces, 100 collections, 50 sites × 2 sections × 2 site spaces), vs --concurrency 1${ms ? `; every GET delayed ${ms} ms (a sandbox fault rule), as a service across a network` : ''}`;
      const where = ms ? `, ${ms} ms per GET` : ', loopback';
      out.push(
        result({
          part: 'orgs',
          name: `orgs ${what}${where}: wall time, 8 requests at a time vs one at a time`,
          value: median(pooled),
          baseline: median(serial),
          unit: 'ms',
          command,
        }),
      );
      if (!ms) out.push(result({ part: 'orgs', name: `orgs ${what}: requests made`, value: requests, unit: 'requests', command }));
    }
    await latency(0);
    out.push(await validateMemory(dir, quick));
    out.push(
      result({
        part: 'orgs',
        name: 'serve --seed org.yaml of that size: start, seeded',
        value: seedSeconds,
        unit: 's',
        command: 'docsctl serve --memory --seed org.yaml (applied through the client)',
      }),
    );
    return out;
  } finally {
    await s.stop();
  }
}
