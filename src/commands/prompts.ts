/**
 * What commands ask the user, in one style: a required text (a title) asked for on a terminal and
 * a usage error elsewhere; and confirmations that name what they act on by title and id:
 * `Delete space "Handbook" (sp_123)? It can be restored for 7 days.`
 */
import type { Context } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { plural } from '../cli/text.js';

export interface RequiredText {
  /** The flag that gives it: `--title`. */
  flag: string;
  /** The prompt's label: `Title`. */
  label: string;
  /** Length bounds, checked as the user types (the body's own check runs afterwards anyway). */
  min?: number;
  max?: number;
  /** How to give it without a terminal: `docsctl spaces create --title "Getting started"`. */
  example: string;
}

/**
 * A text the command cannot do without (a title): the value given, or on a terminal the answer to
 * a prompt when it is missing or blank; without a terminal (or with CI set, or --no-input) a
 * missing or blank value is a usage error naming the flag (exit 2), before anything is sent.
 */
export async function requiredText(ctx: Context, given: string | undefined, spec: RequiredText): Promise<string> {
  if (given !== undefined && given.trim() !== '') return given;
  if (!ctx.globals.interactive) {
    throw new UsageError(given === undefined ? `missing ${spec.flag}` : `${spec.flag}: must not be blank`, `pass it: ${spec.example}`);
  }
  const { input } = await ctx.prompts();
  const answer = await input(
    {
      message: spec.label,
      validate: (v: string) => {
        const t = v.trim();
        if (t === '') return `${spec.label} must not be blank`;
        if (spec.min !== undefined && t.length < spec.min) return `${spec.label} must be at least ${plural(spec.min, 'character')}`;
        if (spec.max !== undefined && t.length > spec.max) return `${spec.label} must be at most ${plural(spec.max, 'character')}`;
        return true;
      },
    },
    { output: ctx.io.stderr, input: ctx.io.stdin },
  );
  return answer.trim();
}

/** `space "Handbook" (sp_123)`, or `space sp_123` when the title is not known. */
export function named(kind: string, id: string, title?: string): string {
  return title ? `${kind} ${JSON.stringify(title)} (${id})` : `${kind} ${id}`;
}

/** A text cut to `max` characters with …, on one line (a comment's excerpt in a question). */
export function excerpt(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface Action {
  /** The verb, capitalised: `Delete`. */
  verb: string;
  /** What it acts on: `space`. */
  kind: string;
  id: string;
  /** Its title (looked up only when the question is asked: never with --yes). */
  title?: () => Promise<string | undefined>;
  /** Words after the resource, before the question mark: `from site site_1`. */
  rest?: string;
  /** What follows, after the question: `It can be restored for 7 days.` */
  then?: string;
}

/** The question of an action: `Delete space "Handbook" (sp_123)? It can be restored for 7 days.` */
export function question(a: Omit<Action, 'title'>, title: string | undefined): string {
  return `${a.verb} ${named(a.kind, a.id, title)}${a.rest ? ` ${a.rest}` : ''}?${a.then ? ` ${a.then}` : ''}`;
}

/**
 * Confirm a destructive action (`ctx.confirm`), naming its target by title and id. The title is
 * looked up only when a question is to be asked or refused (not with --yes); a lookup that fails
 * leaves the id alone, and the action itself then says what is wrong.
 */
export async function confirmAction(ctx: Context, yes: boolean | undefined, a: Action): Promise<void> {
  if (yes) return;
  const title = a.title ? await a.title().catch(() => undefined) : undefined;
  await ctx.confirm(question(a, title), yes);
}

/** The title of the item with this id in a list (sections, groups, site spaces have no GET of their own). */
export async function titleIn(items: AsyncIterable<{ id: string; title?: string }>, id: string): Promise<string | undefined> {
  for await (const item of items) if (item.id === id) return item.title;
  return undefined;
}
