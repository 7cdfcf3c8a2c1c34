/** Adaptive content: a site's schema of visitor claims, and the conditions it offers. */
import { AdaptiveJsonSchema, type TemplateCondition } from '../../contract/sites.js';

/** The schema of a site whose schema was never set: no claims. */
export function emptyAdaptiveSchema(): AdaptiveJsonSchema {
  return AdaptiveJsonSchema.parse({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { unsigned: { type: 'object', properties: {}, additionalProperties: false } },
    additionalProperties: false,
  });
}

/**
 * One condition per claim, true when the visitor's claim is true: unsigned claims first, then the
 * other (signed) claims, each in the schema's order.
 */
export function templateConditions(schema: AdaptiveJsonSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const add = (path: string, what: string, name: string, description: unknown) => {
    const detail = typeof description === 'string' && description.trim() ? `: ${description.trim()}` : '';
    out.push({ condition: `visitor.claims.${path} === true`, description: `Visitors whose ${what} ${name} is true${detail}` });
  };
  for (const [name, claim] of Object.entries(schema.properties.unsigned.properties)) {
    add(`unsigned.${name}`, 'unsigned claim', name, claim.description);
  }
  for (const [name, claim] of Object.entries(schema.properties)) {
    if (name !== 'unsigned') add(name, 'claim', name, (claim as { description?: unknown }).description);
  }
  return out;
}
