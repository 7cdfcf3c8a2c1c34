/**
 * Turns the command manifest into commander commands. Only the tree named on the command line is
 * built; a command's module is imported only when it runs, so help and parsing stay fast.
 */
import { Command, InvalidArgumentError, Option, type Help, type HelpConfiguration } from 'commander';
import type { Context } from './context.js';
import { runCommand, type CommandDef, type GroupDef } from './command.js';
import { argUsage, kebab } from './spec.js';
import { UsageError } from './errors.js';
import { flagTerm, HELP_HEADINGS, sharedFlags } from './flags.js';
import type { ManifestCommand, ManifestNode } from './manifest.js';
import { didYouMean, similar, type Candidate } from './suggest.js';

/** A top-level entry of the command tree, as `src/commands/index.ts` lists them. */
export interface LazyEntry {
  name: string;
  /** Heading under which top-level help lists it. */
  section: string;
  /** Left out of help (internal commands such as `__complete`). */
  hidden?: boolean;
  load: () => Promise<{ default: CommandDef<any, any> | GroupDef }>;
}

export type ContextFactory = (cmd: Command) => Context;
/** Load the definition of the command at this path (entry name first). */
export type DefLoader = (path: string[]) => Promise<CommandDef<any, any>>;

/** Add a manifest node (group or command) under `parent`. */
export function attach(
  parent: Command,
  node: ManifestNode,
  load: DefLoader,
  makeContext: ContextFactory,
  path: string[] = [],
  opts: { hidden?: boolean } = {},
): Command {
  const full = [...path, node.name];
  const cmd = new DocsCommand(node.name).summary(node.summary).description(node.summary).copyInheritedSettings(parent);
  if (node.aliases) cmd.aliases(node.aliases);
  parent.addCommand(cmd, opts);
  if (node.kind === 'group') {
    // `docsctl help spaces create` is main's (it prints `spaces create --help`); no `help` subcommand here.
    cmd.usage('<command> [flags]').helpCommand(false);
    for (const child of node.commands) attach(cmd, child, load, makeContext, full);
    return cmd;
  }
  describe(cmd, node);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const flags = { ...self.opts() };
    for (const spec of node.flags) if (spec.nullable && flags[spec.key] === 'null') flags[spec.key] = null;
    const def = await load(full);
    await runCommand(def, makeContext(self), self.processedArgs as (string | undefined)[], flags, full.join(' '));
  });
  return cmd;
}

/** Arguments, flags (with the shared ones, cli/flags.ts) and examples of one command. */
function describe(cmd: Command, node: ManifestCommand): void {
  if (node.description) cmd.description(`${node.summary}\n\n${node.description}`);
  cmd.usage([...node.args.map(argUsage), '[flags]'].join(' '));
  // Optional for commander: a missing argument is asked for on a terminal (runCommand).
  for (const a of node.args) cmd.argument(`[${a.name}${a.variadic ? '...' : ''}]`, a.description + (a.optional ? ' (optional)' : ''));
  for (const spec of node.flags) {
    const long = `--${kebab(spec.key)}`;
    const placeholder = spec.type === 'boolean' ? '' : ` <${spec.value ?? 'value'}>`;
    const opt = new Option(`${spec.short ? `-${spec.short}, ` : ''}${long}${placeholder}`, spec.description).helpGroup(HELP_HEADINGS.own);
    if (spec.choices) opt.choices(spec.nullable ? [...spec.choices, 'null'] : spec.choices);
    if (spec.type === 'number') opt.argParser(parseNumber(long));
    // A list flag is repeated: `-f a=1 -f b=2`.
    if (spec.type === 'list') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (spec.once) opt.argParser(onlyOnce(long, spec.short, typeof spec.once === 'string' ? spec.once : undefined));
    if (spec.hidden) opt.hideHelp();
    if (spec.conflicts) opt.conflicts([...spec.conflicts]);
    cmd.addOption(opt);
  }
  for (const { flag, heading } of sharedFlags(node)) {
    const opt = new Option(flagTerm(flag), flag.description).helpGroup(heading);
    if (flag.key === 'limit') opt.argParser(parseLimit);
    if (flag.conflicts) opt.conflicts([...flag.conflicts]);
    cmd.addOption(opt);
  }
  if (node.columns?.length) cmd.addHelpText('after', `\nColumns, in order (TSV rows; names for --fields): ${node.columns.join(', ')}`);
  if (node.fields?.length)
    cmd.addHelpText(
      'after',
      `\n${node.columns?.length ? 'More fields for --fields' : 'Fields, in order (key/value lines; names for --fields)'}: ${node.fields.join(', ')}`,
    );
  if (node.examples.length) cmd.addHelpText('after', `\nExamples:\n${node.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/**
 * docsctl's commands: a mistyped command or flag is a UsageError (exit 2) that suggests from the
 * commands or flags of the command where it was typed (`docsctl spaces lst`: `Did you mean list?`),
 * and names that command's help.
 */
export class DocsCommand extends Command {
  override createCommand(name?: string): Command {
    return new DocsCommand(name);
  }

  /**
   * Help, on stdout: commander writes it to stderr (as an error) when a group is run without a
   * command (bare `docsctl`, `docsctl spaces`); gh prints it on stdout and exits 0, so that
   * `docsctl | less` shows it. main() exits 0 on commander.help.
   */
  override help(): never {
    return super.help();
  }

  /** commander's hook for a word that names no subcommand of this group. */
  unknownCommand(): never {
    const word = this.args[0];
    const candidates = this.createHelp()
      .visibleCommands(this)
      .map((c) => ({ name: c.name(), aliases: c.aliases() }));
    if (!this.parent) candidates.push({ name: 'help', aliases: [] });
    throw unknownCommand(word, commandPath(this), candidates, `see ${commandPath(this)} --help`);
  }

  /**
   * commander's hook for two flags given together that a flag's `conflicts` (FlagSpec.conflicts)
   * forbids: a UsageError (exit 2) naming both, as the rest of docsctl words it.
   */
  _conflictingOption(option: Option, conflicting: Option): never {
    const where = commandPath(this);
    throw new UsageError(`${option.long ?? option.flags} and ${conflicting.long ?? conflicting.flags} cannot be used together`, `see ${where} --help`);
  }

  /** commander's hook for a flag that neither this command nor the program takes. */
  unknownOption(flag: string): never {
    // terraform's spelling of a long flag (`-detailed-exitcode`) is looked for as `--detailed-exitcode`.
    const name = flag.split('=')[0].replace(/^-(?=[^-]{2})/, '--');
    const longs: string[] = [];
    for (let c: Command | null = this; c; c = c.parent) {
      const options = c === this ? this.createHelp().visibleOptions(this) : c.options.filter((o) => !o.hidden);
      for (const o of options) if (o.long && !longs.includes(o.long)) longs.push(o.long);
    }
    const guess = name.startsWith('--') ? didYouMean(name, longs, '--') : '';
    const where = commandPath(this);
    throw new UsageError(`unknown option '${flag.split('=')[0]}' for '${where}'${guess ? `. ${guess}` : ''}`, `see ${where} --help`);
  }
}

/**
 * The UsageError for a word that names no command of `where`: with the names close to it (`Did you
 * mean list?`), or else the names there are.
 */
export function unknownCommand(word: string, where: string, candidates: Candidate[], hint: string): UsageError {
  const meant = commonGuess(word, where, candidates);
  if (meant) return new UsageError(`unknown command '${word}' for '${where}'. Did you mean ${meant}?`, hint);
  const guess = didYouMean(word, candidates);
  if (guess) return new UsageError(`unknown command '${word}' for '${where}'. ${guess}`, hint);
  return new UsageError(`unknown command '${word}' for '${where}'`, `the commands of ${where}: ${candidates.map((c) => c.name).join(', ')}; ${hint}`);
}

/**
 * Words people type for what docsctl calls otherwise: at the top, other tools' commands (`status`,
 * `version`, `login`…), each the docsctl command line that does it; in a group, other verbs (`rm`,
 * `new`, `show`…), each the name of the command, offered only where the group has it.
 */
const TOP_GUESSES: Readonly<Record<string, string>> = {
  status: 'docsctl auth status',
  whoami: 'docsctl auth status',
  doctor: 'docsctl auth status',
  login: 'docsctl auth login',
  logout: 'docsctl auth logout',
  token: 'docsctl auth token',
  init: 'docsctl auth login',
  setup: 'docsctl auth login',
  config: 'docsctl auth status',
  configure: 'docsctl auth login',
  version: 'docsctl --version',
  ls: 'docsctl spaces list, or docsctl tree',
  list: 'docsctl spaces list, or docsctl tree',
  search: 'docsctl content search SPACE QUERY',
  publish: 'docsctl sites publish',
  merge: 'docsctl cr merge',
};
const VERB_GUESSES: Readonly<Record<string, readonly string[]>> = {
  ls: ['list'],
  show: ['get'],
  view: ['get'],
  info: ['get'],
  describe: ['get'],
  cat: ['get'],
  new: ['create', 'add'],
  add: ['create'],
  make: ['create'],
  mk: ['create'],
  rm: ['delete', 'remove'],
  del: ['delete', 'remove'],
  remove: ['delete'],
  destroy: ['delete'],
  edit: ['update'],
  set: ['update'],
  mv: ['move'],
  cp: ['duplicate'],
  copy: ['duplicate'],
  undelete: ['restore'],
};

/** What a commonly guessed word stands for where it was typed (TOP_GUESSES, VERB_GUESSES), or undefined. */
function commonGuess(word: string, where: string, candidates: readonly Candidate[]): string | undefined {
  const w = word.toLowerCase();
  if (where === 'docsctl') {
    // The word, or a typo of it that names no command (`stauts`).
    const top = Object.hasOwn(TOP_GUESSES, w) ? w : similar(w, candidates).length ? undefined : similar(w, Object.keys(TOP_GUESSES))[0];
    if (top !== undefined) return TOP_GUESSES[top];
  }
  const names = Object.hasOwn(VERB_GUESSES, w) ? VERB_GUESSES[w] : [];
  // The command's name, when the word means one of its aliases (`new` → `add`, aliased `create`).
  const found = names.map((n) => candidates.find((c) => c.name === n || c.aliases?.includes(n))).find(Boolean);
  return found && `${where} ${found.name}`;
}

/** `docsctl spaces list`: the names from the program down to `cmd`. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * How help is laid out (after gh): usage, aliases, description, arguments, the command's own flags,
 * its output flags, then the global flags (the program's, and --help) in a section of their own;
 * a group lists its commands. Wraps to `helpWidth` (80 off a terminal, so the build can render it
 * ahead of time: dist/help.json).
 */
export const helpConfiguration: HelpConfiguration = {
  formatHelp(cmd: Command, helper: Help): string {
    let root = cmd;
    while (root.parent) root = root.parent;
    const mine = helper.visibleOptions(cmd);
    const globals = [
      ...(cmd === root ? [] : root.options.filter((o) => !o.hidden && o.long !== '--version')),
      ...mine.filter((o) => o.helpGroupHeading === HELP_HEADINGS.global),
    ];
    const sections: [string, [string, string][]][] = [];
    const args = helper.visibleArguments(cmd).map((a): [string, string] => [a.name(), a.description]);
    sections.push(['Arguments:', args]);
    const groups = new Map<string, [string, string][]>();
    for (const o of mine) {
      const heading = o.helpGroupHeading ?? HELP_HEADINGS.own;
      if (heading === HELP_HEADINGS.global) continue;
      if (!groups.has(heading)) groups.set(heading, []);
      groups.get(heading)!.push([helper.optionTerm(o), helper.optionDescription(o)]);
    }
    sections.push(...groups);
    const commands = new Map<string, [string, string][]>();
    for (const sub of helper.visibleCommands(cmd)) {
      const heading = sub.helpGroup() || 'Commands:';
      if (!commands.has(heading)) commands.set(heading, []);
      commands.get(heading)!.push([[sub.name(), ...sub.aliases()].join('|'), helper.subcommandDescription(sub)]);
    }
    sections.push(...commands);
    sections.push([HELP_HEADINGS.global, globals.map((o) => [helper.optionTerm(o), helper.optionDescription(o)])]);

    const width = Math.max(0, ...sections.flatMap(([, items]) => items.map(([term]) => helper.displayWidth(term))));
    const out = [`Usage: ${commandPath(cmd)} ${cmd.usage()}`];
    if (cmd.aliases().length)
      out.push(
        `Aliases: ${cmd
          .aliases()
          .map((a) => [...commandPath(cmd).split(' ').slice(0, -1), a].join(' '))
          .join(', ')}`,
      );
    out.push('');
    const description = helper.commandDescription(cmd);
    if (description) out.push(helper.boxWrap(description, helper.helpWidth ?? 80), '');
    for (const [heading, items] of sections) {
      if (items.length) out.push(heading, ...items.map(([term, text]) => helper.formatItem(term, width, text, helper)), '');
    }
    return out.join('\n');
  },
};

function parseNumber(flag: string) {
  return (v: string) => {
    if (!/^-?\d+(\.\d+)?$/.test(v)) throw new InvalidArgumentError(`${flag}: must be a number`);
    return Number(v);
  };
}

/** A flag given at most once (FlagSpec.once): the second value is refused, not taken instead of the first. */
function onlyOnce(long: string, short: string | undefined, why = 'it takes one value') {
  return (v: string, prev: string | undefined) => {
    if (prev !== undefined)
      throw new InvalidArgumentError(`${short ? `-${short}/` : ''}${long}: given twice (${JSON.stringify(prev)}, then ${JSON.stringify(v)}): ${why}`);
    return v;
  };
}

function parseLimit(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('--limit: must be a whole number (items in all; use --all for every item)');
  const n = Number(v);
  if (n < 1) throw new InvalidArgumentError('--limit: must be at least 1');
  return n;
}
