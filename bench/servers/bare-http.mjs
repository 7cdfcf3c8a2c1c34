/**
 * The baseline of the throughput figures: a bare node:http server answering
 * `GET /v1/spaces/{id}` with the same JSON as the sandbox, from a Map (serialised per request,
 * as a real server would); and, for reference, any POST under it by reading and parsing the body
 * and answering 201 with that space and the body. Usage: `node bench/servers/bare-http.mjs FILE` where FILE holds
 * `{"<id>": <object>, ...}`; prints `{"url": ...}` once listening on 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const spaces = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
const PREFIX = '/v1/spaces/';

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    // The reference for a POST: read the body, parse it, answer a JSON of about the same size.
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const space = spaces.get(req.url.slice(PREFIX.length).split('/')[0]);
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ ...space, body }));
    });
    return;
  }
  const space = req.method === 'GET' && req.url.startsWith(PREFIX) ? spaces.get(req.url.slice(PREFIX.length)) : undefined;
  if (!space) {
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"error":{"code":404,"message":"not found"}}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(space));
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)) && server.closeAllConnections());
