/**
 * One request must not stall the others: the p99 of another client's GETs while website imports of
 * hostile pages run, against the same GETs with no import, alternating (target ≤ 2 ×).
 *
 * The site (on 127.0.0.1, in this process) is the worst found: a start page whose 20,000 links
 * nest inside each other (each to a page of its own: 340 KB of HTML, before the fix 4 minutes of
 * the sandbox's thread), and 49 more pages of 5,000 nested links. The sandbox is `docsctl serve
 * --memory` (the built CLI). Imports run one after the other for the whole window; the other
 * client sends `GET /v1/spaces/{id}` every 20 ms.
 */
import http from 'node:http';
import { startSandbox } from '../lib/sandbox.mjs';
import { median, quantile, result } from '../lib/stats.mjs';

const nested = (count, href) => `<html><head><title>Nested</title></head><body>${Array.from({ length: count }, (_, i) => `<a href="${href(i)}">`).join('')}text${'</a>'.repeat(count)}</body></html>`;

export default async function loop({ quick }) {
  const start = nested(20_000, (i) => `/p${i}`);
  const page = nested(5_000, () => '/x');
  const site = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? start : page));
  await new Promise((done) => site.listen(0, '127.0.0.1', done));
  const siteUrl = `http://127.0.0.1:${site.address().port}/`;
  const sandbox = await startSandbox();
  const headers = { authorization: `Bearer ${sandbox.token}` };
  const windowMs = quick ? 5_000 : 20_000;
  const rounds = quick ? 1 : 2;
  let imports = 0;
  const importMs = [];
  try {
    /** GETs every 20 ms for the window; their times in ms. */
    const gets = async () => {
      const times = [];
      const end = performance.now() + windowMs;
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await fetch(`${sandbox.url}/v1/spaces/sp-welcome`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET: ${res.status}`);
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      return times;
    };
    /** Imports one after the other until `stop()`. */
    const importing = () => {
      let stopped = false;
      const done = (async () => {
        while (!stopped) {
          const t0 = performance.now();
          const res = await fetch(`${sandbox.url}/v1/spaces/sp-welcome/content/import`, {
            method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: siteUrl, source: 'website' }),
          });
          const body = await res.text();
          if (res.status !== 201 && res.status !== 400) throw new Error(`import: ${res.status} ${body}`);
          importMs.push(performance.now() - t0);
          imports++;
        }
      })();
      return async () => {
        stopped = true;
        await done;
      };
    };
    const quiet = [];
    const busy = [];
    for (let r = 0; r < rounds; r++) {
      quiet.push(...(await gets()));
      const stop = importing();
      busy.push(...(await gets()));
      await stop();
    }
    const command = `GET /v1/spaces/{id} every 20 ms for ${windowMs / 1000} s × ${rounds}, with and without imports of nested links (20,000 and 5,000 deep) running`;
    return [
      result({ part: 'loop', name: "another client's GET during hostile imports: p99", value: quantile(busy, 0.99), baseline: quantile(quiet, 0.99), unit: 'ms', target: 2, command }),
      result({ part: 'loop', name: "another client's GET during hostile imports: max", value: Math.max(...busy), baseline: Math.max(...quiet), unit: 'ms', command }),
      result({ part: 'loop', name: `hostile import (50 pages of nested links): median of ${imports}`, value: median(importMs), unit: 'ms', command: 'POST /v1/spaces/{id}/content/import, one after the other' }),
    ];
  } finally {
    await sandbox.stop();
    site.closeAllConnections();
    site.close();
  }
}
