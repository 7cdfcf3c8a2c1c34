import { describe, expect, it } from 'vitest';
import { describeIssue, issuePath } from '../../src/contract/op.js';
import { AdaptiveJsonSchema, UNSIGNED_DESCRIPTION } from '../../src/contract/sites.js';
import { emptyAdaptiveSchema, templateConditions } from '../../src/server/sites/adaptive.js';

const schema = (unsigned: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { unsigned: { type: 'object', description: UNSIGNED_DESCRIPTION, properties: unsigned, additionalProperties: false }, ...extra },
  additionalProperties: false,
});
const bool = (description = 'A flag') => ({ type: 'boolean', description });

/** The first problem as the sandbox and the CLI word it. */
function problem(input: unknown): string | undefined {
  const r = AdaptiveJsonSchema.safeParse(input);
  if (r.success) return undefined;
  return `${issuePath(r.error.issues[0])}: ${describeIssue(r.error.issues[0], input)}`;
}

describe('the adaptive schema (the official SiteAdaptiveJSONSchema)', () => {
  it('accepts every kind of claim, unsigned and signed, nested objects included, and keeps them as given', () => {
    const input = schema(
      { beta: bool('In the beta'), plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' }, 'beta-tester': bool() },
      {
        email: { type: 'string', description: 'Email' },
        seats: { type: 'number', description: 'Seats' },
        roles: { type: 'array', description: 'Roles', items: { type: 'string', enum: ['dev', 'ops'], description: 'A role' } },
        company: { type: 'object', description: 'Company', properties: { size: { type: 'number', description: 'Size' } }, additionalProperties: false },
      },
    );
    const r = AdaptiveJsonSchema.safeParse(input);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(input);
    expect(problem(emptyAdaptiveSchema())).toBeUndefined();
  });

  it('takes a schema without unsigned claims, and without $schema', () => {
    expect(problem({ type: 'object', properties: {}, additionalProperties: false })).toBeUndefined();
    expect(problem({ type: 'object', properties: { paid: bool() }, additionalProperties: false })).toBeUndefined();
  });

  it('names the problem of each form the document refuses', () => {
    expect(problem({ ...schema({}), $schema: 'https://json-schema.org/draft-07/schema' })).toBe(
      '$schema: must be one of "http://json-schema.org/draft-07/schema#"',
    );
    expect(problem({ type: 'object', properties: {} })).toBe('additionalProperties: is required');
    expect(problem({ ...schema({}), additionalProperties: true })).toBe('additionalProperties: must be one of false');
    expect(problem({ ...schema({}), required: ['beta'] })).toBe(': unknown field "required"');
    expect(problem({ ...schema({}), type: 'array' })).toBe('type: must be one of "object"');
    const noDescription = schema({});
    delete (noDescription.properties.unsigned as Record<string, unknown>).description;
    expect(problem(noDescription)).toBe('properties.unsigned.description: is required');
    const open = schema({});
    (open.properties.unsigned as Record<string, unknown>).additionalProperties = true;
    expect(problem(open)).toBe('properties.unsigned.additionalProperties: must be one of false');
    expect(problem(schema({ beta: { type: 'boolean' } }))).toBe('properties.unsigned.properties.beta.description: is required');
    expect(problem(schema({ beta: { ...bool(), default: false } }))).toBe('properties.unsigned.properties.beta: unknown field "default"');
    expect(problem(schema({}, { n: { type: 'integer', description: 'N' } }))).toBe('properties.n.type: does not match any allowed form');
    expect(problem(schema({}, { list: { type: 'array', description: 'L', items: { type: 'array', description: 'I', items: bool() } } }))).toBe(
      'properties.list.items.type: does not match any allowed form',
    );
    expect(problem(schema({}, { o: { type: 'object', description: 'O', properties: {}, additionalProperties: true } }))).toBe(
      'properties.o.additionalProperties: must be one of false',
    );
    expect(problem('not a schema')).toBe(': must be an object');
  });
});

describe('template conditions', () => {
  it('offers the conditions of each claim, unsigned first, in the schema’s order, with descriptions', () => {
    const parsed = AdaptiveJsonSchema.parse(
      schema(
        { beta: bool(' Beta testers '), staff: bool(''), 'beta-tester': bool('') },
        {
          plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
          email: { type: 'string', description: '' },
          seats: { type: 'number', description: '' },
          roles: { type: 'array', description: '', items: { type: 'string', enum: ['dev'], description: '' } },
          tags: { type: 'array', description: '', items: { type: 'number', description: '' } },
          company: { type: 'object', description: 'Company', properties: { paid: bool('') }, additionalProperties: false },
        },
      ),
    );
    expect(templateConditions(parsed)).toEqual([
      { condition: 'visitor.claims.unsigned.beta === true', description: 'Visitors whose unsigned claim beta is true: Beta testers' },
      { condition: 'visitor.claims.unsigned.staff === true', description: 'Visitors whose unsigned claim staff is true' },
      { condition: 'visitor.claims.unsigned["beta-tester"] === true', description: 'Visitors whose unsigned claim beta-tester is true' },
      { condition: 'visitor.claims.plan === "free"', description: 'Visitors whose claim plan is "free": Plan' },
      { condition: 'visitor.claims.plan === "pro"', description: 'Visitors whose claim plan is "pro": Plan' },
      { condition: 'visitor.claims.email !== undefined', description: 'Visitors whose claim email is set' },
      { condition: 'visitor.claims.seats !== undefined', description: 'Visitors whose claim seats is set' },
      { condition: 'visitor.claims.roles.includes("dev")', description: 'Visitors whose claim roles includes "dev"' },
      { condition: 'visitor.claims.tags.length > 0', description: 'Visitors whose claim tags is not empty' },
      { condition: 'visitor.claims.company.paid === true', description: 'Visitors whose claim company.paid is true' },
    ]);
    expect(templateConditions(emptyAdaptiveSchema())).toEqual([]);
    expect(templateConditions(AdaptiveJsonSchema.parse({ type: 'object', properties: {}, additionalProperties: false }))).toEqual([]);
  });
});
