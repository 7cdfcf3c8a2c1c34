/**
 * Issue messages: one wording for the sandbox's 400s and the CLI's usage errors.
 * Type-only use of zod, so the CLI's toolkit can import this without loading zod.
 */
import type { z } from 'zod';

/**
 * Describe one zod issue as "<rule>" (without the field name). Given the `input` that was checked,
 * a field that is simply missing is said to be required, whatever rule its value would have had.
 */
export function describeIssue(issue: z.core.$ZodIssue, input?: unknown): string {
  if (
    input !== undefined &&
    issue.path.length > 0 &&
    (issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
    valueAt(input, issue.path) === undefined
  ) {
    return 'is required';
  }
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} items`
          : `must be at most ${issue.maximum}`;
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) === 1
          ? 'must not be empty'
          : `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} items`
          : `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      // A rule's own words where the contract gives them (`must be an email address such as …`), else the format's.
      if (issue.message.startsWith('must ')) return issue.message;
      return issue.format === 'regex' && 'pattern' in issue
        ? `must match the pattern ${String((issue as { pattern?: unknown }).pattern)}`
        : `must be a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_type':
      // zod leaves the input out of issues; its default message says what it received.
      return /received undefined/.test(issue.message) ? 'is required' : `must be ${article(issue.expected)}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    default:
      return issue.message;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function article(t: string): string {
  return t === 'int' ? 'an integer' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`;
}

/** The dotted path of an issue, e.g. `position.before.space`. */
export function issuePath(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.');
}
