/**
 * Markdown and HTML nested beyond the bound are a 400 where they are written (a comment's body, a
 * website import), never a 500 or a stack overflow. In process: the sandbox's app, without a socket
 * for it (the imported site is a real local server).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/serve.js';

let server: RunningServer;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  server = await startServer({ port: 0 });
  site = http.createServer((req, res) => {
    const body = req.url === '/deep' ? `<html><body>${'<blockquote>'.repeat(5000)}deep</body></html>` : '<html><body><p>fine</p></body></html>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server.close();
  site.closeAllConnections();
  await new Promise((done) => site.close(done));
});

async function post(path: string, body: unknown) {
  const admin = server.users.find((u) => u.id === 'u-admin')!;
  const res = await server.app.handle({
    method: 'POST',
    url: path,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { host: new URL(server.url).host, authorization: `Bearer ${admin.token}` },
  });
  return { status: res.status, json: JSON.parse(res.body?.toString() || 'null') };
}

describe('nesting bounds over HTTP', () => {
  it('refuses a comment of Markdown nested 5,000 levels deep with a 400 naming the field', async () => {
    for (const markdown of [`${'> '.repeat(5000)}x`, `${'- '.repeat(5000)}x`, `${'*a '.repeat(5000)}x${' b*'.repeat(5000)}`]) {
      const r = await post('/v1/spaces/sp-welcome/comments', { body: { markdown } });
      expect(r.status).toBe(400);
      expect(r.json.error.message).toMatch(/^body\.markdown: nests .* deeper than 100 levels/);
    }
    expect((await post('/v1/spaces/sp-welcome/comments', { body: { markdown: `${'> '.repeat(50)}fine` } })).status).toBe(201);
  });

  it('refuses a comment document nested 5,000 levels deep with a 400', async () => {
    // Written out as text: JSON.stringify of 5,000 levels would overflow the test's own stack.
    const paragraph = JSON.stringify({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] });
    const node = `${'{"object":"block","type":"blockquote","nodes":['.repeat(5000)}${paragraph}${']}'.repeat(5000)}`;
    const r = await post('/v1/spaces/sp-welcome/comments', `{"body":{"document":{"object":"document","data":{},"nodes":[${node}]}}}`);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/nested deeper than/); // the request body's own depth bound answers first
  });

  it('refuses to import a website whose page nests 5,000 levels deep (400), and imports nothing', async () => {
    const r = await post('/v1/spaces/sp-welcome/content/import', { url: `${siteUrl}/deep`, source: 'website' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/^url: the import failed, nothing was changed: .*deeper than 100 levels/);
  });
});
