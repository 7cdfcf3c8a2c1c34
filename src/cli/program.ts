/**
 * Turns the command manifest into commander commands. Only the tree named on the command line is
 * built; a command's module is imported only when it runs, so help and parsing stay fast.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import { kebab, runCommand, type CommandDef, type GroupDef } from './command.js';
import type { ManifestCommand, ManifestNode } from './manifest.js';

/** A top-level entry of the command tree, as `src/commands/index.ts` lists them. */
export interface LazyEntry {
  name: string;
  aliases?: string[];
  summary: string;
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
export function attach(parent: Command, node: ManifestNode, load: DefLoader, makeContext: ContextFactory, path: string[] = [], opts: { hidden?: boolean } = {}): Command {
  const full = [...path, node.name];
  const cmd = new Command(node.name).summary(node.summary).description(node.summary).copyInheritedSettings(parent);
  if (node.aliases) cmd.aliases(node.aliases);
  parent.addCommand(cmd, opts);
  if (node.kind === 'group') {
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

/** Arguments, flags (with the shared ones) and examples of one command. */
function describe(cmd: Command, node: ManifestCommand): void {
  if (node.description) cmd.description(`${node.summary}\n\n${node.description}`);
  for (const a of node.args) cmd.argument(`[${a.name}]`, a.description + (a.optional ? ' (optional)' : ''));
  for (const spec of node.flags) {
    const long = `--${kebab(spec.key)}`;
    const placeholder = spec.type === 'boolean' ? '' : ` <${spec.value ?? 'value'}>`;
    const opt = new Option(`${spec.short ? `-${spec.short}, ` : ''}${long}${placeholder}`, spec.description);
    if (spec.choices) opt.choices(spec.nullable ? [...spec.choices, 'null'] : spec.choices);
    if (spec.type === 'number') opt.argParser(parseNumber(long));
    // A list flag is repeated: `-f a=1 -f b=2`.
    if (spec.type === 'list') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (spec.hidden) opt.hideHelp();
    cmd.addOption(opt);
  }
  if (!node.noJson) {
    cmd.option('--json', 'print JSON (lists: an array of the items)');
    cmd.option('--fields <list>', 'only these comma-separated fields (JSON) or columns (tables)');
    cmd.option('--jq <expression>', 'filter the JSON with jq (strings print without quotes); implies --json');
  }
  if (node.list) {
    cmd.addOption(new Option('--limit <n>', 'at most N items in all (default 30)').argParser(parseLimit));
    cmd.option('--all', 'every item, paging under the hood');
    cmd.option('--page <cursor>', 'start at this page cursor (from a previous list)');
  }
  if (node.destructive) cmd.option('-y, --yes', 'do it without asking for confirmation');
  if (node.columns?.length) cmd.addHelpText('after', `\nColumns, in order (TSV rows; names for --fields): ${node.columns.join(', ')}`);
  if (node.fields?.length) cmd.addHelpText('after', `\n${node.columns?.length ? 'More fields for --fields' : 'Fields, in order (key/value lines; names for --fields)'}: ${node.fields.join(', ')}`);
  if (node.examples.length) cmd.addHelpText('after', `\nExamples:\n${node.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

function parseNumber(flag: string) {
  return (v: string) => {
    if (!/^-?\d+(\.\d+)?$/.test(v)) throw new InvalidArgumentError(`${flag}: must be a number`);
    return Number(v);
  };
}

function parseLimit(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('--limit: must be a whole number (items in all; use --all for every item)');
  const n = Number(v);
  if (n < 1) throw new InvalidArgumentError('--limit: must be at least 1');
  return n;
}
