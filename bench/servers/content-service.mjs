/**
 * A service holding one space, answering the official content operations `docsctl content export`
 * uses (list pages, get a page's document, list files, a file's download URL) as the real service
 * does: files downloaded from URLs of their own, which the sandbox does not serve (its files are
 * `data:` URLs). Every request waits `--latency` ms, as a service across a network.
 *
 *   node bench/servers/content-service.mjs --pages N --files M [--big BYTES] [--latency MS]
 *
 * Files are `--files` small ones (4 KiB) and, with `--big`, one of BYTES, generated as it is sent
 * (the server holds none of it). Prints `{"url", "token", "space"}` once listening on 127.0.0.1.
 */
import { createServer } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const PAGES = arg('pages', 100);
const FILES = arg('files', 20);
const BIG = arg('big', 0);
const LATENCY = arg('latency', 0);
const SPACE = 'sp-bench';
const TOKEN = 'bench-token';
const PER_FOLDER = 10;

const text = (t) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const pages = [];
for (let i = 0; i < PAGES; i += PER_FOLDER) {
  const children = [];
  for (let j = i + 1; j < Math.min(i + PER_FOLDER, PAGES); j++)
    children.push({
      object: 'page',
      id: `pg${j}`,
      title: `Page ${j}`,
      kind: 'sheet',
      type: 'document',
      slug: `page-${j}`,
      path: `part-${i}/page-${j}`,
      pages: [],
    });
  pages.push({ object: 'page', id: `pg${i}`, title: `Part ${i}`, kind: 'sheet', type: 'document', slug: `part-${i}`, path: `part-${i}`, pages: children });
}
const byId = new Map();
const walk = (list) => list.forEach((p) => (byId.set(p.id, p), walk(p.pages)));
walk(pages);
const files = Array.from({ length: FILES }, (_, i) => ({ id: `fl${i}`, name: `file-${i}.bin`, size: 4096 }));
if (BIG) files.push({ id: 'big', name: 'big.bin', size: BIG });

function documentOf(page, n) {
  return {
    object: 'document',
    data: { schemaVersion: 1 },
    nodes: [
      { object: 'block', type: 'heading-1', data: {}, nodes: [text(page.title)] },
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [
          text('Some text of the page, then a link to the next page and one to a file: '),
          { object: 'inline', type: 'link', data: { ref: { kind: 'page', page: `pg${(n + 1) % PAGES}` } }, nodes: [text('next')] },
          text(', '),
          { object: 'inline', type: 'link', data: { ref: { kind: 'file', file: `fl${n % Math.max(FILES, 1)}` } }, nodes: [text('a file')] },
          text('.'),
        ],
      },
      { object: 'block', type: 'code', data: { syntax: 'sh' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text(`echo ${n}`)] }] },
    ],
  };
}

/** `size` bytes of a pattern, written as the socket takes them. */
function sendBytes(res, size) {
  const chunk = Buffer.alloc(64 * 1024, 'docsctl ');
  let left = size;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

let base = '';
const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const server = createServer((req, res) => {
  setTimeout(() => {
    const url = new URL(req.url, base);
    const p = url.pathname;
    if (p.startsWith('/files/')) {
      const f = files.find((x) => x.id === p.slice('/files/'.length));
      if (!f) return json(res, 404, { error: { code: 404, message: 'no file' } });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(f.size) });
      return sendBytes(res, f.size);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { error: { code: 401, message: 'no token' } });
    if (p === `/v1/spaces/${SPACE}/content/pages`) return json(res, 200, { pages });
    if (p === `/v1/spaces/${SPACE}/content/files`) {
      const start = Number(url.searchParams.get('page') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const items = files
        .slice(start, start + limit)
        .map((f) => ({ object: 'file', ...f, contentType: 'application/octet-stream', downloadURL: `${base}/files/${f.id}` }));
      return json(res, 200, { items, ...(start + limit < files.length ? { next: { page: String(start + limit) } } : {}) });
    }
    const m = new RegExp(`^/v1/spaces/${SPACE}/content/page/([^/]+)$`).exec(p);
    const page = m && byId.get(m[1]);
    if (page) {
      const { pages: _children, ...rest } = page;
      return json(res, 200, { ...rest, document: documentOf(page, Number(page.id.slice(2))) });
    }
    json(res, 404, { error: { code: 404, message: `no ${p}` } });
  }, LATENCY);
});
server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`;
  process.stdout.write(`${JSON.stringify({ url: base, token: TOKEN, space: SPACE })}\n`);
});
