/**
 * The state's encoding (src/server/persist/codec.ts): any JSON a user can send reads back exactly,
 * from the export (`GET/PUT /_sandbox/state`) and from the `serve --data` database, whatever it
 * looks like (`{"$map": [...]}`, `{"$set": [...]}`, `$` keys, `__proto__`) and however deep.
 *
 * STATE_CODEC_RUNS sets the generated values per property (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decode, encode } from '../../src/server/persist/codec.js';
import { openPersistence } from '../../src/server/persist/index.js';
import { defaultSeed, loadSeed } from '../../src/server/seed.js';
import { Store } from '../../src/server/store.js';

const RUNS = Number(process.env.STATE_CODEC_RUNS ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'docsctl-codec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Keys a user may send, tag-like and prototype-like ones much more often than chance would give. */
const key = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.constantFrom('$map', '$set', '$$map', '$$set', '$', '$$', '$$$x', '__proto__', 'constructor', 'toJSON', 'version', 'data') },
  { weight: 1, arbitrary: fc.string().map((s) => `$${s}`) },
);

/** Any JSON value (as JSON.parse gives it), with tag-shaped objects: `{"$map": [[k, v]]}`, `{"$set": [...]}`. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('json')), { maxLength: 4 }).map(objectOf),
    fc.array(fc.tuple(tie('json'), tie('json')), { maxLength: 3 }).map((pairs) => ({ $map: pairs })),
    fc.array(tie('json'), { maxLength: 3 }).map((items) => ({ $set: items })),
  ),
}));

/** An object with these own keys (`__proto__` as a key, as JSON.parse makes it). */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  return JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as Record<string, unknown>;
}

/** What a user sent, as the text JSON.stringify gives for it (key order and own `__proto__` keys included). */
const text = (v: unknown) => JSON.stringify(v);

/** Whether two JSON values are the same, keys in the same order, walked without recursion (for deep ones). */
function same(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y) || Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length || kx.some((k, i) => k !== ky[i])) return false;
    for (const k of kx) stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
  }
  return true;
}

/** A value nested `depth` levels: arrays and objects in turn, tag-like keys on the way. */
function deep(depth: number): unknown {
  let v: unknown = { $map: [['leaf', 1]] };
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { [i % 3 === 0 ? '$set' : 'x']: v };
  return v;
}

describe('the state encoding', () => {
  it('reads back any JSON value exactly, tags and $ keys included', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(text(decode(encode(v)))).toBe(text(v));
      }),
      { numRuns: RUNS },
    );
  });

  it('reads back any JSON value kept in the state, through GET and PUT /_sandbox/state', () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 5 }), (values) => {
        const store = new Store();
        loadSeed(store, defaultSeed('codec-token-1'));
        const slice = store.slice('prop', () => ({ items: new Map<number, unknown>(), plain: [] as unknown[] }));
        values.forEach((v, i) => slice.items.set(i, v));
        slice.plain.push(...values);
        const again = new Store();
        again.importState(store.exportState());
        const back = again.slice('prop', () => ({ items: new Map<number, unknown>(), plain: [] as unknown[] }));
        expect(text([...back.items.values()])).toBe(text(values));
        expect(text(back.plain)).toBe(text(values));
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('reads back any JSON value kept in the serve --data database', async () => {
    const values = fc.sample(fc.array(json, { minLength: 1, maxLength: 5 }), { numRuns: 30, seed: 16 });
    const file = join(dir, 'prop.db');
    const store = new Store();
    const first = await openPersistence(
      store,
      file,
      () => loadSeed(store, defaultSeed('codec-token-1')),
      () => undefined,
    );
    const slice = store.slice('prop', () => ({ items: new Map<number, unknown>() }));
    values.forEach((v, i) => slice.items.set(i, v));
    first.journal.commit();
    first.close();
    const again = new Store();
    const second = await openPersistence(
      again,
      file,
      () => {
        throw new Error('the database is not new');
      },
      () => undefined,
    );
    const back = again.slice('prop', () => ({ items: new Map<number, unknown>() }));
    expect(text([...back.items.values()])).toBe(text(values));
    second.close();
  });

  it('writes and reads values 5,000 levels deep without a stack overflow', async () => {
    const v = deep(5000);
    expect(same(decode(encode(v)), v)).toBe(true);
    expect(same(decode(encode(v)), deep(4999))).toBe(false);
    const store = new Store();
    loadSeed(store, defaultSeed('codec-token-1'));
    store.slice('deep', () => ({ doc: new Map<string, unknown>() })).doc.set('d', v);
    const exported = store.exportState();
    const again = new Store();
    again.importState(exported);
    expect(same(again.slice('deep', () => ({ doc: new Map<string, unknown>() })).doc.get('d'), v)).toBe(true);
  });

  it('still reads a state exported before values were escaped (version 1)', () => {
    const store = new Store();
    loadSeed(store, defaultSeed('codec-token-1'));
    const v2 = JSON.parse(store.exportState()) as { version: number };
    expect(v2.version).toBe(2);
    // The seed holds no `$` key of its own: its version 1 text is the same but for the version.
    const again = new Store();
    again.importState(JSON.stringify({ ...v2, version: 1 }));
    expect(again.exportState()).toBe(store.exportState());
  });
});
