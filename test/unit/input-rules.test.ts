/**
 * Our input rules against the official document's (npm `@gitbook/api`): for every operation of the
 * contract that the document has, values its request schemas accept (bodies, query and path
 * parameters; see witness.ts) must pass our zod schemas, which the CLI checks before sending and the
 * sandbox validates with. The CLI must never refuse what the service would take.
 *
 * The other direction is checked too: a value the document refuses should be refused by us (so users
 * get the clear local error); the few places where we stay looser are listed in LOOSER with why, and
 * in docs/compatibility.md.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue, issuePath, type AnyOp } from '../../src/contract/op.js';
import { officialByTemplate, requestPointer, resolveRef, validatorAt, type Json, type OfficialOp } from '../helpers/official.js';
import { ALL_OPS } from '../helpers/operations.js';
import { accepted, flatten, minimal, refused, type Witness } from '../helpers/witness.js';

const COMPATIBILITY = readFileSync(resolve(import.meta.dirname, '../../docs/compatibility.md'), 'utf8');

/**
 * Where our rules accept what the document refuses, on purpose: `opId at` → why (also in
 * docs/compatibility.md, "Input rules").
 */
const LOOSER: Record<string, string> = {};

/**
 * Where our rules refuse what the document accepts because the seed (service-api.md) sets the rule,
 * and the seed wins: `opId at` → why (also in docs/compatibility.md, "Input rules").
 */
const SEED_RULES: Record<string, string> = {
  'createChangeRequest body.subject': 'service-api.md, Limits: a change request subject is at most 100 characters (the document bounds it only on update)',
};

interface Part {
  /** body, query or path */
  kind: 'body' | 'query' | 'path';
  /** The official schema's pointer, for Ajv. */
  pointer: string;
  schema: Json;
  /** Our schema of that part. */
  ours: z.ZodType;
  /** The whole value our schema gets for a witness of this part. */
  wrap(value: unknown): unknown;
  /** The top-level names our schema knows (witnesses of other names are not ours to judge). */
  known: Set<string>;
}

/** The property names a zod object schema (or union of them) declares. */
function keysOf(schema: z.ZodType): Set<string> {
  try {
    const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Json;
    const names = new Set<string>();
    const walk = (s: Json) => {
      if (!s || typeof s !== 'object') return;
      for (const k of Object.keys(s.properties ?? {})) names.add(k);
      for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(b);
    };
    walk(json);
    return names;
  } catch {
    return new Set();
  }
}

function parametersOf(official: OfficialOp, where: 'query' | 'path'): { name: string; pointer: string; schema: Json; required: boolean }[] {
  const pathItem = resolveRef(official.pointer.replace(/\/[a-z]+$/, ''));
  const list: { param: Json; pointer: string }[] = [];
  const add = (params: Json[] | undefined, base: string) =>
    (params ?? []).forEach((p, i) => list.push({ param: p, pointer: p.$ref ?? `${base}/parameters/${i}` }));
  add(pathItem.parameters, official.pointer.replace(/\/[a-z]+$/, ''));
  add(official.op.parameters, official.pointer);
  return list
    .map(({ param, pointer }) => ({ p: param.$ref ? resolveRef(param.$ref) : param, pointer }))
    .filter(({ p }) => p.in === where && p.schema)
    .map(({ p, pointer }) => ({ name: p.name as string, pointer: `${pointer}/schema`, schema: p.schema, required: p.required === true }));
}

/** The parts of an operation that take input, each with the official schema and ours. */
function partsOf(op: AnyOp, official: OfficialOp): Part[] {
  const parts: Part[] = [];
  const body = requestPointer(official);
  if (body) {
    parts.push({ kind: 'body', pointer: body, schema: resolveRef(body), ours: op.body, wrap: (v) => v, known: keysOf(op.body) });
  }
  const ourQuery = keysOf(op.query);
  const queryParams = parametersOf(official, 'query');
  // Each parameter is varied with the required ones present.
  const required = Object.fromEntries(queryParams.filter((q) => q.required && ourQuery.has(q.name)).map((q) => [q.name, wire(minimal(q.schema))]));
  for (const q of queryParams) {
    if (!ourQuery.has(q.name)) continue;
    parts.push({
      kind: 'query',
      pointer: q.pointer,
      schema: q.schema,
      ours: op.query,
      wrap: (v) => ({ ...required, [q.name]: wire(v) }),
      known: new Set([q.name]),
    });
  }
  // Path parameters are named after ours in position order (the document may name them otherwise).
  const ourParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const theirs = [...official.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const byName = new Map(parametersOf(official, 'path').map((p) => [p.name, p]));
  theirs.forEach((name, i) => {
    const p = byName.get(name);
    if (!p) return;
    const mine = ourParams[i];
    // The other parameters: a value their schema takes (`x1` fits the ids; a uuid needs its form).
    const filled = Object.fromEntries(
      ourParams.map((n, j) => {
        const other = byName.get(theirs[j]);
        const w = other ? minimal(other.schema) : undefined;
        return [n, typeof w === 'string' && w !== '' ? w : 'x1'];
      }),
    );
    parts.push({ kind: 'path', pointer: p.pointer, schema: p.schema, ours: op.params, wrap: (v) => ({ ...filled, [mine]: wire(v) }), known: new Set([mine]) });
  });
  return parts;
}

/** Whether every top-level field of a body is one our schema declares. */
function onlyKnown(part: Part, value: unknown): boolean {
  return !value || typeof value !== 'object' || Object.keys(value).every((k) => part.known.has(k));
}

/** How a value travels in a URL. */
function wire(v: unknown): unknown {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
}

/** The top-level name a witness varies (`body.title[]` → title), or '' for the whole value. */
function topName(part: Part, w: Witness): string {
  if (part.kind !== 'body') return [...part.known][0];
  const m = /^body\.([^.[\]]+)/.exec(w.at);
  return m ? m[1] : '';
}

const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > 90 ? `${s.slice(0, 87)}…` : s;
};

class Findings {
  private readonly byPlace = new Map<string, { example: string; more: number }>();
  add(place: string, example: string): void {
    const f = this.byPlace.get(place);
    if (f) f.more++;
    else this.byPlace.set(place, { example, more: 0 });
  }
  lines(): string[] {
    return [...this.byPlace].map(([place, f]) => `${place}: ${f.example}${f.more ? ` (and ${f.more} more)` : ''}`);
  }
}

const mapped = Object.entries(ALL_OPS)
  .map(([id, op]) => ({ id, op, official: officialByTemplate(op.method, op.path) }))
  .filter((x): x is { id: string; op: AnyOp; official: OfficialOp } => x.official !== undefined);

describe('input rules against the official document', () => {
  /** By operation and place: the first witness, and how many more. */
  const stricter = new Findings();
  const looser = new Findings();
  const unknownFields: string[] = [];
  let tried = 0;

  for (const { id, op, official } of mapped) {
    for (const part of partsOf(op, official)) {
      const theirs = validatorAt(part.pointer);
      const label = part.kind === 'body' ? 'body' : `${part.kind}.${[...part.known][0]}`;
      if (part.kind === 'body') {
        for (const name of Object.keys(flatten(part.schema).properties ?? {})) {
          if (!part.known.has(name)) unknownFields.push(`${id} body.${name}`);
        }
      }
      for (const w of accepted(part.schema, label)) {
        const name = topName(part, w);
        if (name && !part.known.has(name)) continue;
        if (part.kind === 'body' && !name && !onlyKnown(part, w.value)) continue; // a form of the body built of fields we lack
        if (!theirs(w.value)) continue; // the generator's guess the document does not take
        tried++;
        const r = part.ours.safeParse(part.wrap(w.value));
        if (!r.success && !(`${id} ${w.at}` in SEED_RULES))
          stricter.add(
            `${id} ${w.at}`,
            `(${w.what}) ${short(w.value)} refused: ${issuePath(r.error.issues[0]) || part.kind}: ${describeIssue(r.error.issues[0], part.wrap(w.value))}`,
          );
      }
      for (const w of refused(part.schema, label)) {
        const name = topName(part, w);
        if (name && !part.known.has(name)) continue;
        if (theirs(w.value)) continue;
        tried++;
        if (part.ours.safeParse(part.wrap(w.value)).success && !(`${id} ${w.at}` in LOOSER)) {
          looser.add(`${id} ${w.at}`, `(${w.what}) ${short(w.value)} accepted`);
        }
      }
    }
  }

  it('refuse no value the document accepts', () => {
    console.info(`input rules: ${tried} witnesses of the official request schemas checked against ours, over ${mapped.length} operations`);
    expect(tried).toBeGreaterThan(500);
    expect(stricter.lines()).toEqual([]);
  });

  it('refuse what the document refuses, except where LOOSER says why', () => {
    expect(looser.lines()).toEqual([]);
  });

  it('the places where we differ on purpose are in docs/compatibility.md', () => {
    expect([...Object.keys(LOOSER), ...Object.keys(SEED_RULES)].filter((k) => !COMPATIBILITY.includes(`\`${k}\``))).toEqual([]);
  });

  it('lists the official request fields the contract does not take', () => {
    console.info(`official request fields the contract does not declare (${unknownFields.length}):\n  ${unknownFields.join('\n  ')}`);
  });
});
