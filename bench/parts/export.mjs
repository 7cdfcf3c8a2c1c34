/**
 * Content as files at size (docs/content-export.md): `docsctl content export` of a space of 1,000
 * pages and 200 files from a service answering every request in 20 ms (bench/servers/content-service.mjs:
 * the official operations, files from URLs of their own), at the default concurrency (8 requests at
 * a time) against the same requests one at a time (`--concurrency 1`), alternating; and the CLI's
 * peak memory exporting a space holding one 200 MB file against one holding a 2 MB file (the file
 * streamed to disk: about the same). Quick: 100 pages, 20 files, 20 MB against 2 MB.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, peakRss, ROOT, startServer, tempDir, timedCli } from '../lib/proc.mjs';
import { median, result } from '../lib/stats.mjs';

const SERVER = join(ROOT, 'bench/servers/content-service.mjs');

export default async function exportPart({ quick }) {
  const dir = tempDir('export');
  const out = [];
  const pagesN = quick ? 100 : 1000;
  const filesN = quick ? 20 : 200;
  const rounds = quick ? 1 : 3;
  try {
    const s = await startServer('node', [SERVER, '--pages', String(pagesN), '--files', String(filesN), '--latency', '20']);
    try {
      const env = benchEnv({ DOCSCTL_API_URL: s.info.url, DOCSCTL_TOKEN: s.info.token });
      const pooled = [];
      const serial = [];
      let requests = 0;
      for (let i = 0; i < rounds; i++) {
        // A fresh folder each time: every page read and every file downloaded.
        const a = join(dir, `pooled-${i}`);
        const b = join(dir, `serial-${i}`);
        const ta = await timedCli(env, ['content', 'export', s.info.space, '--out', a]);
        const tb = await timedCli(env, ['content', 'export', s.info.space, '--out', b, '--concurrency', '1']);
        if (ta.requests !== tb.requests) throw new Error(`${ta.requests} requests pooled, ${tb.requests} one at a time`);
        pooled.push(ta.ms);
        serial.push(tb.ms);
        requests = ta.requests;
        rmSync(a, { recursive: true, force: true });
        rmSync(b, { recursive: true, force: true });
      }
      const command = `docsctl content export SPACE --out DIR (${pagesN} pages, ${filesN} files of 4 KiB; every request answered in 20 ms), vs --concurrency 1`;
      out.push(
        result({
          part: 'export',
          name: `content export, ${pagesN} pages and ${filesN} files, 20 ms per request: wall time, 8 at a time vs one at a time`,
          value: median(pooled),
          baseline: median(serial),
          unit: 'ms',
          command,
        }),
        result({
          part: 'export',
          name: 'content export: requests made (pages listed, each page read, files listed, each file downloaded)',
          value: requests,
          unit: 'requests',
          command,
        }),
      );
    } finally {
      await s.stop();
    }

    const big = quick ? 20e6 : 200e6;
    const small = 2e6;
    const mid = 20e6;
    const rss = {};
    for (const size of quick ? [small, big] : [small, mid, big]) {
      const s2 = await startServer('node', [SERVER, '--pages', '1', '--files', '0', '--big', String(size)]);
      try {
        const env = benchEnv({ DOCSCTL_API_URL: s2.info.url, DOCSCTL_TOKEN: s2.info.token, DOCSCTL_TIMEOUT: '600' });
        rss[size] = [];
        for (let i = 0; i < rounds; i++) {
          const folder = join(dir, `rss-${size}-${i}`);
          rss[size].push(await peakRss(['content', 'export', s2.info.space, '--out', folder], env));
          rmSync(folder, { recursive: true, force: true });
        }
      } finally {
        await s2.stop();
      }
    }
    out.push(
      result({
        part: 'export',
        name: `content export of a space with a ${big / 1e6} MB file: peak RSS, vs a ${small / 1e6} MB file`,
        value: median(rss[big]) / 2 ** 20,
        baseline: median(rss[small]) / 2 ** 20,
        unit: 'MiB',
        target: 1.2,
        command: '/usr/bin/time -f %M docsctl content export SPACE --out DIR (one page, one file streamed to disk)',
      }),
    );
    // Flat whatever the size: past a few tens of MB, what a larger file adds.
    if (!quick)
      out.push(
        result({
          part: 'export',
          name: `content export of a space with a ${big / 1e6} MB file: peak RSS, vs a ${mid / 1e6} MB file`,
          value: median(rss[big]) / 2 ** 20,
          baseline: median(rss[mid]) / 2 ** 20,
          unit: 'MiB',
          target: 1.1,
          command: '/usr/bin/time -f %M docsctl content export SPACE --out DIR (one page, one file streamed to disk)',
        }),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
