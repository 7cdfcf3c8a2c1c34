/**
 * An independent implementation of the official API description to run the CLI against: Stoplight
 * Prism (npm `@stoplight/prism-cli`) mocking GitBook's published OpenAPI document (npm `@gitbook/api`),
 * on loopback, started as `prism mock` starts it less what changes no answer (mock-server.cjs). Prism validates every request against the document (a request it refuses is answered
 * 4xx, which the CLI reports as a failure) and answers with values made from the response schemas.
 *
 * What the harness does to the document, and why (never to the CLI):
 * - paths get the `/v1` prefix of the document's server URL (`{host}/v1`), which Prism does not apply;
 * - a `$ref` that closes a cycle of schemas (the rich-text Document nodes refer to each other) becomes
 *   a stub of its target (its kinds and the properties that tell variants apart, anything for the
 *   rest): Prism's dereferencer is exponential on cycles and does not start in minutes. Every
 *   operation, field and rule stays, except inside nested rich text.
 *
 * What the harness filters in Prism's answers (what Prism invents, not what the service would send),
 * in a small proxy in front of it:
 * - `null` entries of arrays, where Prism stops generating a recursive item;
 * - `next` of list answers (its cursor is a constant that never ends a `--all` walk), and `count`
 *   made the number of items it sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkRequest, official, type Json } from '../helpers/official.js';

/** Prism's mock server, as `prism mock` starts it (see the file for what it leaves out). */
const MOCK_SERVER = resolve(import.meta.dirname, 'mock-server.cjs');

/** Where the operations Prism read from a document are kept between runs (mock-server.cjs), by the document's hash. */
const CACHE_DIRS = [resolve(import.meta.dirname, '../../node_modules/.cache/docsctl-prism'), join(tmpdir(), 'docsctl-prism-cache')];
/** How many documents' operations are kept (each ~9 MB): the latest, by when they were last used. */
const CACHE_KEPT = 4;

/**
 * The file of the operations Prism reads from `text` (mock-server.cjs writes it the first time):
 * named by the SHA-256 of the document, of the versions of Prism's reader (prism-http, http-spec,
 * json-schema-ref-parser) and of V8's (its serialization), so a change to the document, to what the
 * harness does to it, or to Prism is parsed afresh.
 * Undefined with PRISM_NO_CACHE=1, or where no directory can be written.
 */
function operationsCache(text: string): string | undefined {
  if (process.env.PRISM_NO_CACHE === '1') return undefined;
  // Prism's reader of the document, and what it reads it with, as mock-server.cjs resolves them.
  const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json'));
  const httpRequire = createRequire(prismRequire.resolve('@stoplight/prism-http'));
  const versions = [
    versionOf(prismRequire, '@stoplight/prism-http', '@stoplight/prism-http'),
    versionOf(httpRequire, '@stoplight/http-spec', '@stoplight/http-spec/oas3/operation'),
    versionOf(httpRequire, '@stoplight/json-schema-ref-parser', '@stoplight/json-schema-ref-parser'),
  ];
  const key = createHash('sha256')
    .update(`${versions.join('\0')}\0${process.versions.v8}\0`)
    .update(text)
    .digest('hex')
    .slice(0, 32);
  for (const dir of CACHE_DIRS) {
    try {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `operations-${key}.v8`);
      if (existsSync(file)) utimesSync(file, new Date(), new Date());
      // Keep the latest few: the others go (another worktree's may come back: it is parsed again then).
      const kept = readdirSync(dir)
        .filter((f) => /^operations-[0-9a-f]+\.v8$/.test(f) && f !== `operations-${key}.v8`)
        .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
        .sort((a, b) => b.t - a.t);
      for (const { f } of kept.slice(CACHE_KEPT - 1)) rmSync(join(dir, f), { force: true });
      // A file half written by a process killed meanwhile (mock-server.cjs renames a whole one into place).
      for (const f of readdirSync(dir).filter((f) => f.endsWith('.part'))) {
        if (Date.now() - statSync(join(dir, f)).mtimeMs > 3_600_000) rmSync(join(dir, f), { force: true });
      }
      return file;
    } catch {
      // not writable here: the next
    }
  }
  return undefined;
}

/** The version of package `name`, from the package.json above the file `entry` resolves to (some export no package.json). */
function versionOf(require: NodeJS.Require, name: string, entry: string): string {
  for (let dir = dirname(require.resolve(entry)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
    if (pkg.name === name) return pkg.version;
  }
  throw new Error(`no package.json of ${name} above ${require.resolve(entry)}`);
}

/** The official document, paths under `/v1`, recursive schema references cut (see above). */
function prismDocument(): { doc: Json; cut: number } {
  const doc: Json = structuredClone(official);
  doc.paths = Object.fromEntries(Object.entries(doc.paths as Record<string, unknown>).map(([p, v]) => [`/v1${p}`, v]));
  doc.servers = [{ url: '/' }];
  const schemas = doc.components.schemas as Record<string, Json>;
  const refsOf = (node: Json, out: Set<string>): Set<string> => {
    if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) out.add(v.slice(21));
        else refsOf(v, out);
      }
    }
    return out;
  };
  const graph = new Map(Object.entries(schemas).map(([name, s]) => [name, [...refsOf(s, new Set())]]));
  const component = stronglyConnected(graph);
  const cyclic = (from: string, to: string) => {
    const c = component.get(from);
    return c !== undefined && c === component.get(to) && (c.length > 1 || graph.get(from)!.includes(from));
  };
  // A reference that closes a cycle becomes a stub of its target: the same kinds of value, with the
  // properties that tell variants apart (enums, constants, plain values) and any value for the rest.
  // So a oneOf of node kinds still tells them apart, without Prism walking the cycle.
  let cut = 0;
  const plain = (v: Json) =>
    v && typeof v === 'object' && !v.$ref && (v.enum || v.const !== undefined || ['string', 'number', 'integer', 'boolean'].includes(v.type));
  const stub = (node: Json, depth: number): Json => {
    if (!node || typeof node !== 'object') return node;
    if (node.$ref) return depth > 0 && node.$ref.startsWith('#/components/schemas/') ? stub(official.components.schemas[node.$ref.slice(21)], depth - 1) : {};
    const out: Json = {};
    for (const key of ['type', 'enum', 'const', 'required']) if (node[key] !== undefined) out[key] = node[key];
    if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties as Record<string, Json>).map(([k, v]) => [k, plain(v) ? v : {}]));
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) if (node[key]) out[key] = (node[key] as Json[]).map((b) => stub(b, depth));
    return out;
  };
  const rewrite = (owner: string, node: Json): Json => {
    if (Array.isArray(node)) return node.map((n) => rewrite(owner, n));
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/schemas/') && cyclic(owner, node.$ref.slice(21))) {
      cut++;
      const { $ref, ...rest } = node;
      return { ...rest, ...stub(node, 2), description: `${$ref.slice(21)} (a recursive schema, stubbed for Prism)` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rewrite(owner, v)]));
  };
  for (const name of Object.keys(schemas)) schemas[name] = rewrite(name, schemas[name]);
  return { doc, cut };
}

/** Tarjan's strongly connected components: each name → its component (shared array). */
function stronglyConnected(graph: Map<string, string[]>): Map<string, string[]> {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, string[]>();
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      for (const x of c) component.set(x, c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return component;
}

/** Prism's invented parts out of an answer (see the file's comment). */
function tidy(value: Json): Json {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(tidy);
  if (!value || typeof value !== 'object') return value;
  const out: Json = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidy(v)]));
  if (Array.isArray(out.items) && typeof out.count === 'number') {
    delete out.next;
    out.count = out.items.length;
  }
  return out;
}

interface Refusal {
  method: string;
  url: string;
  status: number;
  body: string;
  /** What Ajv finds wrong with the request, by the same document (Prism's own answer may be a bare example). */
  why: string[];
}

export interface PrismMock {
  /** The proxy's URL: what the CLI is pointed at. */
  url: string;
  /** Requests Prism answered 4xx/5xx (its validation refusing a request shows here), since the last call. */
  refusals(): Refusal[];
  close(): Promise<void>;
}

/** Start Prism on the official document and the proxy in front of it; rejects after `timeoutMs`. */
export async function startPrism(timeoutMs = 90_000): Promise<PrismMock> {
  const dir = mkdtempSync(join(tmpdir(), 'docsctl-prism-'));
  const file = join(dir, 'openapi.json');
  const text = JSON.stringify(prismDocument().doc);
  writeFileSync(file, text);
  const operations = operationsCache(text);
  const port = await freePort();
  const child = spawn(process.execPath, [MOCK_SERVER, file, String(port), ...(operations ? [operations] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  try {
    await listening(child, timeoutMs);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const refused: Refusal[] = [];
  // Prism's answer to each request sent (method, URL, headers, body): a request sent again gets it
  // again without Prism, which answers the same request the same way (static examples; over a run of
  // the command test, 478 of 677 requests were repeats — each command in three output modes — and
  // none of Prism's answers to them differed, the Date header aside). PRISM_NO_CACHE=1 sends all.
  const answers = new Map<string, { status: number; headers: http.OutgoingHttpHeaders; text: string; refusal?: Refusal }>();
  const cache = process.env.PRISM_NO_CACHE !== '1';
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { host: _host, connection: _connection, 'content-length': _length, ...sent } = req.headers;
      const key = JSON.stringify([req.method, req.url, Object.entries(sent).sort(), body.toString('base64')]);
      const seen = cache ? answers.get(key) : undefined;
      if (seen) {
        if (seen.refusal) refused.push({ ...seen.refusal });
        res.writeHead(seen.status, { ...seen.headers, 'content-length': String(Buffer.byteLength(seen.text)) });
        res.end(seen.text);
        return;
      }
      const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          let text = Buffer.concat(parts).toString('utf8');
          const status = answer.statusCode ?? 502;
          let refusal: Refusal | undefined;
          if (status >= 400) {
            const path = (req.url ?? '/').split('?')[0].replace(/^\/v1/, '');
            const why = checkRequest(req.method ?? 'GET', path, body.toString('utf8')).problems;
            refusal = { method: req.method ?? '', url: req.url ?? '', status, body: text.slice(0, 2000), why };
            refused.push({ ...refusal });
          } else if (/json/.test(answer.headers['content-type'] ?? '') && text) {
            try {
              text = JSON.stringify(tidy(JSON.parse(text)));
            } catch {
              // not JSON after all: passed on as it came
            }
          }
          const headers = { ...answer.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          // (The proxy's server dates the copy when it sends it.)
          const { date: _date, ...kept } = headers;
          answers.set(key, { status, headers: kept, text, refusal });
          res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
          res.end(text);
        });
      });
      upstream.on('error', (e) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`prism proxy: ${e.message}`);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', () => done()));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    refusals: () => refused.splice(0),
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((done) => proxy.close(() => done()));
      // Waited for: its CPU time is counted as the run's (time, SUITE_CPU_LOG), and none outlives the run.
      const exited = new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listening(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((done, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`Prism did not start within ${timeoutMs} ms:\n${log.slice(-2000)}`)), timeoutMs);
    const seen = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Prism is listening')) {
        clearTimeout(timer);
        child.stdout?.removeListener('data', seen);
        child.stdout?.resume();
        child.stderr?.resume();
        done();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited with ${code}:\n${log.slice(-2000)}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = http.createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => done(port));
    });
  });
}

/** The leaf commands of docs/commands.md (`docsctl spaces get`, …), in their order there. */
export function leafCommands(markdown = readFileSync(resolve(import.meta.dirname, '../../docs/commands.md'), 'utf8')): string[] {
  const headings = [...markdown.matchAll(/^(#{2,6}) (docsctl(?: [\w-]+)*)\s*$/gm)].map((m) => ({ level: m[1].length, name: m[2] }));
  return headings.filter((h, i) => !(headings[i + 1] && headings[i + 1].level > h.level)).map((h) => h.name.replace(/^docsctl ?/, ''));
}
