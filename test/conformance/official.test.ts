/**
 * The sandbox against the official description of the service (GitBook's OpenAPI document, npm
 * `@gitbook/api`): every operation of the contract that the document has, sent by the fixture's
 * admin, answers a status the document declares (or the seed's, where service-api.md differs) and a
 * body that the document's response schema accepts. The operations the document does not have are
 * exactly the seed-only ones that docs/compatibility.md lists.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_ONLY_OPS } from '../../src/contract/extensions.js';
import { startBench, type Bench } from '../helpers/fixture.js';
import { checkAnswer, officialByTemplate, OFFICIAL_VERSION, SEED_STATUSES } from '../helpers/official.js';
import { ALL_OPS, table, urlOf, type Row } from '../helpers/operations.js';

const COMPATIBILITY = readFileSync(resolve(import.meta.dirname, '../../docs/compatibility.md'), 'utf8');

let bench: Bench;
let rows: Record<string, Row>;
beforeAll(async () => {
  bench = await startBench();
  rows = table(bench.ids, bench.website);
});
afterAll(async () => {
  await bench?.close();
});

const inDocument = Object.entries(ALL_OPS).filter(([, op]) => officialByTemplate(op.method, op.path));
const seedOnly = Object.entries(ALL_OPS).filter(([, op]) => !officialByTemplate(op.method, op.path));

describe(`answers valid against the official document (@gitbook/api ${OFFICIAL_VERSION})`, () => {
  it('every answer given while the fixture was built', () => {
    expect(bench.officialProblems()).toEqual([]);
  });

  for (const [id, op] of inDocument) {
    it(`${op.method} ${op.path} (${id})`, async () => {
      bench.restore();
      const row = rows[id];
      const url = urlOf(op, row);
      const r = await bench.send('admin', op.method, url, row.body);
      expect(r.status, r.text.slice(0, 300)).toBeLessThan(300);
      const verdict = checkAnswer(op.method, url.split('?')[0].slice(3), r.status, r.text);
      expect(verdict.problems).toEqual([]);
      bench.officialProblems();
    });
  }
});

describe('docs/compatibility.md lists every difference the checks allow', () => {
  it('the client knows the seed-only operations (it names a missing endpoint on 404)', () => {
    expect([...SEED_ONLY_OPS].sort()).toEqual(seedOnly.map(([id]) => id).sort());
  });
  it('every seed-only endpoint', () => {
    const missing = seedOnly.map(([, op]) => `${op.method} /v1${op.path}`).filter((line) => !COMPATIBILITY.includes(`\`${line}\``));
    expect(missing).toEqual([]);
  });
  it('every status where the seed wins', () => {
    const missing = Object.keys(SEED_STATUSES).filter((opId) => !COMPATIBILITY.includes(opId));
    expect(missing).toEqual([]);
  });
});
