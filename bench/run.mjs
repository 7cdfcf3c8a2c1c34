/**
 * docsctl's benchmark suite (not part of `npm test`). Every figure is a ratio to a baseline
 * measured in the same run on the same machine, alternating the two; see docs/performance.md.
 *
 *   npm run bench                      every part (about 7 minutes here)
 *   npm run bench -- quick             every part, fewer and shorter rounds (about a minute or two)
 *   npm run bench -- startup request   only these parts (quick may be added)
 *   npm run bench -- --json FILE       also write the results as JSON
 *
 * Parts: startup, request, http, scale, search, search-engine, prism, orgs, orgs-access, access, storage, loop, grants, export. The CLI must be built (`npm run build`).
 * Every server listens on 127.0.0.1 only, every load runs for a fixed time.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hyperfineAvailable, HYPERFINE } from './lib/hyperfine.mjs';
import { ROOT } from './lib/proc.mjs';
import { fmt, markdownTable } from './lib/stats.mjs';

const PARTS = {
  startup: { load: () => import('./parts/startup.mjs'), needs: 'hyperfine' },
  request: { load: () => import('./parts/request.mjs'), needs: 'hyperfine' },
  http: { load: () => import('./parts/http.mjs') },
  scale: { load: () => import('./parts/scale.mjs'), needs: 'hyperfine' },
  search: { load: () => import('./parts/search.mjs') },
  'search-engine': { load: () => import('./parts/search-engine.mjs') },
  prism: { load: () => import('./parts/prism.mjs') },
  orgs: { load: () => import('./parts/orgs.mjs') },
  'orgs-access': { load: () => import('./parts/orgs-access.mjs') },
  access: { load: () => import('./parts/access.mjs') },
  storage: { load: () => import('./parts/storage.mjs') },
  loop: { load: () => import('./parts/loop.mjs') },
  grants: { load: () => import('./parts/grants.mjs') },
  export: { load: () => import('./parts/export.mjs') },
};

const args = process.argv.slice(2);
let jsonOut;
const words = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--json') jsonOut = args[++i];
  else words.push(args[i]);
}
const quick = words.includes('quick');
const unknown = words.filter((w) => w !== 'quick' && !(w in PARTS));
if (unknown.length || (args.includes('--json') && !jsonOut)) {
  process.stderr.write(`usage: npm run bench -- [quick] [${Object.keys(PARTS).join('|')}...] [--json FILE]\n`);
  process.exit(2);
}
const selected = words.filter((w) => w in PARTS);
const parts = selected.length ? selected : Object.keys(PARTS);

if (!existsSync(join(ROOT, 'dist/cli.cjs'))) {
  process.stderr.write('dist/ is missing: run npm run build first\n');
  process.exit(2);
}

const results = [];
const skipped = [];
const started = Date.now();
for (const name of parts) {
  const part = PARTS[name];
  if (part.needs === 'hyperfine' && !hyperfineAvailable()) {
    skipped.push({ part: name, reason: `hyperfine not found at ${HYPERFINE} (set HYPERFINE)` });
    continue;
  }
  const t0 = Date.now();
  process.stderr.write(`▶ ${name}${quick ? ' (quick)' : ''}…\n`);
  try {
    const out = await (await part.load()).default({ quick });
    if (out.skipped) skipped.push({ part: name, reason: out.skipped });
    for (const r of out.results ?? out) {
      results.push(r);
      process.stderr.write(
        `  ${r.name}: ${fmt(r.value)} ${r.unit ?? ''}${r.baseline !== undefined ? ` vs ${fmt(r.baseline)} → ${fmt(r.ratio)} ×` : ''}${r.target !== undefined ? ` (target ${r.dir} ${r.target}: ${r.met ? 'met' : 'MISSED'})` : ''}\n`,
      );
    }
  } catch (err) {
    skipped.push({ part: name, reason: `failed: ${err.message}` });
    process.stderr.write(`  ${name} failed: ${err.stack}\n`);
  }
  process.stderr.write(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
}

const date = new Date().toISOString().slice(0, 10);
process.stdout.write(`\nResults (${date}, node ${process.version}, ${quick ? 'quick' : 'full'} run, ${((Date.now() - started) / 1000).toFixed(0)} s):\n\n`);
process.stdout.write(markdownTable(results) + '\n');
for (const s of skipped) process.stdout.write(`\n${s.part}: ${s.reason}`);
process.stdout.write(skipped.length ? '\n' : '');
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date, node: process.version, quick, results, skipped }, null, 2) + '\n');
process.exitCode = skipped.some((s) => s.reason.startsWith('failed')) ? 1 : 0;
