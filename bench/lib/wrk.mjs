/**
 * The HTTP load of the throughput figures with wrk (from the OS packages: `apt-get install wrk`),
 * one thread and `connections` connections, each keeping one request in flight for a fixed time.
 * wrk is written in C: it takes far less of the machine than a load generator in Node, so on two
 * cores the server measured, not the load tool, sets the pace. `load(target)` answers the same
 * shape as bench/lib/load.mjs (the undici generator used when wrk is missing):
 * {requests, errors, statuses, rps, p50, p90, p99, max} (latencies in ms).
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempDir } from './proc.mjs';

export const WRK = process.env.WRK ?? '/usr/bin/wrk';

export function wrkAvailable() {
  return existsSync(WRK);
}

/** A Lua string literal of `s` (every byte outside printable ASCII, and `"` and `\`, as \ddd). */
function lua(s) {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) out += b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${b}`;
  return out + '"';
}

/**
 * The script: the requests formatted once (cycled when there are several bodies), every answer's
 * status counted, and a JSON line of the figures printed when wrk is done.
 */
function script({ method, path, headers, bodies }) {
  const headerTable = `{${Object.entries(headers)
    .map(([k, v]) => `[${lua(k)}] = ${lua(v)}`)
    .join(', ')}}`;
  const formatted = bodies.map((b) => `wrk.format(${lua(method)}, ${lua(path)}, ${headerTable}, ${b === undefined ? 'nil' : lua(b)})`);
  return `
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  statuses = {}
  requests = { ${formatted.join(',\n    ')} }
  n = 0
end
function request()
  n = n % #requests + 1
  return requests[n]
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local counted = {}
  for _, t in ipairs(threads) do
    for status, count in pairs(t:get("statuses")) do counted[status] = (counted[status] or 0) + count end
  end
  local parts = {}
  for status, count in pairs(counted) do table.insert(parts, string.format('"%d":%d', status, count)) end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"errors":%d,"statuses":{%s},"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, table.concat(parts, ","),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;
}

/** One run of wrk against `target` ({url, method, headers, body, bodies, connections, durationMs, warmupMs}). */
export async function load({ url, method = 'GET', headers = {}, body, bodies, connections = 50, durationMs = 5000, warmupMs = 500 }) {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`wrk: refusing non-loopback ${target.hostname}`);
  const dir = tempDir('wrk');
  const file = join(dir, 'load.lua');
  writeFileSync(file, script({ method, path: target.pathname + target.search, headers: { Host: target.host, ...headers }, bodies: bodies ?? [body] }));
  const wrk = async (ms) => {
    const r = await run(WRK, ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(ms / 1000))}s`, '--timeout', '10s', '-s', file, url], {
      timeoutMs: ms + 60_000,
    });
    if (r.code !== 0) throw new Error(`wrk failed (${r.code}): ${r.stderr.trim()}`);
    const line = r.stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no figures:\n${r.stdout}\n${r.stderr}`);
    return JSON.parse(line);
  };
  try {
    if (warmupMs > 0) await wrk(warmupMs);
    const r = await wrk(durationMs);
    const ms = (us) => us / 1000;
    return {
      requests: r.requests,
      errors: r.errors,
      statuses: r.statuses,
      rps: r.requests / (r.durationUs / 1e6),
      p50: ms(r.p50),
      p90: ms(r.p90),
      p99: ms(r.p99),
      max: ms(r.max),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
