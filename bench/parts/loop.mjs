/**
 * One request must not stall the others: the p99 of another client's GETs while hostile work runs,
 * against the same GETs with nothing else running, alternating (target ≤ 2 ×). Two hostile loads:
 *
 * - website imports of hostile pages: a start page whose 20,000 links nest inside each other (each
 *   to a page of its own: 340 KB of HTML, before the fix 4 minutes of the sandbox's thread), and 49
 *   more pages of 5,000 nested links, from a site on 127.0.0.1 in this process;
 * - Markdown costly to read: comments of 65,536 characters (the largest accepted) whose reading is
 *   quadratic (`a` then `]`: each closes no label; before the fix minutes of the thread each), each
 *   new (so never remembered as too costly) and read back as a document.
 *
 * The sandbox is `docsctl serve --memory` (the built CLI). Each load runs its requests one after
 * the other for the whole window; the other client sends `GET /v1/spaces/{id}` every 20 ms.
 */
import http from 'node:http';
import { startSandbox } from '../lib/sandbox.mjs';
import { median, quantile, result } from '../lib/stats.mjs';

const nested = (count, href) =>
  `<html><head><title>Nested</title></head><body>${Array.from({ length: count }, (_, i) => `<a href="${href(i)}">`).join('')}text${'</a>'.repeat(count)}</body></html>`;

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
  const send = async (method, path, body) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, text: await res.text() };
  };
  try {
    /** GETs every 20 ms for the window; their times in ms. */
    const gets = async () => {
      const times = [];
      const end = performance.now() + windowMs;
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await send('GET', '/v1/spaces/sp-welcome');
        if (res.status !== 200) throw new Error(`GET: ${res.status}`);
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      return times;
    };
    /** `work` run one after the other until `stop()`; the time each took. */
    const repeating = (work) => {
      let stopped = false;
      const took = [];
      const done = (async () => {
        while (!stopped) {
          const t0 = performance.now();
          await work();
          took.push(performance.now() - t0);
        }
      })();
      return {
        took,
        stop: async () => {
          stopped = true;
          await done;
        },
      };
    };
    const importing = async () => {
      const res = await send('POST', '/v1/spaces/sp-welcome/content/import', { url: siteUrl, source: 'website' });
      if (res.status !== 201 && res.status !== 400) throw new Error(`import: ${res.status} ${res.text}`);
    };
    let n = 0;
    const reading = async () => {
      // A new text each time: one the sandbox has not read before.
      const markdown = `${++n} ${']'.repeat(65_536 - String(n).length - 1)}`;
      const posted = await send('POST', '/v1/spaces/sp-welcome/comments', { body: { markdown } });
      if (posted.status !== 201) throw new Error(`comment: ${posted.status} ${posted.text.slice(0, 200)}`);
      const read = await send('GET', `/v1/spaces/sp-welcome/comments/${JSON.parse(posted.text).id}?format=document`);
      if (read.status !== 200) throw new Error(`comment read: ${read.status} ${read.text.slice(0, 200)}`);
    };
    const measure = async (work) => {
      const quiet = [];
      const busy = [];
      const took = [];
      for (let r = 0; r < rounds; r++) {
        quiet.push(...(await gets()));
        const load = repeating(work);
        busy.push(...(await gets()));
        await load.stop();
        took.push(...load.took);
      }
      return { quiet, busy, took };
    };
    const imports = await measure(importing);
    const markdown = await measure(reading);
    const every = `GET /v1/spaces/{id} every 20 ms for ${windowMs / 1000} s × ${rounds}, with and without`;
    return [
      result({
        part: 'loop',
        name: "another client's GET during hostile imports: p99",
        value: quantile(imports.busy, 0.99),
        baseline: quantile(imports.quiet, 0.99),
        unit: 'ms',
        target: 2,
        command: `${every} imports of nested links (20,000 and 5,000 deep) running`,
      }),
      result({
        part: 'loop',
        name: "another client's GET during hostile imports: max",
        value: Math.max(...imports.busy),
        baseline: Math.max(...imports.quiet),
        unit: 'ms',
        command: 'same',
      }),
      result({
        part: 'loop',
        name: `hostile import (50 pages of nested links): median of ${imports.took.length}`,
        value: median(imports.took),
        unit: 'ms',
        command: 'POST /v1/spaces/{id}/content/import, one after the other',
      }),
      result({
        part: 'loop',
        name: "another client's GET during hostile Markdown reads: p99",
        value: quantile(markdown.busy, 0.99),
        baseline: quantile(markdown.quiet, 0.99),
        unit: 'ms',
        target: 2,
        command: `${every} comments of 65,536 characters of \`]\` written and read as documents`,
      }),
      result({
        part: 'loop',
        name: "another client's GET during hostile Markdown reads: max",
        value: Math.max(...markdown.busy),
        baseline: Math.max(...markdown.quiet),
        unit: 'ms',
        command: 'same',
      }),
      result({
        part: 'loop',
        name: `hostile comment written and read as a document: median of ${markdown.took.length}`,
        value: median(markdown.took),
        unit: 'ms',
        command: 'POST /v1/spaces/{id}/comments, then GET …/comments/{id}?format=document',
      }),
    ];
  } finally {
    await sandbox.stop();
    site.closeAllConnections();
    site.close();
  }
}
