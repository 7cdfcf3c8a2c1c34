/**
 * `--jq EXPRESSION`: jq itself (jq 1.8 compiled to WebAssembly, npm `jq-wasm`), loaded only when the
 * flag is given, so start-up does not pay for it. As `gh --jq` does: strings come out raw (without
 * quotes), other values as jq prints them. The expression is compiled before anything is sent: a bad
 * one is a usage error (exit 2) with jq's own message.
 */
import { CliError, EXIT, UsageError } from './errors.js';

export interface JqProgram {
  /** jq's output for one input value (each result on its own line), or a failure naming jq's error. */
  run(input: unknown): string;
}

/** jq's exit status for an expression that does not compile. */
const COMPILE_ERROR = 3;

export async function compileJq(expression: string): Promise<JqProgram> {
  if (expression.trim() === '') throw new UsageError('--jq: needs an expression, e.g. .[].id');
  // The CLI runs as one CommonJS script compiled with V8's code cache, where import() has no loader:
  // jq-wasm (not bundled) comes through require there, through import() when run as ES modules.
  const { loadJq } = typeof require === 'function' ? (require('jq-wasm') as typeof import('jq-wasm')) : await import('jq-wasm');
  const jq = await loadJq();
  // Compiled against `null`: what fails to compile fails whatever the input (jq exits 3 then).
  const check = jq.raw(null, expression, ['-r']);
  if (check.exitCode === COMPILE_ERROR) throw new UsageError(`--jq: ${jqMessage(check.stderr)}`);
  return {
    run(input: unknown): string {
      const r = jq.raw(input === undefined ? null : (input as object), expression, ['-r']);
      if (r.exitCode !== 0 && r.stderr.trim() !== '') throw new CliError(`--jq: ${jqMessage(r.stderr)}`, EXIT.FAILED);
      // Each result on its own line, the last one too (jq-wasm leaves the final newline out).
      return r.stdout === '' || r.stdout.endsWith('\n') ? r.stdout : `${r.stdout}\n`;
    },
  };
}

/** jq's own message, as jq prints it (lines after the first keep their place: the caret points). */
function jqMessage(stderr: string): string {
  return stderr.replace(/\s+$/, '').replace(/^\s+/, '');
}
