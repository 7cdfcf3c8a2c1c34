import { describe, expect, it } from 'vitest';
import { describeIssue, issuePath } from '../../src/contract/op.js';
import { AdaptiveJsonSchema, MAX_CLAIMS } from '../../src/contract/sites.js';
import { emptyAdaptiveSchema, templateConditions } from '../../src/server/sites/adaptive.js';

const schema = (unsigned: Record<string, unknown>, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { unsigned: { type: 'object', properties: unsigned, additionalProperties: false }, ...extra },
  ...top,
});

/** The first problem as the sandbox and the CLI word it. */
function problem(input: unknown): string | undefined {
  const r = AdaptiveJsonSchema.safeParse(input);
  if (r.success) return undefined;
  return `${issuePath(r.error.issues[0])}: ${describeIssue(r.error.issues[0])}`;
}

describe('the adaptive schema', () => {
  it('accepts boolean claims, unsigned and signed, and keeps keywords it does not check', () => {
    const input = schema({ beta: { type: 'boolean', description: 'In the beta', default: false } }, { paid: { type: 'boolean' } }, { title: 'Visitors' });
    const r = AdaptiveJsonSchema.safeParse(input);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(input);
    expect(problem(emptyAdaptiveSchema())).toBeUndefined();
    expect(problem(schema({}))).toBeUndefined();
  });

  it('accepts the $schema URIs of draft-07 only', () => {
    for (const uri of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft-07/schema']) {
      expect(problem({ ...schema({}), $schema: uri })).toBeUndefined();
    }
    expect(problem({ ...schema({}), $schema: 'http://json-schema.org/draft-04/schema#' })).toMatch(/^\$schema: must be one of "http:\/\/json-schema.org\/draft-07\/schema#"/);
  });

  it('names the problem of each rejected form', () => {
    expect(problem({ type: 'object', properties: {} })).toBe('properties.unsigned: is required');
    expect(problem({ ...schema({}), type: 'array' })).toBe('type: must be one of "object"');
    const open = schema({});
    (open.properties.unsigned as Record<string, unknown>).additionalProperties = true;
    expect(problem(open)).toBe('properties.unsigned.additionalProperties: must be one of false');
    expect(problem(schema({ beta: { type: 'string' } }))).toBe('properties.unsigned.properties.beta.type: must be one of "boolean"');
    expect(problem(schema({}, { plan: { type: 'string' } }))).toBe('properties.plan.type: must be one of "boolean"');
    expect(problem(schema({ 'in-beta': { type: 'boolean' } }))).toBe('properties.unsigned.properties.in-beta: claim names must match the pattern /^[A-Za-z_][A-Za-z0-9_]*$/');
    expect(problem(schema({}, { '9lives': { type: 'boolean' } }))).toMatch(/^properties\.9lives: claim names must match/);
    expect(problem('not a schema')).toBe(': must be an object');
  });

  it('holds at most MAX_CLAIMS claims in each place', () => {
    const claims = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, { type: 'boolean' }]));
    expect(problem(schema(claims(MAX_CLAIMS)))).toBeUndefined();
    expect(problem(schema(claims(MAX_CLAIMS + 1)))).toBe(`properties.unsigned.properties: must hold at most ${MAX_CLAIMS} claims`);
  });
});

describe('template conditions', () => {
  it('offers one condition per claim, unsigned first, in the schema’s order, with descriptions', () => {
    const parsed = AdaptiveJsonSchema.parse(
      schema({ beta: { type: 'boolean', description: ' Beta testers ' }, staff: { type: 'boolean' } }, { paid: { type: 'boolean', description: 'Paying customers' } }),
    );
    expect(templateConditions(parsed)).toEqual([
      { condition: 'visitor.claims.unsigned.beta === true', description: 'Visitors whose unsigned claim beta is true: Beta testers' },
      { condition: 'visitor.claims.unsigned.staff === true', description: 'Visitors whose unsigned claim staff is true' },
      { condition: 'visitor.claims.paid === true', description: 'Visitors whose claim paid is true: Paying customers' },
    ]);
    expect(templateConditions(emptyAdaptiveSchema())).toEqual([]);
  });
});
