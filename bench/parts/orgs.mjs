/**
 * The organization as code at size: `docsctl orgs export` and `docsctl orgs plan` of an organization
 * of 1,000 spaces, 100 collections and 50 sites with sections (the sandbox started from that file with
 * `serve --seed`), at the default concurrency (8 requests at a time) against the same reads done
 * one at a time (`--concurrency 1`), alternating. Requests are counted from `--verbose`'s trace.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { benchEnv, BIN, setLatency, startServer, tempDir, timedCli } from '../lib/proc.mjs';
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
