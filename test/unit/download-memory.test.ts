/**
 * A streamed download holds no more than about `releaseEveryBytes` of chunks already given to its
 * sink: the client asks for a minor collection (HttpOptions.collectGarbage, which the process entry
 * gives: src/entry.ts) after every `releaseEveryBytes`, so the buffers Node read the socket into are
 * collected as the download goes, not when V8's external-memory threshold comes (tens of MB later).
 * Measured as what Node's buffer allocator holds (`process.memoryUsage().arrayBuffers`), sampled at
 * every chunk. The collection here is V8's, had as src/entry.ts has it.
 */
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/client/http.js';
import { CLIENT_LIMITS } from '../../src/client/limits.js';

const SIZE = 48 * 1024 * 1024;
const block = Buffer.alloc(64 * 1024, 7);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': SIZE });
    let left = SIZE;
    const pump = () => {
      while (left > 0) {
        const c = left >= block.length ? block : block.subarray(0, left);
        left -= c.length;
        if (!res.write(c)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (o: { type: 'minor' }) => void;
setFlagsFromString('--no-expose-gc');

describe('a streamed download', () => {
  it('keeps its dead chunks within a few MiB, whatever its size: a minor collection every releaseEveryBytes', async () => {
    let collections = 0;
    const client = new HttpClient({
      baseUrl: base,
      timeoutMs: 60_000,
      collectGarbage: () => {
        collections++;
        gc({ type: 'minor' });
      },
    });
    const start = process.memoryUsage().arrayBuffers;
    let held = 0;
    let size = 0;
    try {
      await client.send({
        method: 'GET',
        path: `${base}/big.bin`,
        anonymous: true,
        sink: (chunk) => {
          size += chunk.length;
          held = Math.max(held, process.memoryUsage().arrayBuffers - start);
        },
      });
    } finally {
      await client.close();
    }
    expect(size).toBe(SIZE);
    expect(collections).toBe(SIZE / CLIENT_LIMITS.releaseEveryBytes);
    // Without the collections: ~30 MiB and more (the chunks wait for V8's external-memory threshold).
    expect(held).toBeLessThan(CLIENT_LIMITS.releaseEveryBytes + 6 * 1024 * 1024);
  });
});
