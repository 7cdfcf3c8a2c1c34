/**
 * GitBook's own client (npm `@gitbook/api`, generated from the official document) against the sandbox,
 * unchanged: every operation of the contract that the document has is called through its method (the
 * official operationId), with the access table's request, on the fixture holding one of everything.
 * Each call must succeed (the client throws on a non-2xx answer) and answer what the document describes.
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG, startBench, TEAM, type Bench } from '../helpers/fixture.js';
import { officialByTemplate } from '../helpers/official.js';
import { ALL_OPS, table, type Row } from '../helpers/operations.js';

let bench: Bench;
let rows: Record<string, Row>;
let client: GitBookAPI;

beforeAll(async () => {
  bench = await startBench();
  bench.officialProblems();
  rows = table(bench.ids, bench.website);
  client = new GitBookAPI({ endpoint: bench.server.url, authToken: bench.server.token, userAgent: 'gitbook-api-client (docsctl conformance test)' });
});
afterAll(async () => {
  await bench?.close();
});

type Method = (...args: unknown[]) => Promise<{ status: number; data: unknown }>;
interface ClientMethod {
  name: string;
  fn: Method;
  /** Its parameters as generated: path parameters in order, then `data` (the body) and `query`, in the generator's order. */
  params: string[];
}

/**
 * The client's methods by HTTP method and path template (`GET /spaces/{}`), read off the generated
 * code (its names normalise the operationIds' casing: `getChangeRequestPDF` is `getChangeRequestPdf`).
 */
function clientMethods(): Map<string, ClientMethod> {
  const out = new Map<string, ClientMethod>();
  for (const group of Object.values(client as unknown as Record<string, unknown>)) {
    if (!group || typeof group !== 'object') continue;
    for (const [name, fn] of Object.entries(group as Record<string, unknown>)) {
      if (typeof fn !== 'function') continue;
      const code = fn.toString();
      const path = /path: `([^`]*)`/.exec(code)?.[1];
      const method = /method: "(\w+)"/.exec(code)?.[1];
      const params = /^\(([^)]*)\)/
        .exec(code)?.[1]
        .split(',')
        .map((p) => p.trim().split(/\s*=/)[0])
        .filter(Boolean);
      if (path && method && params) out.set(`${method} ${path.replace(/\$\{[^}]+\}/g, '{}')}`, { name, fn: fn as Method, params });
    }
  }
  return out;
}

const mapped = Object.entries(ALL_OPS)
  .map(([id, op]) => ({ id, op, official: officialByTemplate(op.method, op.path) }))
  .filter((x) => x.official !== undefined);

describe('the official client (@gitbook/api) against the sandbox', () => {
  const key = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

  it('has a method for every operation of the contract that the document has', () => {
    const methods = clientMethods();
    expect(mapped.filter((m) => !methods.has(key(m.op.method, m.official!.path))).map((m) => m.official!.operationId)).toEqual([]);
  });

  for (const { id, op, official } of mapped) {
    it(`${official!.operationId} (${id})`, async () => {
      bench.restore();
      const row = rows[id];
      const method = clientMethods().get(key(op.method, official!.path));
      expect(method, `no client method for ${official!.operationId}`).toBeDefined();
      const pathValues = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => String(row.params?.[m[1]]));
      let next = 0;
      const args = method!.params
        .filter((p) => p !== 'params')
        .map((p) => (p === 'data' ? (row.body ?? {}) : p === 'query' ? (row.query ?? {}) : pathValues[next++]));
      let result: { status: number; data: unknown };
      try {
        result = await method!.fn(...args);
      } catch (e) {
        throw new Error(`${method!.name}(${args.map((a) => JSON.stringify(a)).join(', ')}) failed: ${(e as Error).message}`);
      }
      expect(result.status).toBe(op.status);
      expect(bench.officialProblems()).toEqual([]);
    });
  }
});

describe('the official client takes the answers the rows do not give', () => {
  const key = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

  it('a removed grant answers 205 (204: there was none), and the client takes both', async () => {
    bench.restore();
    const methods = clientMethods();
    const removals: [string, string, string[]][] = [
      ['removeUserFromSpace', '/spaces/{spaceId}/permissions/users/{userId}', [bench.ids.rootSpace, 'u-read']],
      ['removeTeamFromSpace', '/spaces/{spaceId}/permissions/teams/{teamId}', [bench.ids.rootSpace, TEAM]],
      ['removeUserFromCollection', '/collections/{collectionId}/permissions/users/{userId}', [bench.ids.looseCollection, 'u-read']],
      ['removeTeamFromCollection', '/collections/{collectionId}/permissions/teams/{teamId}', [bench.ids.looseCollection, TEAM]],
      ['removeUserFromSite', '/orgs/{organizationId}/sites/{siteId}/permissions/users/{userId}', [ORG, bench.ids.site, 'u-read']],
    ];
    for (const [id, path, args] of removals) {
      const method = methods.get(key('DELETE', path));
      expect(method, id).toBeDefined();
      expect((await method!.fn(...args)).status, id).toBe(205);
      expect((await method!.fn(...args)).status, `${id} again`).toBe(204);
    }
    expect(bench.officialProblems()).toEqual([]);
  });
});
