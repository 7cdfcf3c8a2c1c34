/**
 * What a command declares of its arguments and flags, as plain data: command.ts defines commands
 * with it, the manifest (manifest.ts) holds it for help, parsing and completion. Free of imports:
 * both stand on it.
 */
import type { IdKind } from './flags.js';

export interface ArgSpec {
  name: string;
  description: string;
  optional?: boolean;
  /** The values it takes, when they are a fixed set (completion offers them). */
  choices?: readonly string[];
  /** The ids it takes, when its name does not say (`auth switch <name>`: a profile; see ID_KINDS). */
  ids?: IdKind;
  /** It names a file on this machine (completion offers files; nothing else does). */
  files?: boolean;
  /** The last argument only: one or more values (`invites create <email>...`), given to `run` as an array. */
  variadic?: boolean;
}

export interface FlagSpec {
  description: string;
  type?: 'string' | 'number' | 'boolean' | 'list';
  /** Placeholder in help, e.g. `role` for `--default-level <role>`. */
  value?: string;
  short?: string;
  choices?: readonly string[];
  /** Allow `--flag null` to send null (nullable API fields). */
  nullable?: boolean;
  hidden?: boolean;
  /**
   * Given at most once: a second time is a usage error (exit 2) rather than replacing the first
   * (commander's way). A text says why, in the message.
   */
  once?: boolean | string;
  /**
   * Flags it cannot be given with (their keys: `beforeCollection`, or a shared flag's: `limit`),
   * declared to commander (`Option.conflicts`): `--a and --b cannot be used together`, exit 2,
   * before the command runs. One side of a pair declares it.
   */
  conflicts?: readonly string[];
  /**
   * Given, every failure of the command exits with this code instead of its own, so that the
   * command's other codes are answers (`orgs plan --detailed-exitcode`: 1, and 2 means only
   * "changes pending"). A command line that only looks like it gives the flag (terraform's
   * `-detailed-exitcode`, a misspelling) counts: main.ts, failureExitOf.
   */
  failureExit?: number;
}

/** How usage shows an argument: `<space>`, `[title]`, `<email>...`. */
export function argUsage(a: Pick<ArgSpec, 'name' | 'optional' | 'variadic'>): string {
  return `${a.optional ? `[${a.name}]` : `<${a.name}>`}${a.variadic ? '...' : ''}`;
}

/** camelCase → kebab-case: `defaultLevel` → `default-level`. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
