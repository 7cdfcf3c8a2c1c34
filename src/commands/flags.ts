/**
 * Flag names that mean one thing everywhere: `--page` is the paging cursor of lists, `--page-id`
 * the page a comment, a link or a site space is about (an id or a path where the command looks
 * paths up), `--parent` the collection a space is in. An older name stays as a hidden alias, so
 * scripts keep working; where it is the name of another meaning (`--page`), using it says so.
 */
import type { z } from 'zod';
import type { FlagSpec } from '../cli/spec.js';
import type { Context } from '../cli/context.js';

/** A flag's old name, kept working but left out of help and completion. */
export function hiddenAlias(of: string, value: string): FlagSpec & { hidden: true } {
  return { description: `old name of ${of}`, value, hidden: true };
}

/**
 * The value of a flag given by its name or by its old one (the new flag declares that it conflicts
 * with the old: not both); `warn` says on stderr that the old name is deprecated (for a name that
 * now means something else elsewhere).
 */
export function aliased<T>(ctx: Context, names: { flag: string; old: string; warn?: boolean }, value: T | undefined, old: T | undefined): T | undefined {
  if (old === undefined) return value;
  if (names.warn) ctx.info(`warning: ${names.old} is deprecated here, use ${names.flag} (${names.old} is the paging cursor of lists)`);
  return old;
}

/** `--page-id` with the old `--page` of a command that is not a list. */
export function pageIdFlags<const D extends string, const V extends string>(description: D, value: V) {
  return {
    pageId: { description, value, conflicts: ['page'] },
    page: { description: 'old name of --page-id', value, hidden: true },
  } as const;
}

/** The page named by `--page-id` (or the old `--page`, with a warning). */
export function pageIdOf(ctx: Context, flags: { pageId?: string | null; page?: string | null }): string | undefined {
  return aliased(ctx, { flag: '--page-id', old: '--page', warn: true }, flags.pageId ?? undefined, flags.page ?? undefined);
}

/** A role flag that takes `guest` as members set-role does: the API's null (no role). */
export function roleOrGuest<R extends string>(role: R | 'guest' | null | undefined): Exclude<R, 'guest'> | null | undefined {
  return role === 'guest' ? null : (role as Exclude<R, 'guest'> | null | undefined);
}

/**
 * The length of a text as the contract bounds it (`z.string().min(2).max(128)`, through `optional`
 * and `nullable`), for help and prompts: the contract holds the numbers, help does not copy them.
 */
export function lengthBounds(schema: z.ZodType): { min?: number; max: number } {
  let s = schema;
  while (s._zod.def.type === 'optional' || s._zod.def.type === 'nullable') s = (s._zod.def as unknown as { innerType: z.ZodType }).innerType;
  const { minLength, maxLength } = s as z.ZodString;
  if (s._zod.def.type !== 'string' || typeof maxLength !== 'number') throw new Error(`lengthBounds: not a text of bounded length (${s._zod.def.type})`);
  return { ...(minLength ? { min: minLength } : {}), max: maxLength };
}

/** A text's length for help: `at most 50 characters`, `2 to 128 characters`. */
export function characters(schema: z.ZodType): string {
  const { min, max } = lengthBounds(schema);
  return min ? `${min} to ${max} characters` : `at most ${max} characters`;
}

/** Values given as separate words, repeated flags or comma-separated (`u_1,u_2`), blanks dropped, each once. */
export function listValues(values: readonly string[]): string[] {
  return [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
