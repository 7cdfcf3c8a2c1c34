/** Adaptive content: a site's schema of visitor claims, and the conditions it offers. */
import { ADAPTIVE_SCHEMA_URI, AdaptiveJsonSchema, UNSIGNED_DESCRIPTION, type Claim, type TemplateCondition } from '../../contract/sites.js';
import type { SiteRec } from './state.js';

/** The schema of a site whose schema was never set: no claims. */
export function emptyAdaptiveSchema(): AdaptiveJsonSchema {
  return AdaptiveJsonSchema.parse({
    $schema: ADAPTIVE_SCHEMA_URI,
    type: 'object',
    properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: {}, additionalProperties: false } },
    additionalProperties: false,
  });
}

/** A site's schema as it is read: the one set last and when, else the empty one since the site's creation. */
export function adaptiveSchemaOf(site: SiteRec): { jsonSchema: AdaptiveJsonSchema; updatedAt: string } {
  return site.adaptiveSchema ?? { jsonSchema: emptyAdaptiveSchema(), updatedAt: site.createdAt };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `base.name`, or `base["name"]` for a name that is not an identifier. */
function member(base: string, name: string): string {
  return IDENTIFIER.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

/**
 * The conditions a claim offers, `path` being the expression that reads it and `label` how the
 * description names it: a boolean is true; a string of an enumeration has each of its values; an
 * array of an enumeration contains each; other strings, numbers and arrays are present; an object
 * offers the conditions of its own claims.
 */
function conditionsOf(path: string, label: string, claim: Claim, out: TemplateCondition[]): void {
  // (`?? ''`: a schema saved before descriptions were required has none.)
  const description = (claim.description ?? '').trim();
  const detail = description ? `: ${description}` : '';
  const add = (condition: string, what: string) => out.push({ condition, description: `Visitors whose ${label} ${what}${detail}` });
  switch (claim.type) {
    case 'boolean':
      add(`${path} === true`, 'is true');
      return;
    case 'string':
      if (claim.enum?.length) for (const value of claim.enum) add(`${path} === ${JSON.stringify(value)}`, `is ${JSON.stringify(value)}`);
      else add(`${path} !== undefined`, 'is set');
      return;
    case 'number':
      add(`${path} !== undefined`, 'is set');
      return;
    case 'array':
      if (claim.items.type === 'string' && claim.items.enum?.length) {
        for (const value of claim.items.enum) add(`${path}.includes(${JSON.stringify(value)})`, `includes ${JSON.stringify(value)}`);
      } else {
        add(`${path}.length > 0`, 'is not empty');
      }
      return;
    case 'object':
      for (const [name, inner] of Object.entries(claim.properties)) conditionsOf(member(path, name), `${label}.${name}`, inner, out);
      return;
  }
}

/**
 * The conditions a schema offers: those of each unsigned claim first, then those of the other
 * (signed) claims, each in the schema's order.
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const unsigned = schema.properties.unsigned?.properties ?? {};
  for (const [name, claim] of Object.entries(unsigned)) {
    conditionsOf(member('visitor.claims.unsigned', name), `unsigned claim ${name}`, claim, out);
  }
  for (const [name, claim] of Object.entries(schema.properties)) {
    if (name !== 'unsigned') conditionsOf(member('visitor.claims', name), `claim ${name}`, claim as Claim, out);
  }
  return out;
}
