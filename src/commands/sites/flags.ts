/** Flag helpers shared by the sites commands: true/false values, and a new space or an existing one. */
import { UsageError } from '../../cli/errors.js';

/** `true`/`false` flag values, for API booleans that may also be left unchanged. */
export const BOOLEAN_CHOICES = ['true', 'false'] as const;
export function toBool(v: 'true' | 'false' | undefined): boolean | undefined {
  return v === undefined ? undefined : v === 'true';
}

/** `spaceId` of a new section or site space: `--space ID`, or null with `--new-space` (one of them; the flags conflict). */
export function spaceChoice(flags: { space?: string; newSpace?: boolean }): string | null {
  if (flags.space === undefined && !flags.newSpace) throw new UsageError('--space: is required', 'pass --space ID, or --new-space to create one');
  return flags.newSpace ? null : flags.space!;
}
