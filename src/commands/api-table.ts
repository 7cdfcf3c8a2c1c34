/**
 * The official API document's operations as a compact table, for `docsctl api OPERATION_ID` and
 * `docsctl api --operations`: made at build time (scripts/build.mjs writes dist/api-operations.json)
 * so that the CLI neither bundles nor reads the 2 MB document; read only by `api`
 * (src/commands/api-operations.ts). Each operation keeps its id, method, path, summary, its path and
 * query parameters and the top-level fields of its JSON body, each with the JSON types and values it
 * takes: what `api` checks before it sends anything.
 */

/** What a parameter or a body field takes: JSON types (`string`, `integer`, `number`, `boolean`, `array`, `object`, `null`; none: anything) and, when the document lists them, its only values. */
export interface Kind {
  types?: string[];
  values?: (string | number | boolean | null)[];
}

interface OperationParam extends Kind {
  name: string;
  in: 'path' | 'query';
  required?: true;
}

interface OperationBody {
  required?: true;
  /** Its top-level fields (an object body), by name. */
  fields?: Record<string, Kind>;
  /** The fields every form of the body requires. */
  requiredFields?: string[];
  /** Fields besides those named are taken (the document says so, or names none). */
  open?: true;
  /** The body's JSON types when it is not an object (an array: no fields, --input only). */
  types?: string[];
}

export interface Operation {
  id: string;
  method: string;
  /** The path below the API's base (/v1), with {name} for each path parameter. */
  path: string;
  summary: string;
  params: OperationParam[];
  body?: OperationBody;
  /** A list that pages (it takes `page`): `--paginate` follows it. */
  list?: true;
}

export interface OperationTable {
  /** The version of @gitbook/api the table was made from. */
  version: string;
  operations: Operation[];
}

type Schema = Record<string, any>;
/** One form of an object body: its properties, the names it requires, whether it takes others. */
type Form = { fields: Record<string, Kind>; required: string[]; open: boolean };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The table of an OpenAPI 3 document (the official one: node_modules/@gitbook/api/spec/openapi.json). */
export function operationTable(doc: Schema, version: string): OperationTable {
  const deref = (s: Schema | undefined, seen = 0): Schema | undefined => {
    if (!s || typeof s.$ref !== 'string') return s;
    if (seen > 32) return undefined;
    const parts = s.$ref.replace(/^#\//, '').split('/');
    let at: any = doc;
    for (const p of parts) at = at?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
    return deref(at, seen + 1);
  };

  /** The JSON types and values a schema takes (none: anything, or more than the table can say). */
  const kindOf = (raw: Schema | undefined, depth = 0): Kind => {
    const s = deref(raw);
    if (!s || depth > 8) return {};
    if ('const' in s) return { types: [jsonType(s.const)], values: [s.const] };
    if (Array.isArray(s.enum)) {
      const values = s.nullable ? [...s.enum, null] : s.enum;
      return { types: unique(values.map(jsonType)), values };
    }
    const variants = s.oneOf ?? s.anyOf;
    if (Array.isArray(variants)) {
      const kinds = variants.map((v: Schema) => kindOf(v, depth + 1));
      if (kinds.some((k: Kind) => !k.types)) return {};
      const types = unique(kinds.flatMap((k: Kind) => k.types ?? []));
      // `{type: 'null'}` beside an enum (a role or null) is one more value.
      const listed = (k: Kind) => k.values ?? (k.types?.length === 1 && k.types[0] === 'null' ? [null] : undefined);
      const values = kinds.every((k: Kind) => listed(k)) ? unique(kinds.flatMap((k: Kind) => listed(k) ?? [])) : undefined;
      return withNull({ types, ...(values ? { values } : {}) }, s.nullable);
    }
    if (Array.isArray(s.allOf)) {
      // Members that say nothing of the type (descriptions, refinements) leave it to the others.
      const kinds = s.allOf.map((v: Schema) => kindOf(v, depth + 1)).filter((k: Kind) => k.types);
      if (s.type === undefined && kinds.length === 0) return {};
      return withNull(kinds[0] ?? { types: typesOf(s) }, s.nullable);
    }
    if (s.type === undefined) return s.properties ? withNull({ types: ['object'] }, s.nullable) : {};
    return withNull({ types: typesOf(s) }, s.nullable);
  };

  /** The forms of an object body: each with its properties, required names, and whether it takes others. */
  const forms = (raw: Schema | undefined, depth = 0): Form[] | undefined => {
    const s = deref(raw);
    if (!s || depth > 8) return undefined;
    const variants = s.oneOf ?? s.anyOf;
    if (Array.isArray(variants)) {
      const all: Form[] = [];
      for (const v of variants as Schema[]) {
        const f = forms(v, depth + 1);
        if (!f) return undefined;
        all.push(...f);
      }
      return all;
    }
    let result: Form[] = [{ fields: {}, required: [], open: false }];
    if (Array.isArray(s.allOf)) {
      for (const member of s.allOf) {
        const mf = forms(member, depth + 1);
        if (!mf) return undefined;
        // Every combination of a form so far with a form of this member.
        result = result.flatMap((r) =>
          mf.map((m) => ({ fields: { ...r.fields, ...m.fields }, required: unique([...r.required, ...m.required]), open: r.open || m.open })),
        );
      }
    }
    const types = typesOf(s);
    if (s.type !== undefined && !types.includes('object')) return undefined;
    const own: Record<string, Kind> = {};
    for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) own[name] = kindOf(prop, depth + 1);
    const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
    return result.map((r) => ({
      fields: { ...r.fields, ...own },
      required: unique([...r.required, ...(Array.isArray(s.required) ? s.required : [])]),
      open: r.open || open,
    }));
  };

  const bodyOf = (op: Schema): OperationBody | undefined => {
    const rb = deref(op.requestBody);
    if (!rb) return undefined;
    const schema = rb.content?.['application/json']?.schema;
    const required = rb.required ? { required: true as const } : {};
    const f = forms(schema);
    if (!f || f.length === 0) {
      const kind = kindOf(schema);
      return { ...required, ...(kind.types ? { types: kind.types } : { open: true as const }) };
    }
    const fields: Record<string, Kind> = {};
    for (const form of f) {
      for (const [name, kind] of Object.entries(form.fields)) fields[name] = name in fields ? unionKind(fields[name], kind) : kind;
    }
    const requiredFields = f.map((form) => form.required).reduce((a, b) => a.filter((n) => b.includes(n)));
    const named = Object.keys(fields).length > 0;
    return {
      ...required,
      ...(named ? { fields } : {}),
      ...(requiredFields.length ? { requiredFields } : {}),
      ...(f.some((form) => form.open) || !named ? { open: true as const } : {}),
    };
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Schema>)) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op?.operationId) continue;
      const byName = new Map<string, OperationParam>();
      for (const ref of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = deref(ref);
        if (!p || (p.in !== 'path' && p.in !== 'query')) continue;
        const kind = kindOf(p.schema);
        byName.set(`${p.in} ${p.name}`, { name: p.name, in: p.in, ...(p.required || p.in === 'path' ? { required: true as const } : {}), ...kind });
      }
      const params = [...byName.values()];
      const body = bodyOf(op);
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: String(op.summary ?? '').trim(),
        params,
        ...(body ? { body } : {}),
        ...(method === 'get' && params.some((p) => p.in === 'query' && p.name === 'page') ? { list: true as const } : {}),
      });
    }
  }
  operations.sort((a, b) => a.id.localeCompare(b.id));
  return { version, operations };
}

function typesOf(s: Schema): string[] {
  const t = s.type;
  return Array.isArray(t) ? t : typeof t === 'string' ? [t] : [];
}

function withNull(kind: Kind, nullable: unknown): Kind {
  if (!nullable || !kind.types) return kind;
  return { types: unique([...kind.types, 'null']), ...(kind.values ? { values: unique([...kind.values, null]) } : {}) };
}

function unionKind(a: Kind, b: Kind): Kind {
  if (!a.types || !b.types) return {};
  const values = a.values && b.values ? unique([...a.values, ...b.values]) : undefined;
  return { types: unique([...a.types, ...b.types]), ...(values ? { values } : {}) };
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
}

function unique<T>(list: T[]): T[] {
  return [...new Set(list)];
}
