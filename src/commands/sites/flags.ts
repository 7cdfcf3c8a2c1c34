/** Flag helpers shared by the sites commands: move positions and true/false values. */
import { UsageError } from '../../cli/errors.js';

export interface MoveFlags {
  before?: string;
  after?: string;
}

/**
 * The move body `{position: {before|after: {type, [key]: id}}}`, and the flag that names it in
 * messages. Both flags, or neither, is a usage error (exit 2).
 */
export function positionBody(flags: MoveFlags, type: string, key: string) {
  if (flags.before !== undefined && flags.after !== undefined) throw new UsageError('--before and --after cannot be used together');
  if (flags.before === undefined && flags.after === undefined) throw new UsageError('nowhere to move', 'pass --before ID or --after ID');
  const side = flags.before !== undefined ? 'before' : 'after';
  return { body: { position: { [side]: { type, [key]: flags[side] } } }, flagOf: { position: `--${side}` } };
}

/** `true`/`false` flag values, for API booleans that may also be left unchanged. */
export const BOOLEAN_CHOICES = ['true', 'false'] as const;
export function toBool(v: 'true' | 'false' | undefined): boolean | undefined {
  return v === undefined ? undefined : v === 'true';
}
