/**
 * A small, bounded HTTP load generator on undici (the same tool for every server compared).
 * `connections` loops each keep one request in flight on a Pool of that many connections for a
 * fixed duration; every request's latency is recorded. Run as a child process so the load and the
 * server measured never share an event loop:
 *
 *   node bench/lib/load.mjs '{"url":"http://127.0.0.1:4700/v1/x","connections":50,"durationMs":5000}'
 *
 * prints one JSON line: {requests, errors, statuses, rps, p50, p90, p99, max} (latencies in ms).
 * Only loopback URLs are accepted.
 */
import { Pool } from 'undici';

export async function load({ url, method = 'GET', headers = {}, body, bodies, connections = 50, durationMs = 5000, warmupMs = 500 }) {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`load: refusing non-loopback ${target.hostname}`);
  const pool = new Pool(target.origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const path = target.pathname + target.search;
  const latencies = [];
  const statuses = {};
  let errors = 0;
  let n = 0;
  let recording = false;
  let stop = false;

  async function loop() {
    while (!stop) {
      const payload = bodies ? bodies[n++ % bodies.length] : body;
      const t0 = performance.now();
      try {
        const res = await pool.request({ path, method, headers, body: payload });
        await res.body.dump();
        if (recording) {
          latencies.push(performance.now() - t0);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      } catch {
        if (recording) errors++;
      }
    }
  }

  const loops = Array.from({ length: connections }, loop);
  await sleep(warmupMs);
  recording = true;
  const started = performance.now();
  await sleep(durationMs);
  const elapsed = performance.now() - started;
  recording = false;
  stop = true;
  await Promise.all(loops);
  await pool.close();

  latencies.sort((a, b) => a - b);
  const q = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
  return {
    requests: latencies.length,
    errors,
    statuses,
    rps: (latencies.length / elapsed) * 1000,
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await load(JSON.parse(process.argv[2]));
  process.stdout.write(JSON.stringify(result) + '\n');
}
