/**
 * The flags that docsctl declares once for many commands, read by parsing and help (program.ts,
 * main.ts), completion (completion.ts) and docs/commands.md (docs.ts):
 *
 * - global flags: every command takes them, anywhere on the line (`docsctl spaces list --org X`
 *   and `docsctl --org X spaces list` are the same); help lists them under "Global flags:";
 * - output flags (`--json`, `--fields`, `--jq`): every command that prints API data, and only those
 *   (a command that prints no JSON does not pretend to take `--json`); help: "Output flags:";
 * - list flags (`--limit`, `--all`, `--page`) on paginated lists, `--yes` on destructive commands:
 *   part of the command's own "Flags:".
 *
 * Kept free of imports: the entry and every command's help read it.
 */

/**
 * What a value completes to: ids of a kind (`__complete ids KIND`). `cr` is any change request of the
 * space typed before it, `mergeable-cr` only those a merge takes (open ones, then drafts);
 * `operation` the operationIds of the official API document (`docsctl api`).
 */
export type IdKind = 'space' | 'collection' | 'site' | 'cr' | 'mergeable-cr' | 'org' | 'user' | 'profile' | 'operation';

export interface SharedFlag {
  /** The long name with its dashes: `--org`, `--no-input`. */
  long: string;
  /** One letter, without its dash. */
  short?: string;
  /** The value's placeholder (`--org <id>`); absent for a boolean flag. */
  value?: string;
  description: string;
  /** Completion offers these ids for its value. */
  ids?: IdKind;
  /** The key commander stores it under (`noInput` → `input` for a negation). */
  key: string;
  /** A global flag that says where ids come from (the organization, the profile): completion passes it on to `__complete ids`. */
  context?: boolean;
  /** The keys of flags it cannot be given with (see FlagSpec.conflicts). */
  conflicts?: readonly string[];
}

/** Every command takes these. `--version` is the program's alone (see VERSION_FLAG). */
export const GLOBAL_FLAGS: readonly SharedFlag[] = [
  { long: '--org', key: 'org', value: 'id', description: 'act on this organization (or DOCSCTL_ORG)', ids: 'org', context: true },
  { long: '--profile', key: 'profile', value: 'name', description: 'use this saved profile (or DOCSCTL_PROFILE)', ids: 'profile', context: true },
  {
    long: '--timeout',
    key: 'timeout',
    value: 'seconds',
    description: 'timeout of each request as a whole: every attempt, its answer and the waits between retries (or DOCSCTL_TIMEOUT; default 30)',
  },
  { long: '--verbose', key: 'verbose', description: 'trace every request on stderr (or DOCSCTL_DEBUG=1)' },
  { long: '--no-input', key: 'input', description: 'never prompt; a missing value is an error' },
  { long: '--no-color', key: 'color', description: 'no colour (or NO_COLOR)' },
  { long: '--help', short: 'h', key: 'help', description: 'show help for the command' },
];

export const VERSION_FLAG: SharedFlag = { long: '--version', short: 'V', key: 'version', description: 'print the version of docsctl' };

/** Commands that print API data take these (`noJson` commands do not). */
export const OUTPUT_FLAGS: readonly SharedFlag[] = [
  { long: '--json', key: 'json', description: 'print JSON (lists: an array of the items)' },
  { long: '--fields', key: 'fields', value: 'list', description: 'only these fields, comma-separated, by the names listed below (tables, TSV and JSON alike)' },
  { long: '--jq', key: 'jq', value: 'expression', description: 'filter the JSON with jq (strings print without quotes); implies --json' },
];

/** Paginated lists take these. */
export const LIST_FLAGS: readonly SharedFlag[] = [
  { long: '--limit', key: 'limit', value: 'n', description: 'at most N items in all (default 30)' },
  { long: '--all', key: 'all', description: 'every item, paging under the hood', conflicts: ['limit'] },
  { long: '--page', key: 'page', value: 'cursor', description: 'start at this page cursor (from a previous list)' },
];

/** Destructive commands take this. */
export const CONFIRM_FLAGS: readonly SharedFlag[] = [{ long: '--yes', short: 'y', key: 'yes', description: 'do it without asking for confirmation' }];

export const HELP_HEADINGS = { own: 'Flags:', output: 'Output flags:', global: 'Global flags:' } as const;

/** What a command is, for the shared flags it takes. */
export interface FlagTraits {
  list?: boolean;
  destructive?: boolean;
  noJson?: boolean;
}

/** The shared flags a command takes besides the global ones, with the help section of each. */
export function sharedFlags(node: FlagTraits): { flag: SharedFlag; heading: string }[] {
  return [
    ...(node.list ? LIST_FLAGS : []).map((flag) => ({ flag, heading: HELP_HEADINGS.own })),
    ...(node.destructive ? CONFIRM_FLAGS : []).map((flag) => ({ flag, heading: HELP_HEADINGS.own })),
    ...(node.noJson ? [] : OUTPUT_FLAGS).map((flag) => ({ flag, heading: HELP_HEADINGS.output })),
  ];
}

/** The global flags that take a value, long and short (their value is never a command name). */
export const GLOBAL_VALUE_FLAGS: readonly string[] = GLOBAL_FLAGS.filter((f) => f.value).flatMap((f) => [f.long, ...(f.short ? [`-${f.short}`] : [])]);

/** `--org <id>`, `-y, --yes`: the flag as help and commander write it. */
export function flagTerm(f: Pick<SharedFlag, 'long' | 'short' | 'value'>): string {
  return `${f.short ? `-${f.short}, ` : ''}${f.long}${f.value ? ` <${f.value}>` : ''}`;
}
