/**
 * Witnesses of a JSON Schema of the official document: values it accepts (every enum value, lengths
 * at their bounds, strings matching a pattern, each branch of a oneOf, each property set alone…) and
 * values it refuses (one past a bound, outside an enum, against a pattern, a required property left
 * out). The input-rules test feeds them to our zod schemas: a witness the document accepts must not
 * be refused by ours, and one it refuses should not be accepted.
 */
import RandExpModule from 'randexp';
import { resolveRef, type Json } from './official.js';

export interface Witness {
  /** Where in the value the variation is, e.g. `body.title` or `query.limit`. */
  at: string;
  /** What the variation is, e.g. `maxLength 128`. */
  what: string;
  value: unknown;
}

const MAX_DEPTH = 4;
/** Strings with no rule of the document's but their length. */
const FREE_TEXT = ['Mixed Case, spaces & punctuation: é ✓', ':+1:', 'path/with.dots_and-DASHES', ' leading and trailing spaces ', 'x'.repeat(300)];
/** randexp is CommonJS: its class is the module itself at run time, `default` in its types. */
const RandExp = ((RandExpModule as unknown as { default?: unknown }).default ?? RandExpModule) as typeof RandExpModule.default;

/** `$ref`s followed and `allOf`s merged into one schema (shallow: properties, required, the rest). */
export function flatten(schema: Json, seen: Set<string> = new Set()): Json {
  if (!schema || typeof schema !== 'object') return schema ?? {};
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return {};
    const { $ref, ...rest } = schema;
    return flatten({ ...resolveRef($ref), ...rest }, new Set([...seen, $ref]));
  }
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    let out: Json = flatten(rest, seen);
    for (const part of allOf as Json[]) {
      const p = flatten(part, seen);
      out = {
        ...out,
        ...p,
        properties: { ...out.properties, ...p.properties },
        required: [...new Set([...(out.required ?? []), ...(p.required ?? [])])],
        ...(out.oneOf || p.oneOf ? { oneOf: p.oneOf ?? out.oneOf } : {}),
      };
    }
    return out;
  }
  return schema;
}

function typesOf(s: Json): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ['object'];
  if (s.enum) return [...new Set((s.enum as unknown[]).map((v) => (v === null ? 'null' : typeof v)))];
  return [];
}

/** A string the schema accepts, of `length` characters where the schema allows it. */
function stringOf(s: Json, length?: number): string | undefined {
  if (s.format === 'uri' || s.format === 'url') {
    const base = 'https://example.com/';
    return length && length > base.length ? base + 'a'.repeat(length - base.length) : base + 'docs';
  }
  if (s.format === 'date-time') return '2026-01-02T03:04:05.000Z';
  if (s.format === 'date') return '2026-01-02';
  if (s.format === 'email') return 'someone@example.com';
  if (s.format === 'uuid') return '123e4567-e89b-42d3-a456-426614174000';
  if (s.format === 'emoji') return '🎉';
  if (s.pattern) {
    const r = new RandExp(new RegExp(s.pattern));
    r.max = Math.max(1, Math.min(8, length ?? 8));
    r.randInt = (a: number, b: number) => a + Math.floor((b - a) * 0.5); // reproducible: the middle of each choice
    let v = r.gen();
    if (length !== undefined && v.length < length) {
      // Grow a pattern-matching value to the length wanted where its last class repeats.
      const grown = v + v.slice(-1).repeat(length - v.length);
      if (new RegExp(s.pattern).test(grown)) v = grown;
    }
    return v;
  }
  const n = length ?? Math.max(s.minLength ?? 0, Math.min(s.maxLength ?? 8, 8));
  return 'abcdefghij'.repeat(Math.ceil(n / 10) + 1).slice(0, Math.max(n, 0));
}

/** Values the schema accepts (most of them: the caller checks each against the document). */
export function accepted(schema: Json, at: string, depth = 0): Witness[] {
  const s = flatten(schema);
  const out: Witness[] = [];
  const add = (what: string, value: unknown, where = at) => out.push({ at: where, what, value });
  if (s.const !== undefined) add('const', s.const);
  if (s.enum) for (const v of s.enum as unknown[]) add(`enum ${JSON.stringify(v)}`, v);
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (s[key]) (s[key] as Json[]).forEach((branch, i) => out.push(...accepted(branch, at, depth).map((w) => ({ ...w, what: `${key}[${i}] ${w.what}` }))));
  }
  if (s.enum || s.const !== undefined) return out;
  for (const type of typesOf(s)) {
    switch (type) {
      case 'null':
        add('null', null);
        break;
      case 'boolean':
        add('true', true);
        add('false', false);
        break;
      case 'integer':
      case 'number': {
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
        const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : undefined);
        if (min !== undefined) add(`minimum ${min}`, min);
        if (max !== undefined) add(`maximum ${max}`, max);
        if (min === undefined && max === undefined) add('a number', type === 'integer' ? 3 : 1.5);
        break;
      }
      case 'string': {
        if (s.minLength !== undefined) add(`minLength ${s.minLength}`, stringOf(s, s.minLength));
        if (s.maxLength !== undefined) add(`maxLength ${s.maxLength}`, stringOf(s, s.maxLength));
        add(s.pattern ? `pattern ${s.pattern}` : s.format ? `format ${s.format}` : 'a string', stringOf(s));
        if (!s.pattern && !s.format) {
          // Free text, where the document sets no rule: case, spaces, punctuation, accents, symbols.
          for (const text of FREE_TEXT) {
            const cut = text.slice(0, s.maxLength ?? text.length);
            if (cut.length >= (s.minLength ?? 0)) add(`free text ${JSON.stringify(cut)}`, cut);
          }
        }
        break;
      }
      case 'array': {
        const items = accepted(s.items ?? {}, `${at}[]`, depth + 1);
        if (!s.minItems) add('empty array', []);
        for (const w of items.slice(0, 40)) add(`[${w.what}]`, [w.value], w.at);
        if (s.maxItems !== undefined && items[0]) add(`maxItems ${s.maxItems}`, Array(s.maxItems).fill(items[0].value));
        break;
      }
      case 'object': {
        if (depth >= MAX_DEPTH) break;
        const base = minimal(s, depth);
        if (base === undefined) break;
        add('required properties only', base);
        for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
          for (const w of accepted(prop, `${at}.${name}`, depth + 1)) add(w.what, { ...base, [name]: w.value }, w.at);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** The smallest value with every required property (the first accepted value of each), or undefined. */
export function minimal(schema: Json, depth = 0): unknown {
  const s = flatten(schema);
  if (depth > MAX_DEPTH + 2) return undefined;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const branch = s.oneOf ?? s.anyOf;
  if (branch) {
    for (const b of branch as Json[]) {
      const v = minimal(b, depth + 1);
      if (v !== undefined) return v;
    }
  }
  const type = typesOf(s).filter((t) => t !== 'null')[0] ?? (typesOf(s).includes('null') ? 'null' : undefined);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'string':
      return stringOf(s);
    case 'array':
      return s.minItems ? Array(s.minItems).fill(minimal(s.items ?? {}, depth + 1)) : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of (s.required ?? []) as string[]) {
        const v = minimal(s.properties?.[name] ?? {}, depth + 1);
        if (v === undefined) return undefined;
        out[name] = v;
      }
      return out;
    }
    default:
      return s.oneOf || s.anyOf ? undefined : {};
  }
}

/** Values the schema refuses, one rule broken at a time (the caller checks each against the document). */
export function refused(schema: Json, at: string, depth = 0): Witness[] {
  const s = flatten(schema);
  const out: Witness[] = [];
  const add = (what: string, value: unknown, where = at) => out.push({ at: where, what, value });
  if (s.enum) add('outside the enum', 'not-a-listed-value');
  const types = typesOf(s);
  if (types.includes('string') && !s.enum) {
    if (s.maxLength !== undefined) add(`longer than maxLength ${s.maxLength}`, stringOf(s, s.maxLength + 1));
    if (s.minLength) add(`shorter than minLength ${s.minLength}`, 'abcdefghij'.slice(0, s.minLength - 1));
    if (s.pattern) add(`against pattern ${s.pattern}`, 'Not valid! ~');
  }
  if ((types.includes('integer') || types.includes('number')) && !s.enum) {
    if (s.maximum !== undefined) add(`above maximum ${s.maximum}`, s.maximum + 1);
    if (s.minimum !== undefined) add(`below minimum ${s.minimum}`, s.minimum - 1);
  }
  if (types.includes('object') && depth < MAX_DEPTH) {
    const base = minimal(s, depth);
    if (base && typeof base === 'object') {
      for (const name of (s.required ?? []) as string[]) {
        const { [name]: _, ...rest } = base as Record<string, unknown>;
        add(`required ${name} left out`, rest, `${at}.${name}`);
      }
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        for (const w of refused(prop, `${at}.${name}`, depth + 1)) add(w.what, { ...(base as object), [name]: w.value }, w.at);
      }
    }
  }
  return out;
}
