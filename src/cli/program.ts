/**
 * Turns the declared command tree into commander commands. Groups load lazily: only the group named
 * on the command line is imported, so `docsctl --help` and `docsctl X --help` stay fast.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import { runCommand, setCommandPath, kebab, type CommandDef, type FlagSpec, type GroupDef } from './command.js';

export interface LazyEntry {
  name: string;
  aliases?: string[];
  summary: string;
  /** Heading under which top-level help lists it. */
  section: string;
  load: () => Promise<{ default: CommandDef<any, any> | GroupDef }>;
}

export type ContextFactory = (cmd: Command) => Context;

/** Add a group or command definition under `parent`. */
export function attach(parent: Command, def: CommandDef<any, any> | GroupDef, makeContext: ContextFactory, path: string[] = []): Command {
  const full = [...path, def.name];
  if (def.kind === 'group') {
    const group = new Command(def.name).description(def.summary).copyInheritedSettings(parent);
    if (def.aliases) group.aliases(def.aliases);
    for (const child of def.commands) attach(group, child, makeContext, full);
    parent.addCommand(group);
    return group;
  }
  setCommandPath(def, full.join(' '));
  const cmd = new Command(def.name).description(def.summary).copyInheritedSettings(parent);
  if (def.description) cmd.description(`${def.summary}\n\n${def.description}`);
  if (def.aliases) cmd.aliases(def.aliases);
  for (const a of def.args ?? []) cmd.argument(`[${a.name}]`, a.description + (a.optional ? ' (optional)' : ''));
  for (const [key, spec] of Object.entries(def.flags ?? {}) as [string, FlagSpec][]) {
    const long = `--${kebab(key)}`;
    const placeholder = spec.type === 'boolean' ? '' : ` <${spec.value ?? 'value'}>`;
    const opt = new Option(`${spec.short ? `-${spec.short}, ` : ''}${long}${placeholder}`, spec.description);
    if (spec.choices) opt.choices(spec.nullable ? [...spec.choices, 'null'] : spec.choices);
    if (spec.type === 'number') opt.argParser(parseNumber(long));
    // A list flag is repeated: `-f a=1 -f b=2`.
    if (spec.type === 'list') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
    if (spec.hidden) opt.hideHelp();
    cmd.addOption(opt);
  }
  if (!def.noJson) {
    cmd.option('--json', 'print JSON (lists: an array of the items)');
    cmd.option('--fields <list>', 'only these comma-separated fields (JSON) or columns (tables)');
  }
  if (def.list) {
    cmd.addOption(new Option('--limit <n>', 'at most N items in all (default 30)').argParser(parseLimit));
    cmd.option('--all', 'every item, paging under the hood');
    cmd.option('--page <cursor>', 'start at this page cursor (from a previous list)');
  }
  if (def.destructive) cmd.option('-y, --yes', 'do it without asking for confirmation');
  if (def.examples.length) cmd.addHelpText('after', `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    const flags = { ...self.opts() };
    for (const [key, spec] of Object.entries(def.flags ?? {}) as [string, FlagSpec][]) {
      if (spec.nullable && flags[key] === 'null') flags[key] = null;
    }
    await runCommand(def, makeContext(self), self.processedArgs as (string | undefined)[], flags);
  });
  parent.addCommand(cmd);
  return cmd;
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
