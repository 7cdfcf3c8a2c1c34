/**
 * A command declared as data (after wrangler's createCommand) with its work in `run` (after gh's
 * xRun): arguments, flags named after the API's fields in kebab-case, examples, and output columns.
 * `defineCommand` adds the shared flags (`--json`, `--fields`; `--limit/--all/--page` for lists;
 * `--yes` for destructive commands); `runCommand` checks the arguments, `--fields` and `--jq`, runs
 * and renders. A destructive command confirms in its own `run` (`ctx.confirm`), once its input is checked.
 */
import type { AnyOp, OpBody } from '../contract/op.js';
import { describeIssue } from '../contract/issues.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import type { JqProgram } from './jq.js';
import { checkFields, render, type OutputSpec } from './output.js';
import { kebab, type ArgSpec, type FlagSpec } from './spec.js';

type FlagValue<S extends FlagSpec> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'number' }
    ? number
    : S extends { type: 'list' }
      ? string[]
      : S extends { choices: readonly (infer C)[] }
        ? S extends { nullable: true }
          ? C | null
          : C
        : S extends { nullable: true }
          ? string | null
          : string;

type FlagValues<F extends Record<string, FlagSpec>> = { [K in keyof F]?: FlagValue<F[K]> };
type ArgValues<A extends readonly ArgSpec[]> = {
  [K in A[number] as K['name']]: K extends { variadic: true } ? string[] : K extends { optional: true } ? string | undefined : string;
};

interface CommonFlags {
  json?: boolean;
  fields?: string;
  /** A jq expression: the JSON output goes through it (see jq.ts). */
  jq?: string;
  limit?: number;
  all?: boolean;
  page?: string;
  yes?: boolean;
}

interface CommandInput<A extends readonly ArgSpec[], F extends Record<string, FlagSpec>> {
  args: ArgValues<A>;
  flags: FlagValues<F> & CommonFlags;
  /** `--jq`, compiled (for a command that prints its JSON itself: `api`). */
  jq?: JqProgram;
  /**
   * Print `value` as the command's answer is printed (tables, TSV, `--json`, `--jq`, `--fields`), with
   * `spec` or the command's own output spec: for a command that prints before it fails (the list,
   * then exit 1) or with columns of its own. What `run` returns is printed the same way.
   */
  print: Print;
}

/** Prints a value as a command's answer is printed (CommandInput.print). */
export type Print = (value: unknown, spec?: OutputSpec) => Promise<void>;

export interface CommandDef<A extends readonly ArgSpec[] = readonly ArgSpec[], F extends Record<string, FlagSpec> = Record<string, FlagSpec>> {
  kind: 'command';
  name: string;
  aliases?: string[];
  summary: string;
  description?: string;
  args?: A;
  flags?: F;
  examples: string[];
  /** A paginated list: adds --limit, --all, --page. */
  list?: boolean;
  /**
   * A destructive command: adds --yes. Its run checks its input first, then calls
   * `ctx.confirm(what will happen, flags.yes)` before changing anything.
   */
  destructive?: boolean;
  output?: OutputSpec;
  /** Commands that print no API data (serve, completion) can turn off --json/--fields. */
  noJson?: boolean;
  run(ctx: Context, input: CommandInput<A, F>): Promise<unknown>;
}

export interface GroupDef {
  kind: 'group';
  name: string;
  aliases?: string[];
  summary: string;
  /** Its commands and groups, in help order: defined in place, or `later` (loaded when run). */
  commands: (CommandDef<any, any> | GroupDef | LaterDef)[];
}

/**
 * A command or group of a group, named here and loaded only when it runs (its module, and the
 * contract and zod schemas behind it): `later('get', () => import('./get.js'))`. The build checks
 * that the module's definition has this name.
 */
export interface LaterDef {
  kind: 'later';
  name: string;
  load: () => Promise<{ default: CommandDef<any, any> | GroupDef }>;
}

export function later(name: string, load: LaterDef['load']): LaterDef {
  return { kind: 'later', name, load };
}

/** The definition behind a group's entry, loaded if it is `later`. */
export async function resolveDef(def: CommandDef<any, any> | GroupDef | LaterDef): Promise<CommandDef<any, any> | GroupDef> {
  if (def.kind !== 'later') return def;
  const loaded = (await def.load()).default;
  if (loaded.name !== def.name) throw new Error(`later('${def.name}') loads a definition named ${loaded.name}`);
  return loaded;
}

/** Find the definition at `path` (names below the entry) in a loaded entry, loading only what is on the path. */
export async function findDef(def: CommandDef<any, any> | GroupDef, path: string[]): Promise<CommandDef<any, any>> {
  let node: CommandDef<any, any> | GroupDef = def;
  for (const name of path) {
    if (node.kind !== 'group') break;
    const next: CommandDef<any, any> | GroupDef | LaterDef | undefined = node.commands.find((c) => c.name === name);
    if (!next) throw new Error(`command ${path.join(' ')} is in the manifest but not in its module: rebuild (npm run build)`);
    node = await resolveDef(next);
  }
  if (node.kind !== 'command') throw new Error(`${path.join(' ')} is a group, not a command`);
  return node;
}

export function defineCommand<const A extends readonly ArgSpec[], const F extends Record<string, FlagSpec>>(
  def: Omit<CommandDef<A, F>, 'kind'>,
): CommandDef<A, F> {
  return { kind: 'command', ...def };
}

export function defineGroup(def: Omit<GroupDef, 'kind'>): GroupDef {
  return { kind: 'group', ...def };
}

/**
 * Check the arguments (a missing one asked for on a terminal), `--fields` and `--jq`; run; render.
 * Confirming is not done here: each destructive command's `run` calls `ctx.confirm` itself.
 */
export async function runCommand(def: CommandDef<any, any>, ctx: Context, rawArgs: (string | undefined)[], flags: Record<string, unknown>, path = def.name) {
  const args: Record<string, string | string[] | undefined> = {};
  const specs: readonly ArgSpec[] = def.args ?? [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (spec.variadic) {
      // The last argument, one or more values (commander gives them as an array).
      const values = (rawArgs[i] as unknown as string[] | undefined) ?? [];
      if (values.length === 0 && !spec.optional) throw new UsageError(`missing argument <${spec.name}>`, `see docsctl ${path} --help`);
      if (values.some((v) => v.trim() === '')) throw new UsageError(`<${spec.name}>: must not be empty`);
      args[spec.name] = values;
      continue;
    }
    let value = rawArgs[i];
    if ((value === undefined || value === '') && !spec.optional) {
      const asked = ctx.globals.interactive ? await ctx.pickArg?.(ctx, spec.name, args as Record<string, string | undefined>) : undefined;
      if (asked !== undefined) value = asked;
      else throw new UsageError(`missing argument <${spec.name}>`, `see docsctl ${path} --help`);
    }
    if (value !== undefined && value.trim() === '') throw new UsageError(`<${spec.name}>: must not be empty`);
    args[spec.name] = value;
  }
  // --fields names what the command declares (checked before anything is sent).
  checkFields(def.output, flags.fields as string | undefined);
  // --jq: the output is JSON, through jq; the expression is compiled before anything is sent.
  const jq = typeof flags.jq === 'string' ? await (await import('./jq.js')).compileJq(ctx, flags.jq) : undefined;
  if (jq) flags.json = true;
  const renderFlags = { ...(flags as CommonFlags), ...(jq ? { jqProgram: jq } : {}) };
  const print = (value: unknown, spec: OutputSpec = def.output ?? {}) => render(ctx, value, spec, renderFlags);
  const input = { args, flags, print, ...(jq ? { jq } : {}) } as CommandInput<any, any>;
  await print(await def.run(ctx, input));
}

/**
 * Check a request body built from flags against the operation's schema, before sending anything.
 * A bad value is a UsageError naming the flag and the rule (exit 2).
 */
export function checkBody<O extends AnyOp>(op: O, body: Record<string, unknown>, flagOf: Record<string, string> = {}): OpBody<O> {
  const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const r = op.body.safeParse(clean);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = String(issue.path[0] ?? '');
    const name = flagOf[field] ?? (field ? `--${kebab(field)}` : 'body');
    throw new UsageError(`${name}: ${describeIssue(issue, clean)}`);
  }
  return clean as OpBody<O>;
}

/** A checked body that changes something; an empty one is a usage error (`nothing to update`, or `message`). */
export function nonEmpty<T extends object>(body: T, hint: string, message = 'nothing to update'): T {
  if (Object.keys(body).length === 0) throw new UsageError(message, hint);
  return body;
}

/** The same check for query parameters. */
export function checkQuery<O extends AnyOp>(op: O, query: Record<string, unknown>, flagOf: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
  const r = op.query.safeParse(clean);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = String(issue.path[0] ?? '');
    throw new UsageError(`${flagOf[field] ?? `--${kebab(field)}`}: ${describeIssue(issue, clean)}`);
  }
  return clean as never;
}
