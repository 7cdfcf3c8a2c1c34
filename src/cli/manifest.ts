/**
 * The command tree as plain data, written at build time (dist/manifest.json) from the command
 * definitions. Help, parsing, completions and docs/commands.md come from it, so a command's module
 * (and the contract and zod behind it) loads only when that command runs.
 */
import type { IdKind } from './flags.js';
import { kebab, type ArgSpec, type FlagSpec } from './spec.js';
import { similar } from './suggest.js';

/**
 * An argument as the manifest holds it: what completion offers for it, besides help's words (its
 * choices, the ids it takes, files; or nothing).
 */
interface ManifestArg extends Pick<ArgSpec, 'name' | 'description' | 'optional' | 'variadic'> {
  /** Its fixed values (completion offers them). */
  choices?: string[];
  /** The ids it takes (completion lists them: `__complete ids KIND`). */
  ids?: IdKind;
  /** A file on this machine. */
  files?: true;
}

type ManifestFlag = FlagSpec & {
  key: string;
  /** The ids its value takes. */
  ids?: IdKind;
  /** Its value is a file on this machine (its placeholder is one of FILE_VALUES). */
  files?: true;
};

/** The placeholders of flags whose value is a file on this machine (`--file <path>`, `--out <file>`). */
export const FILE_VALUES: ReadonlySet<string> = new Set(['file', 'path']);

/**
 * The ids an argument or a flag's value takes, by the name of the argument or of the value's
 * placeholder: `<space>`, `--before <space>`, `--to <org>`. One convention, read at build time.
 */
export const ID_KINDS: Readonly<Record<string, IdKind>> = {
  space: 'space',
  collection: 'collection',
  site: 'site',
  cr: 'cr',
  'change-request': 'cr',
  org: 'org',
  organization: 'org',
  user: 'user',
  team: 'team',
};

export interface ManifestCommand {
  kind: 'command';
  name: string;
  aliases?: string[];
  summary: string;
  description?: string;
  args: ManifestArg[];
  flags: ManifestFlag[];
  examples: string[];
  list?: boolean;
  destructive?: boolean;
  noJson?: boolean;
  /** The names of its output columns, in their order (tables and TSV; `--fields` takes them). */
  columns?: string[];
  /** More names `--fields` takes: a list's extra columns, or a single object's fields. */
  fields?: string[];
}

interface ManifestGroup {
  kind: 'group';
  name: string;
  aliases?: string[];
  summary: string;
  commands: ManifestNode[];
}

export type ManifestNode = ManifestCommand | ManifestGroup;

/** A top-level entry: a group or a command, with its help heading. */
type ManifestEntry = ManifestNode & { section: string; hidden?: boolean };

export interface Manifest {
  version: string;
  entries: ManifestEntry[];
}

/** The child of a group (or a top-level entry) that `word` names, by its name or an alias. */
export function childNamed(nodes: readonly ManifestNode[], word: string): ManifestNode | undefined {
  return nodes.find((n) => n.name === word) ?? nodes.find((n) => n.aliases?.includes(word));
}

/**
 * Follow a command line down the tree: the nodes its words name (aliases resolved), and the words
 * from the first one that names nothing (a leaf's arguments, or a mistyped command). Options are
 * skipped, and so is the value of each of `valueFlags` (`--org ID`).
 */
export function locate(manifest: Manifest, argv: readonly string[], valueFlags: readonly string[]): { nodes: ManifestNode[]; rest: string[] } {
  const nodes: ManifestNode[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return { nodes, rest: argv.slice(i + 1) };
    if (a.startsWith('-') && a !== '-') {
      if (valueFlags.includes(a)) i++;
      continue;
    }
    const here = nodes[nodes.length - 1];
    const next = here === undefined ? childNamed(manifest.entries, a) : here.kind === 'group' ? childNamed(here.commands, a) : undefined;
    if (!next) return { nodes, rest: argv.slice(i).filter((w) => !w.startsWith('-') || w === '-') };
    nodes.push(next);
  }
  return { nodes, rest: [] };
}

/**
 * The exit code every failure of this command line takes (FlagSpec.failureExit), or undefined.
 * It counts for the commands the line may have meant: the one it names, or every command under the
 * deepest group it names when a word after it is mistyped (`orgs plna --detailed-exitcode`). A flag
 * counts when a word asks for it as `--name`, as terraform spells it (`-name`), or misspelt
 * (`--detailed-exit-code`: what "Did you mean" would correct), so that a broken command line never
 * exits with one of the codes the flag makes answers.
 */
export function failureExitOf(manifest: Manifest, argv: readonly string[], valueFlags: readonly string[]): number | undefined {
  const { nodes } = locate(manifest, argv, valueFlags);
  const words: string[] = [];
  for (const a of argv) {
    if (a === '--') break;
    if (/^--?[^-]/.test(a) && a.length > 2) words.push(a.replace(/^--?/, '').split('=')[0].toLowerCase());
  }
  if (words.length === 0) return undefined;
  const commands: ManifestCommand[] = [];
  const collect = (n: ManifestNode): void => {
    if (n.kind === 'command') commands.push(n);
    else n.commands.forEach(collect);
  };
  const last = nodes[nodes.length - 1];
  if (last) collect(last);
  else manifest.entries.forEach(collect);
  for (const c of commands) {
    for (const f of c.flags) {
      if (f.failureExit === undefined) continue;
      const name = kebab(f.key);
      if (words.some((w) => w === name || similar(w, [name]).length > 0)) return f.failureExit;
    }
  }
  return undefined;
}
