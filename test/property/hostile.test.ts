/**
 * Hostile input, generated with fast-check for every route of the contract: wrong types, missing and
 * extra fields, huge strings, deep nesting, invalid UTF-8, malformed JSON, bad cursors, negative and
 * huge limits, path segments with `..`, `%00`, bad percent-encodings and unicode, sent by members,
 * guests, outsiders and anonymous callers against the access table's fixture.
 *
 * Whatever arrives, the sandbox answers within a deadline, never with a 5xx; a 4xx carries the
 * documented error body `{error: {code: <status>, message}}` and changes nothing. A generated
 * request that happens to be valid may succeed (then the fixture is restored).
 *
 * HOSTILE_RUNS sets the generated requests per operation (default 50); HOSTILE_SEED replays a run.
 */
import { STATUS_CODES } from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { families } from '../../src/contract/index.js';
import type { AnyOp } from '../../src/contract/op.js';
import { ORG, OTHER_ORG, startBench, type Bench, type Caller, type FixtureIds } from '../helpers/fixture.js';

/** Percent-encode text, lone surrogates included (as U+FFFD: they have no UTF-8 form; raw ones are in the lists below). */
const enc = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

const ALL_OPS: Record<string, AnyOp> = Object.assign({}, ...Object.values(families));
const RUNS = Number(process.env.HOSTILE_RUNS ?? 50);
const SEED = process.env.HOSTILE_SEED === undefined ? undefined : Number(process.env.HOSTILE_SEED);
const DEADLINE_MS = 3000;

let bench: Bench;
let tried = 0;
beforeAll(async () => {
  bench = await startBench();
  bench.officialProblems(); // the fixture's own setup is checked by the conformance test
});
afterAll(async () => {
  await bench?.close();
  if (tried) console.info(`hostile input: ${tried} generated requests over ${Object.keys(ALL_OPS).length} operations`);
});

// ---------------------------------------------------------------------------------------------
// Generators

/** Real ids for each path parameter, so that many requests get past the routing into the handlers. */
function realIds(f: FixtureIds): Record<string, string[]> {
  return {
    organizationId: [ORG, OTHER_ORG],
    collectionId: [f.collection, f.looseCollection],
    spaceId: [f.space, f.rootSpace, f.trashedSpace],
    userId: ['u-admin', 'u-read', 'u-guest', 'u-outsider'],
    samlProviderId: [f.saml],
    specSlug: [f.specSlug],
    versionId: [f.specVersion, 'latest'],
    changeRequestId: [f.cr, String(f.crNumber), '0', '-1', '99999999999'],
    commentId: [f.spaceComment, f.crComment],
    commentReplyId: [f.spaceReply, f.crReply],
    siteId: [f.site],
    siteSectionId: [...f.sections],
    siteSectionGroupId: [f.group],
    siteSpaceId: [...f.siteSpaces],
    pageId: [f.page],
    fileId: [f.file],
    teamId: [f.team],
    inviteId: [f.inviteLink],
    auditEventId: [f.auditEvent],
  };
}

/** Path segments as they appear in a URL: raw tricks, and arbitrary text percent-encoded. */
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '..%2f..',
    '%00',
    'a%00b',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    '%2F',
    '%5C',
    '%20',
    '__proto__',
    'constructor',
    'null',
    'undefined',
    '-1',
    '1e309',
    '9'.repeat(40),
    '%F0%9F%99%82',
    '%EF%BB%BF',
    'x'.repeat(129),
    'x'.repeat(501),
    "'%20OR%201=1",
    '%3Cscript%3E',
    ';',
    ',',
    '*',
    '~',
    '$',
    '@',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(enc),
);

const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '\uDFFF',
    '\u202E',
    '\uFEFF',
    '../../etc/passwd',
    '%00',
    '${x}',
    '{{x}}',
    '<b>',
    'null',
    '-0',
    'NaN',
    '🙂'.repeat(100),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** Cursors that are not ours, or ours with bad fields. */
const badCursor = fc.oneof(
  hostileText.map(enc),
  fc
    .record({
      s: fc.string({ maxLength: 12 }),
      o: fc.oneof(fc.integer(), fc.double(), fc.constant(-1), fc.constant(2 ** 53)),
      k: fc.oneof(fc.string(), fc.integer()),
    })
    .map((c) => Buffer.from(JSON.stringify(c)).toString('base64url')),
  fc.constant(Buffer.from('{"s":').toString('base64url')),
);

const badLimit = fc.oneof(
  fc.constantFrom('-1', '1001', '1e3', '0x10', ' 5', '5.5', '99999999999999999999', '', 'NaN', 'Infinity', '-0', '1,2'),
  fc.integer().map(String),
);

/** The field names an object schema knows (none for other schemas). */
function keysOf(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function queryFor(op: AnyOp) {
  const known = keysOf(op.query);
  const key = fc.oneof(fc.constantFrom(...known, 'page', 'limit', '__proto__', 'constructor[prototype]', 'a[]'), fc.string({ maxLength: 10 }));
  const value = fc.oneof(hostileText, badLimit, badCursor, fc.constantFrom('true', 'false', 'TRUE', '1'));
  const entries = fc.array(fc.tuple(key, value), { maxLength: 5 });
  return fc.oneof(
    entries.map((list) => list.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')),
    fc.record({ limit: badLimit, page: badCursor }, { requiredKeys: [] }).map((q) =>
      Object.entries(q)
        .map(([k, v]) => `${k}=${k === 'page' ? v : enc(v)}`)
        .join('&'),
    ),
    fc.constantFrom('%', '%ZZ=1', 'limit=%00', 'limit=1&limit=2', 'page=&page=', '&&&', '=x', 'page=%ED%A0%80'),
  );
}

/** Any JSON value, and the wrong type for a field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  hostileText,
  fc.array(hostileText, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant({ type: 'space', space: { $gt: '' } }),
  fc.constant({ __proto__: { polluted: true } }),
);

const deep = (key: string, depth: number, open: string, close: string) => `{${JSON.stringify(key)}:${open.repeat(depth)}1${close.repeat(depth)}}`;

/** Raw bytes: invalid UTF-8 inside an otherwise well-formed JSON text. */
const invalidUtf8 = fc
  .constantFrom([0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xc3])
  .map((bad) => Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bad), Buffer.from('","label":"b","markdown":"c"}')]));

/** A body, and whether no operation that reads a body may accept it (not UTF-8, too deep, not JSON). */
interface Body {
  data: string | Buffer;
  /** For an unreadable one, how the refusal begins. */
  refusal?: string;
}

function bodyFor(op: AnyOp): fc.Arbitrary<Body> {
  const known = keysOf(op.body);
  const field = fc.oneof(fc.constantFrom(...known, '__proto__', 'constructor', 'extra'), fc.string({ maxLength: 12 }));
  const json = (data: string): Body => ({ data });
  return fc.oneof(
    // Known fields with wrong values, and unknown ones.
    fc.dictionary(field, wrongValue, { maxKeys: 5 }).map((o) => json(JSON.stringify(o))),
    fc.jsonValue({ maxDepth: 4 }).map((v) => json(JSON.stringify(v))),
    fc.string({ maxLength: 40 }).map(json),
    fc.constantFrom('[]', '1', 'null', '"x"', 'true', '{}', '{"a":"\\ud800"}').map(json),
    unreadableBody(op),
  );
}

/** Bodies no operation may accept: nested too deep (under a known field or not), not UTF-8, not JSON. */
function unreadableBody(op: AnyOp): fc.Arbitrary<Body> {
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...keysOf(op.body), 'a'), fc.integer({ min: 65, max: 5000 }), fc.boolean())
      .map(([key, depth, arrays]) => ({ data: deep(key, depth, arrays ? '[' : '{"b":', arrays ? ']' : '}'), refusal: 'body: nested deeper than' })),
    invalidUtf8.map((data) => ({ data, refusal: 'body: not valid UTF-8' })),
    fc
      .constantFrom('{', '{"a":', '[1,]', '{"a":1}}', 'nul', '\u0000', '\uFEFF{}', "{'a':1}", '{"a":1,}')
      .map((data) => ({ data, refusal: 'body: malformed JSON' })),
  );
}

function requestFor(op: AnyOp, ids: Record<string, string[]>) {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const segment = (name: string) =>
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(ids[name] ?? ['x'])).map(encodeURIComponent) }, { weight: 1, arbitrary: hostileSegment });
  return fc
    .record({
      params: fc.tuple(...names.map(segment)),
      query: fc.option(queryFor(op), { nil: undefined }),
      body: fc.option(bodyFor(op), { nil: undefined, freq: 4 }),
      who: fc.constantFrom<Caller>('admin', 'admin', 'admin', 'admin', 'read', 'guest', 'outsider', 'none'),
    })
    .map(({ params, query, body, who }) => {
      let i = 0;
      const path = '/v1' + op.path.replace(/\{(\w+)\}/g, () => params[i++]);
      return { who, url: query ? `${path}?${query}` : path, body };
    });
}

/** Whether the operation reads a body at all (the app ignores one sent to an operation that takes none). */
function readsBody(op: AnyOp): boolean {
  return !op.body.safeParse(undefined).success;
}

function withDeadline<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${DEADLINE_MS} ms: ${what}`)), DEADLINE_MS);
    }),
  ]);
}

// ---------------------------------------------------------------------------------------------

describe('hostile requests to every route', () => {
  for (const [id, op] of Object.entries(ALL_OPS)) {
    it(`${op.method} ${op.path} (${id})`, async () => {
      const ids = realIds(bench.ids);
      await fc.assert(
        fc.asyncProperty(requestFor(op, ids), async ({ who, url, body }) => {
          tried++;
          const before = bench.state();
          const what = `${who}: ${op.method} ${url.slice(0, 300)}`;
          const r = await withDeadline(bench.send(who, op.method, url, body?.data), what);
          expect(r.status, `${what} → ${r.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
          expect(r.status, `${what} → ${r.text.slice(0, 300)}`).toBeLessThan(500);
          if (body?.refusal && readsBody(op)) expect(r.status, `${what}: an unreadable body was accepted`).toBeGreaterThanOrEqual(400);
          if (r.status >= 400) {
            expect(r.json, `${what}: error body`).toEqual({ error: { code: r.status, message: expect.stringMatching(/\S/) } });
            expect(bench.state() === before, `${what}: refused with ${r.status} but the state changed`).toBe(true);
          } else {
            // 204 and 205 (a grant taken away) carry no body.
            if (r.status !== 204 && r.status !== 205) expect(r.json, `${what}: a 2xx answer that is not JSON`).toBeDefined();
            expect(bench.officialProblems(), `${what}: the answer against the official document`).toEqual([]);
            bench.restore();
          }
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false },
      );
    });
  }
});

describe('unreadable bodies, on otherwise valid requests', () => {
  for (const [id, op] of Object.entries(ALL_OPS).filter(([, op]) => readsBody(op))) {
    it(`${op.method} ${op.path} (${id})`, async () => {
      const ids = realIds(bench.ids);
      const url = '/v1' + op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name][0]));
      await fc.assert(
        fc.asyncProperty(unreadableBody(op), async (body) => {
          tried++;
          const before = bench.state();
          const r = await withDeadline(bench.send('admin', op.method, url, body.data), `${op.method} ${url}`);
          expect(r.json, `${op.method} ${url} with ${String(body.data).slice(0, 40)}`).toEqual({
            error: { code: 400, message: expect.stringContaining(body.refusal!) },
          });
          expect(bench.state() === before).toBe(true);
        }),
        { numRuns: Math.max(5, Math.round(RUNS / 3)), ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    });
  }
});

// ---------------------------------------------------------------------------------------------
// On the socket: what never reaches the app (malformed HTTP) still gets the documented error body.

/** Send raw bytes, return the raw answer (or '' when the server closed without one). */
function raw(url: string, bytes: string | Buffer): Promise<string> {
  const { port } = new URL(url);
  return withDeadline(
    new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', (e) => (chunks.length ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(e)));
      socket.end(bytes);
    }),
    `raw request ${String(bytes).slice(0, 60)}`,
  );
}

describe('malformed HTTP on the socket', () => {
  it('answers 4xx with the error body, never hangs, and the server keeps serving', async () => {
    const base = bench.server.url;
    const auth = `Authorization: Bearer ${bench.server.token}\r\n`;
    const cases: [string, string | Buffer, number][] = [
      ['a request line that is not HTTP', 'HELLO\r\n\r\n', 400],
      ['a header without a colon', `GET /v1/user HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n`, 400],
      ['a control character in the path', `GET /v1/\x01user HTTP/1.1\r\nHost: x\r\n\r\n`, 400],
      ['headers over the limit', `GET /v1/user HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(80_000)}\r\n\r\n`, 431],
      ['two content lengths', `POST /v1/orgs/${ORG}/collections HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400],
      ['bad chunked encoding', `POST /v1/orgs/${ORG}/collections HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`, 400],
      [
        'a body over 1 MiB',
        Buffer.concat([
          Buffer.from(`POST /v1/orgs/${ORG}/collections HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\nContent-Length: ${2 ** 20 + 1}\r\n\r\n`),
          Buffer.alloc(2 ** 20 + 1, 0x20),
        ]),
        413,
      ],
      ['a path climbing out with ..', `GET /v1/spaces/../../etc/passwd HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, 404],
      // An id outside the official document's pattern (letters, digits, _ and -) is refused by name.
      ['a NUL in the path', `GET /v1/spaces/%00 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, 400],
    ];
    const before = bench.state();
    for (const [what, bytes, status] of cases) {
      const answer = await raw(base, bytes);
      const cut = answer.indexOf('\r\n\r\n');
      const head = answer.slice(0, cut).toLowerCase();
      const payload = answer.slice(cut + 4);
      expect(head.split('\r\n')[0], what).toBe(`http/1.1 ${status} ${STATUS_CODES[status]!.toLowerCase()}`);
      expect(head, what).toContain('content-type: application/json');
      const body = head.includes('transfer-encoding: chunked') ? dechunk(payload) : payload;
      expect(JSON.parse(body), what).toEqual({ error: { code: status, message: expect.stringMatching(/\S/) } });
    }
    expect(bench.state() === before).toBe(true);
    const ok = await raw(base, `GET /v1/user HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expect(ok.startsWith('HTTP/1.1 200 OK')).toBe(true);
  });
});

/** The body of a chunked HTTP/1.1 message. */
function dechunk(text: string): string {
  let out = '';
  for (let at = 0; ; ) {
    const eol = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}
