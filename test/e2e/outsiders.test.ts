/**
 * Organizations stay apart (docs/security.md): a caller without access to an organization gets the
 * same answer, status and body, whether the ids it sends exist or not, and whatever body and query
 * it sends (access is checked before either is read). Every operation of the contract is sent by
 * u-outsider (admin of org-globex only) against org-acme's fixture: with the fixture's real ids, with
 * each id in turn replaced by one that exists nowhere, with all of them replaced, each with the
 * table's valid body, a malformed one and one of the wrong type, and with a bad query. The ids of
 * the URL are blanked out of the answers before comparing them (`no space sp-x` / `no space nope`),
 * and what is left may name nothing of org-acme.
 *
 * The operations a visitor may use (`visitors` in the contract: a published site's profile and
 * lists, a space through its share link) read their query first: for them the answers are compared
 * per query. A delete of the path's object answers 204 as for a missing one, and deletes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG, startBench, type Bench } from '../helpers/fixture.js';
import { ALL_OPS, table, urlOf, type Row } from '../helpers/operations.js';

let bench: Bench;
let rows: Record<string, Row>;
let sent = 0;

beforeAll(async () => {
  bench = await startBench();
  rows = table(bench.ids, bench.website);
});
afterAll(async () => {
  await bench?.close();
  if (sent) console.info(`outsiders: ${Object.keys(ALL_OPS).length} operations, ${sent} requests by a non-member compared`);
});

/** Ids that exist nowhere, one per path parameter. */
const absent = (name: string) => `nope-${name.toLowerCase()}`;

const BODIES: { name: string; body: (row: Row) => unknown }[] = [
  { name: 'the valid body', body: (row) => row.body },
  { name: 'a malformed body', body: () => '{"title": ' },
  { name: 'a body of the wrong type', body: () => [42] },
];
const QUERIES: { name: string; query: (row: Row) => Record<string, string> | undefined }[] = [
  { name: 'the valid query', query: (row) => row.query },
  { name: 'a wrong share key', query: (row) => ({ ...row.query, shareKey: 'not-the-key' }) },
  { name: 'a bad query', query: (row) => ({ ...row.query, limit: 'many', bogus: '1' }) },
];

/** Every value of the fixture's ids, which an outsider's answer may not show (org-acme's own name blanked only where the URL holds it). */
function fixtureValues(): string[] {
  return [ORG, ...Object.values(bench.ids).flat().map(String)].filter((v) => v.length > 2);
}

describe('a non-member gets one answer per operation, whatever the ids, the body and the query', () => {
  for (const [id, op] of Object.entries(ALL_OPS)) {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (names.length === 0) continue; // /user and /orgs: no organization's ids
    it(`${op.method} ${op.path} (${id})`, async () => {
      const row = rows[id];
      const real = row.params ?? {};
      const paramSets: { name: string; params: Record<string, string | number> }[] = [
        { name: 'existing ids', params: real },
        ...names.map((n) => ({ name: `${n} absent`, params: { ...real, [n]: absent(n) } })),
        ...(names.length > 1 ? [{ name: 'all ids absent', params: Object.fromEntries(names.map((n) => [n, absent(n)])) }] : []),
      ];
      // Joining with an invite link is what a non-member may do (test/e2e/teams-invites-audit.test.ts):
      // here only the absent ids, which must answer alike.
      if (row.outsiderJoins) paramSets.shift();
      const before = bench.state();
      // answer → the cases that got it, per group (one group; one per query for the visitors' operations)
      const groups = new Map<string, Map<string, string[]>>();
      const problems: string[] = [];
      for (const q of QUERIES) {
        for (const p of paramSets) {
          for (const b of BODIES) {
            const url = urlOf(op, { ...row, params: p.params, ...(q.query(row) ? { query: q.query(row) } : {}) });
            const r = await bench.send('outsider', op.method, url, b.body(row));
            sent++;
            const what = `${p.name}, ${b.name}, ${q.name}`;
            // The URL's own ids blanked out, longest first.
            const values = names.map((n) => [String(p.params[n]), `{${n}}`] as const).sort((x, y) => y[0].length - x[0].length);
            let text = r.text;
            for (const [v, blank] of values) text = text.split(v).join(blank);
            if (r.status < 400 && r.text !== '') problems.push(`${what}: answered ${r.status} with a body`);
            for (const v of fixtureValues()) if (text.includes(v)) problems.push(`${what}: the answer names ${v}: ${text}`);
            const group = groups.get(op.visitors ? q.name : '') ?? new Map<string, string[]>();
            groups.set(op.visitors ? q.name : '', group);
            const answer = `${r.status} ${text}`;
            group.set(answer, [...(group.get(answer) ?? []), what]);
          }
        }
      }
      if (bench.state() !== before) {
        problems.push('the state changed');
        bench.restore();
      }
      for (const [query, group] of groups) {
        if (group.size === 1) continue;
        problems.push(
          `${group.size} different answers${query ? ` with ${query}` : ''}:\n` +
            [...group].map(([answer, cases]) => `  ${answer.slice(0, 160)}  ← ${cases.slice(0, 3).join('; ')}${cases.length > 3 ? '; …' : ''}`).join('\n'),
        );
      }
      expect(problems).toEqual([]);
    });
  }
});
