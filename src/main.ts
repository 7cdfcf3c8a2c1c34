/**
 * docsctl's entry: wires the command tree to the toolkit and maps every error to its exit code,
 * in one place. Heavy modules load when a command needs them.
 */
import { Command, CommanderError } from 'commander';
import { Context, forcedTty, StdoutClosed, type Globals, type Io } from './cli/context.js';
import { describeFailure, EXIT, EXIT_CODES_HELP } from './cli/errors.js';
import { findDef, type Manifest } from './cli/manifest.js';
import { attach } from './cli/program.js';
import { entries } from './commands/index.js';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

/** Global options that take a value (to find the command name in argv without parsing). */
const VALUE_GLOBALS = new Set(['--profile', '--org', '--timeout']);

export async function main(argv: string[], io: Io, manifest: Manifest): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  if (argv[0] === 'help' && argv[1] === 'exit-codes') {
    io.stdout.write(EXIT_CODES_HELP + '\n');
    return EXIT.OK;
  }
  const json = argv.includes('--json');
  let ctx: Context | undefined;
  const program = buildProgram(manifest, argv, io, (c) => (ctx = c));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    // The reader of stdout went away (`| head`): nothing is wrong, and nobody reads more.
    if (err instanceof StdoutClosed || io.stdoutClosed?.()) return EXIT.OK;
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.OK;
      if (err.code === 'commander.executeSubCommandAsync') return EXIT.OK;
      return report(io, { exitCode: EXIT.USAGE, message: err.message.replace(/^error: /, ''), hint: 'see docsctl --help' }, json, false);
    }
    return report(io, describeFailure(err), json, Boolean(ctx?.globals.verbose), err);
  } finally {
    await ctx?.close();
  }
}

function report(io: Io, f: ReturnType<typeof describeFailure>, json: boolean, verbose: boolean, err?: unknown): number {
  if (json) {
    io.stderr.write(JSON.stringify({ error: { status: f.status ?? null, message: f.message, hint: f.hint ?? null, exitCode: f.exitCode } }) + '\n');
  } else {
    io.stderr.write(`error: ${f.message}\n${f.hint ? `hint: ${f.hint}\n` : ''}`);
  }
  if (f.unexpected) {
    if (verbose && err instanceof Error && err.stack) io.stderr.write(err.stack + '\n');
    else if (!json) io.stderr.write('(this looks like a bug in docsctl; run with --verbose to see where)\n');
  }
  return f.exitCode;
}

/** The first argument that is not an option: the command group to load. */
function commandName(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return argv[i + 1];
    if (VALUE_GLOBALS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/** The commander program for `argv`: only the tree named on the command line is built in full. */
export function buildProgram(manifest: Manifest, argv: string[], io: Io, onContext: (c: Context) => void = () => {}, all = false): Command {
  const program = new Command('docsctl')
    .description('Administer an organization on the documentation-hosting service; `docsctl serve --memory` runs a sandbox of it.')
    .option('--profile <name>', 'use this saved profile (or DOCSCTL_PROFILE)')
    .option('--org <id>', 'act on this organization (or DOCSCTL_ORG)')
    .option('--timeout <seconds>', 'whole-request timeout (or DOCSCTL_TIMEOUT; default 30)')
    .option('--verbose', 'trace every request on stderr (or DOCSCTL_DEBUG=1)')
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('--no-color', 'no colour (or NO_COLOR)')
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
    .showSuggestionAfterError(true)
    .addHelpText('after', '\nRun `docsctl help exit-codes` for the exit codes, `docsctl <command> --help` for a command.');

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
      color: o.color !== false && !('NO_COLOR' in env) && (Boolean(io.stdout.isTTY) || forcedTty(env)),
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
  const wanted = commandName(argv);
  // -V/--version belongs to docsctl alone: registered on the program, commander would take it from
  // any command's own flags too (`openapi content SLUG --version ID`).
  if (all || wanted === undefined) program.version(VERSION, '-V, --version');
  for (const node of manifest.entries) {
    if (all || wanted === node.name || node.aliases?.includes(wanted ?? '')) {
      attach(program, node, load, makeContext, [], { hidden: Boolean(node.hidden) }).helpGroup(node.section);
    } else {
      const stub = program.command(node.name, { hidden: Boolean(node.hidden) }).description(node.summary).helpGroup(node.section);
      if (node.aliases) stub.aliases(node.aliases);
    }
  }
  return program;
}
