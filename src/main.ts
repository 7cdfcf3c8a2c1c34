/**
 * docsctl's entry: wires the command tree to the toolkit and maps every error to its exit code,
 * in one place. Heavy modules load when a command needs them.
 */
import { type Command, CommanderError, Option } from 'commander';
import { colourOn, Context, StdoutClosed, type Globals, type Io } from './cli/context.js';
import { describeFailure, EXIT, EXIT_CODES_HELP, QuietExit, type Failure } from './cli/errors.js';
import { jsonSafe, terminalText } from './cli/escape.js';
import { maskSecrets, type RunMemory } from './client/errors.js';
import { flagTerm, GLOBAL_FLAGS, GLOBAL_VALUE_FLAGS, HELP_HEADINGS, VERSION_FLAG } from './cli/flags.js';
import { childNamed, failureExitOf, locate, type Manifest, type ManifestNode } from './cli/manifest.js';
import { findDef } from './cli/command.js';
import { attach, DocsCommand, helpConfiguration, unknownCommand } from './cli/program.js';
import { entries } from './commands/index.js';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

export async function main(argv: string[], io: Io, manifest: Manifest): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  const json = jsonErrors(argv, manifest);
  let ctx: Context | undefined;
  try {
    const help = helpArgv(argv, manifest);
    if (help === 'exit-codes') {
      io.stdout.write(EXIT_CODES_HELP + '\n');
      return EXIT.OK;
    }
    if (help) argv = help;
    const program = buildProgram(manifest, argv, io, (c) => (ctx = c));
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    // An answer (`orgs plan --detailed-exitcode`: 2, changes pending), even if nobody read the plan.
    if (err instanceof QuietExit) return err.exitCode;
    // The reader of stdout went away (`| head`): nothing is wrong, and nobody reads more.
    if (err instanceof StdoutClosed || io.stdoutClosed?.()) return EXIT.OK;
    // With a flag such as --detailed-exitcode, every failure has one code (1), apart from the answers.
    const failureExit = failureExitOf(manifest, argv, GLOBAL_VALUE_FLAGS);
    const failed = (f: Failure): Failure => (failureExit === undefined ? f : { ...f, exitCode: failureExit });
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.OK;
      const where = ['docsctl', ...locate(manifest, argv, GLOBAL_VALUE_FLAGS).nodes.map((n) => n.name)].join(' ');
      return report(io, failed({ exitCode: EXIT.USAGE, message: err.message.replace(/^error: /, ''), hint: `see ${where} --help` }), json, false);
    }
    return report(io, failed(describeFailure(err, ctx?.run)), json, Boolean(ctx?.globals.verbose), err, ctx?.run);
  } finally {
    await ctx?.close();
  }
}

/**
 * Whether errors are reported as JSON: with `--json`, and with `--jq` (which implies it; `api`'s
 * `-q` too), anywhere on the line before `--`.
 */
function jsonErrors(argv: readonly string[], manifest: Manifest): boolean {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  if (words.some((w) => w === '--json' || w === '--jq' || w.startsWith('--jq='))) return true;
  return words.some((w) => w.startsWith('-q')) && locate(manifest, words, GLOBAL_VALUE_FLAGS).nodes[0]?.name === 'api';
}

/**
 * The error on stderr: `error: …` and `hint: …` lines, or one JSON line with --json (or --jq). Messages carry
 * text from the service (and from the command line): its control characters are escaped, or
 * JSON-escaped (src/cli/escape.ts).
 */
function report(io: Io, f: Failure, json: boolean, verbose: boolean, err?: unknown, run?: RunMemory): number {
  if (json) {
    io.stderr.write(jsonSafe(JSON.stringify({ error: { status: f.status ?? null, message: f.message, hint: f.hint ?? null, exitCode: f.exitCode } })) + '\n');
  } else {
    io.stderr.write(terminalText(`error: ${f.message}\n${f.hint ? `hint: ${f.hint}\n` : ''}`));
  }
  if (f.unexpected) {
    if (verbose && err instanceof Error && err.stack) io.stderr.write(terminalText(run ? run.mask(err.stack) : maskSecrets(err.stack)) + '\n');
    else if (!json) io.stderr.write('(this looks like a bug in docsctl; run with --verbose to see where)\n');
  }
  return f.exitCode;
}

/**
 * `docsctl help [command...]` (and `docsctl <group...> help [command...]`, as commander offers):
 * the command line that prints that help (`[command...] --help`), 'exit-codes' for that topic, or
 * undefined when the line asks for no help. A name that is no command is a UsageError (exit 2)
 * with the names close to it.
 */
function helpArgv(argv: string[], manifest: Manifest): string[] | 'exit-codes' | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    if (GLOBAL_VALUE_FLAGS.includes(argv[i])) i++;
    else if (!argv[i].startsWith('-')) words.push(argv[i]);
  }
  // The group path before `help`, if every word up to it names a group.
  let siblings: readonly ManifestNode[] = manifest.entries;
  const before: string[] = [];
  let at = 0;
  for (; at < words.length && words[at] !== 'help'; at++) {
    const node = childNamed(siblings, words[at]);
    if (node?.kind !== 'group') return undefined;
    before.push(node.name);
    siblings = node.commands;
  }
  if (at === words.length) return undefined;
  const asked = words.slice(at + 1);
  if (before.length === 0 && asked.length === 1 && asked[0] === 'exit-codes') return 'exit-codes';
  const path = [...before];
  let node: ManifestNode | undefined;
  for (const word of asked) {
    const where = ['docsctl', ...path].join(' ');
    node = node?.kind === 'command' ? undefined : childNamed(siblings, word);
    if (!node) {
      const visible = siblings.filter((n) => !(n as { hidden?: boolean }).hidden).map((n) => ({ name: n.name, aliases: n.aliases }));
      throw unknownCommand(word, where, [...visible, ...(path.length === 0 ? [{ name: 'exit-codes' }] : [])], `see ${['docsctl', 'help', ...path].join(' ')}`);
    }
    path.push(node.name);
    siblings = node.kind === 'group' ? node.commands : [];
  }
  return [...path, '--help'];
}

/** The commander program for `argv`: only the tree named on the command line is built in full. */
function buildProgram(manifest: Manifest, argv: string[], io: Io, onContext: (c: Context) => void = () => {}, all = false): Command {
  const program = new DocsCommand('docsctl')
    .description('Administer an organization on the documentation-hosting service; `docsctl serve --memory` runs a sandbox of it.')
    .usage('<command> [flags]')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {}, // errors are reported once, by main()
      // Help wraps to the terminal `io` writes to (80 columns when it is not one), so that the
      // build can render it ahead of time (dist/help.json, see src/entry.ts).
      getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) ?? 80,
      getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) ?? 80,
    })
    .configureHelp(helpConfiguration)
    .helpCommand(false)
    .addHelpText(
      'after',
      '\nRun `docsctl help <command>...` (or `docsctl <command>... --help`) for the help of a command,\n`docsctl help exit-codes` for the exit codes.',
    );
  // The global flags, declared once (cli/flags.ts); every command's help lists them apart.
  for (const f of GLOBAL_FLAGS) {
    if (f.long === '--help') program.helpOption(flagTerm(f), f.description);
    else program.addOption(new Option(flagTerm(f), f.description));
  }
  for (const o of [
    ...program.options,
    program
      .createHelp()
      .visibleOptions(program)
      .find((o) => o.long === '--help'),
  ])
    o?.helpGroup(HELP_HEADINGS.global);

  const makeContext = (cmd: Command): Context => {
    const o = cmd.optsWithGlobals() as { profile?: string; org?: string; verbose?: boolean; input?: boolean; color?: boolean; timeout?: string };
    const env = io.env;
    const timeout = o.timeout !== undefined ? Number(o.timeout) : undefined;
    if (timeout !== undefined && !(timeout > 0)) throw new CommanderError(2, 'commander.invalidArgument', '--timeout: must be a positive number of seconds');
    const globals: Globals = {
      profile: o.profile,
      org: o.org,
      verbose: Boolean(o.verbose) || env.DOCSCTL_DEBUG === '1',
      interactive: o.input !== false && !env.CI && Boolean(io.stdinIsTTY ?? io.stdin.isTTY) && Boolean(io.stderr.isTTY),
      // As gh: NO_COLOR, CLICOLOR, CLICOLOR_FORCE (and FORCE_COLOR, the same: colour only, never tables on a pipe), DOCSCTL_FORCE_TTY; --no-color above all.
      color: colourOn(env, Boolean(io.stdout.isTTY), o.color !== false),
      ...(timeout !== undefined ? { timeout } : {}),
    };
    const ctx = new Context(globals, io, manifest);
    // Missing arguments are asked for on a terminal; the pickers load only then.
    ctx.pickArg = async (c, name, args) => (await import('./commands/pickers.js')).pickArg(c, name, args);
    onContext(ctx);
    return ctx;
  };

  const load = async (path: string[]) => {
    const entry = entries.find((e) => e.name === path[0]);
    if (!entry) throw new Error(`no command ${path[0]}`);
    return findDef((await entry.load()).default, path.slice(1));
  };
  const wanted = locate(manifest, argv, GLOBAL_VALUE_FLAGS).nodes[0]?.name;
  // -V/--version belongs to docsctl alone: registered on the program, commander would take it from
  // any command's own flags too (`openapi content SLUG --version ID`).
  if (all || wanted === undefined) program.version(VERSION, flagTerm(VERSION_FLAG), VERSION_FLAG.description).options.at(-1)?.helpGroup(HELP_HEADINGS.global);
  for (const node of manifest.entries) {
    if (all || wanted === node.name) {
      attach(program, node, load, makeContext, [], { hidden: Boolean(node.hidden) }).helpGroup(node.section);
    } else {
      const stub = program
        .command(node.name, { hidden: Boolean(node.hidden) })
        .description(node.summary)
        .usage(node.kind === 'group' ? '<command> [flags]' : '[flags]')
        .helpGroup(node.section);
      if (node.aliases) stub.aliases(node.aliases);
    }
  }
  return program;
}
