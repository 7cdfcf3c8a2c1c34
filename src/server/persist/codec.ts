/**
 * How the sandbox's state is written as JSON text: the export of `GET /_sandbox/state` (and the
 * import of `PUT /_sandbox/state`, `serve --seed`), and each row of the `serve --data` database.
 *
 * JSON has no Map or Set, so they are written as tagged objects: `{"$map": [[key, value], ...]}` and
 * `{"$set": [value, ...]}`. A user can send any JSON, so user content could look like a tag; to keep
 * the two apart, every key of a plain object that starts with `$` is written with one more `$`
 * (`{"$map": 1}` in user content is written `{"$$map": 1}`, `{"$$x": 1}` as `{"$$$x": 1}`). A tag is
 * therefore always an object whose single key starts with exactly one `$`, which no escaped user
 * object is, and every JSON value a user can send reads back exactly as it was (format version 2).
 * Version 1 (before this escaping) is still read, with its ambiguity: tags only, no unescaping.
 *
 * Any depth: JSON.parse is not recursive in V8, and neither is anything here, so a value nested
 * thousands of levels deep (e.g. an OpenAPI document) is written and read back like any other.
 * The common case (no Map, no Set, no `$` key, a few hundred levels at most) is left to the native
 * JSON.stringify after one scan of the value.
 */

/** A value that cannot be written as JSON (a cycle, a BigInt): the change holding it cannot be saved. */
class EncodeError extends Error {}

/** Nesting up to which the native JSON.stringify is used (it recurses; deeper values take the iterative writer). */
const NATIVE_DEPTH = 200;
const DOLLAR = 36;

/** A key of a plain object as written: one more `$` when it starts with one. */
export function escapeKey(key: string): string {
  return key.charCodeAt(0) === DOLLAR ? `$${key}` : key;
}

/** `value` as JSON text, Maps and Sets tagged and `$` keys escaped. Throws EncodeError on a cycle or a BigInt. */
export function encode(value: unknown): string {
  // As in an array (a Map's entries are written as arrays): no value is null.
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
  if (needsWriter(value)) return write(value);
  try {
    return JSON.stringify(value);
  } catch {
    // A BigInt, or a stack too short here for this depth: the writer says which, or copes.
    return write(value);
  }
}

/** Whether the value holds anything the native JSON.stringify would not write as we need, or is deep. */
function needsWriter(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint';
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const o = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > NATIVE_DEPTH) return true;
    if (o instanceof Map || o instanceof Set) return true;
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const v = o[i];
        if (typeof v === 'object' && v !== null) {
          stack.push(v);
          depths.push(depth + 1);
        } else if (typeof v === 'bigint') return true;
      }
      continue;
    }
    if (typeof (o as { toJSON?: unknown }).toJSON === 'function') return true;
    for (const k of Object.keys(o)) {
      if (k.charCodeAt(0) === DOLLAR) return true;
      const v = (o as Record<string, unknown>)[k];
      if (typeof v === 'object' && v !== null) {
        stack.push(v);
        depths.push(depth + 1);
      } else if (typeof v === 'bigint') return true;
    }
  }
  return false;
}

/** One level being written: the object, its entries still to write, and whether one was written. */
interface Frame {
  obj: object;
  /** Keys (of an object), or undefined for an array, a Map's pairs or a Set's values. */
  keys?: string[];
  items?: unknown[];
  i: number;
  first: boolean;
  close: string;
}

/** The iterative writer: what JSON.stringify does (undefined, functions and symbols left out or null, toJSON called), plus the tags. */
function write(root: unknown): string {
  const out: string[] = [];
  const path = new Set<object>();
  const stack: Frame[] = [];

  /** Write a primitive, or open a frame for an object; returns false for a value to leave out (object member). */
  const value = (key: string, v: unknown, inArray: boolean): boolean => {
    if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(k: string): unknown }).toJSON(key);
    switch (typeof v) {
      case 'string':
        out.push(JSON.stringify(v));
        return true;
      case 'number':
        out.push(Number.isFinite(v) ? String(v) : 'null');
        return true;
      case 'boolean':
        out.push(v ? 'true' : 'false');
        return true;
      case 'bigint':
        throw new EncodeError('a BigInt cannot be saved as JSON');
      case 'undefined':
      case 'function':
      case 'symbol':
        if (inArray) out.push('null');
        return inArray;
    }
    if (v === null) {
      out.push('null');
      return true;
    }
    const o = v as object;
    if (path.has(o)) throw new EncodeError('the value refers to itself (a cycle) and cannot be saved as JSON');
    path.add(o);
    if (o instanceof Map) {
      out.push('{"$map":[');
      stack.push({ obj: o, items: [...o].map(([k, x]) => new Pair(k, x)), i: 0, first: true, close: ']}' });
    } else if (o instanceof Set) {
      out.push('{"$set":[');
      stack.push({ obj: o, items: [...o], i: 0, first: true, close: ']}' });
    } else if (o instanceof Pair) {
      out.push('[');
      stack.push({ obj: o, items: [o.key, o.value], i: 0, first: true, close: ']' });
    } else if (Array.isArray(o)) {
      out.push('[');
      stack.push({ obj: o, items: o, i: 0, first: true, close: ']' });
    } else {
      out.push('{');
      stack.push({ obj: o, keys: Object.keys(o), i: 0, first: true, close: '}' });
    }
    return true;
  };

  value('', root, true);
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.keys) {
      if (f.i >= f.keys.length) {
        out.push(f.close);
        path.delete(f.obj);
        stack.pop();
        continue;
      }
      const k = f.keys[f.i++];
      const v = (f.obj as Record<string, unknown>)[k];
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      const mark = out.length;
      out.push(f.first ? '' : ',', JSON.stringify(escapeKey(k)), ':');
      if (!value(k, v, false)) out.length = mark;
      else f.first = false;
    } else {
      const items = f.items!;
      if (f.i >= items.length) {
        out.push(f.close);
        path.delete(f.obj);
        stack.pop();
        continue;
      }
      const at = f.i++;
      if (!f.first) out.push(',');
      f.first = false;
      value(String(at), items[at], true);
    }
  }
  return out.join('');
}

/** A Map entry while it is written (as a two-item array). */
class Pair {
  constructor(
    readonly key: unknown,
    readonly value: unknown,
  ) {}
}

/**
 * The value of JSON text written by `encode` (version 2), or by the first version of the export
 * (`legacy`: tags only, no `$` unescaped). Throws SyntaxError on malformed JSON, and Error on a
 * malformed tag.
 */
export function decode(text: string, legacy = false): unknown {
  const value: unknown = JSON.parse(text);
  // No `"$` in the text: no tag and no escaped key anywhere.
  if (typeof value !== 'object' || value === null || !text.includes('"$')) return value;
  return revive(value, legacy);
}

/** Tags become Maps and Sets, escaped keys lose their `$`, from the leaves up; iterative. */
export function revive(root: object, legacy = false): unknown {
  // Every object in pre-order with where it hangs; handled in reverse, each after everything below it.
  const nodes: object[] = [root];
  const parents: (object | undefined)[] = [undefined];
  const keys: string[] = [''];
  for (let n = 0; n < nodes.length; n++) {
    const o = nodes[n] as Record<string, unknown>;
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const v = o[i];
        if (typeof v === 'object' && v !== null) {
          nodes.push(v);
          parents.push(o);
          keys.push(String(i));
        }
      }
    } else {
      for (const k of Object.keys(o)) {
        const v = o[k];
        if (typeof v === 'object' && v !== null) {
          nodes.push(v);
          parents.push(o);
          keys.push(k);
        }
      }
    }
  }
  let result: unknown = root;
  for (let n = nodes.length - 1; n >= 0; n--) {
    const o = nodes[n];
    if (Array.isArray(o)) continue;
    const replaced = reviveObject(o as Record<string, unknown>, legacy);
    if (replaced === o) continue;
    const parent = parents[n];
    if (parent === undefined) result = replaced;
    else setOwn(parent, keys[n], replaced);
  }
  return result;
}

function reviveObject(o: Record<string, unknown>, legacy: boolean): unknown {
  const own = Object.keys(o);
  let dollar = false;
  for (const k of own) {
    if (k.charCodeAt(0) === DOLLAR) {
      dollar = true;
      break;
    }
  }
  if (!dollar) return o;
  if (own.length === 1) {
    const tag = own[0];
    const items = o[tag];
    if (tag === '$map' && Array.isArray(items)) {
      const map = new Map<unknown, unknown>();
      for (const pair of items) {
        if (!Array.isArray(pair) || pair.length !== 2) throw new Error('state: a $map entry must be a [key, value] pair');
        map.set(pair[0], pair[1]);
      }
      return map;
    }
    if (tag === '$set' && Array.isArray(items)) return new Set(items);
  }
  if (legacy) return o;
  // Escaped keys lose one `$` (CreateDataProperty: a key named __proto__ stays a key).
  return Object.fromEntries(own.map((k) => [k.charCodeAt(0) === DOLLAR && k.charCodeAt(1) === DOLLAR ? k.slice(1) : k, o[k]]));
}

/** `parent[key] = value` as an own data property (a key named __proto__ must not set the prototype). */
function setOwn(parent: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  else (parent as Record<string, unknown>)[key] = value;
}
