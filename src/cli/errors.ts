/** Errors the CLI expects, and the one mapping from any error to an exit code and a hint. */
import {
  ApiError,
  CheckoutNeededError,
  InputError,
  maskSecrets,
  MalformedAnswerError,
  NetworkError,
  ResponseTooLargeError,
  TooManyPagesError,
  type RunMemory,
} from '../client/errors.js';
import { SETTING_MAXIMA } from '../client/limits.js';

export const EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  FORBIDDEN: 5,
  CONFLICT: 6,
  NETWORK: 7,
  RATE_LIMITED: 8,
  CANCELLED: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  the service failed the request (e.g. 400 invalid request, 5xx), answered a redirect (3xx, never
     followed), or an answer past docsctl's bounds (DOCSCTL_MAX_RESPONSE_BYTES, DOCSCTL_MAX_PAGES);
     or --jq failed on the answer (jq's error, or past its bounds: DOCSCTL_JQ_TIMEOUT, DOCSCTL_JQ_MAX_MEMORY)
  2  usage or validation error, caught before anything was sent (a bad flag or file; a destructive
     command without --yes off a terminal, such as orgs apply in CI)
  3  not authenticated (no token, or the service answered 401)
  4  not found (404); serve stop: no sandbox started with --detach runs on that port
  5  forbidden (403): your role does not allow it
  6  conflict (409): the operation would change nothing, or cannot be done
     (also cr merge/update with conflicting pages, sites publish answered by a checkout, orgs apply
     PLAN when the organization changed since the plan was made: nothing applied)
  7  network failure or timeout
  8  rate limited (429) after the retries ran out
130  cancelled at a prompt (Ctrl-C, or no to a confirmation): nothing was changed; or interrupted
     (Ctrl-C) while it ran: what was done stays done (content export and orgs backup resume)

orgs plan exits 0 when it succeeds, whether or not the organization differs from the file, and
with the codes above when it fails. With --detailed-exitcode (terraform plan -detailed-exitcode's
codes), and only then, its codes are answers:
  0  succeeded: nothing to do
  2  succeeded: changes pending (the plan is on stdout)
  1  any failure: a bad file or flag (even a misspelt --detailed-exitcode), the service, the network`;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** An exit code that is an answer, not a failure (`orgs plan --detailed-exitcode`: 2, changes pending): nothing more is printed. */
export class QuietExit extends CliError {
  constructor(exitCode: number) {
    super('', exitCode);
  }
}

/** Bad arguments or flags: exit 2, nothing sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
  }
}

export class AuthError extends CliError {
  constructor(message = 'not authenticated', hint = 'run docsctl auth login (or set DOCSCTL_TOKEN)') {
    super(message, EXIT.AUTH, hint);
  }
}

export interface Failure {
  exitCode: number;
  status?: number;
  message: string;
  hint?: string;
  /** True for errors nobody planned for: a bug; `--verbose` shows the stack. */
  unexpected?: boolean;
}

/** What to do about an answer docsctl cannot read. */
const MALFORMED_HINT =
  'the service (or a proxy in front of it) answered something docsctl cannot read: check the API URL (docsctl auth status), or run with --verbose';

/**
 * The exit code, message and hint of any error in the run that `run` remembers (Context.run).
 * Messages and hints never show a token: whatever a server echoed (an Authorization header, the
 * run's token itself) is masked here, for every command.
 */
export function describeFailure(err: unknown, run?: RunMemory): Failure {
  const f = describe(err, run);
  const mask = (text: string) => (run ? run.mask(text) : maskSecrets(text));
  return { ...f, message: mask(f.message), ...(f.hint !== undefined ? { hint: mask(f.hint) } : {}) };
}

function describe(err: unknown, run: RunMemory | undefined): Failure {
  if (err instanceof CliError) return { exitCode: err.exitCode, message: err.message, hint: err.hint };
  if (err instanceof ApiError) {
    const exitCode =
      err.status === 401
        ? EXIT.AUTH
        : err.status === 403
          ? EXIT.FORBIDDEN
          : err.status === 404
            ? EXIT.NOT_FOUND
            : err.status === 409
              ? EXIT.CONFLICT
              : err.status === 429
                ? EXIT.RATE_LIMITED
                : EXIT.FAILED;
    const hint =
      err.hint ??
      (err.status === 401
        ? 'run docsctl auth login, or check DOCSCTL_TOKEN'
        : err.status === 403
          ? 'ask an organization admin for a higher role'
          : err.status === 429
            ? 'wait a little and try again'
            : err.status >= 500
              ? 'the service failed; try again, or run with --verbose for details'
              : undefined);
    return { exitCode, status: err.status, message: err.message, hint };
  }
  // By name, so that the config store (and conf) need not load to recognise its errors.
  if ((err as Error)?.name === 'ConfigError') {
    return {
      exitCode: EXIT.USAGE,
      message: (err as Error).message,
      hint: (err as { hint?: string }).hint ?? 'fix or remove the file, then run docsctl auth login',
    };
  }
  if (err instanceof ResponseTooLargeError) {
    return {
      exitCode: EXIT.FAILED,
      message: err.message,
      hint: `if the answer is meant to be that large, raise the bound: DOCSCTL_MAX_RESPONSE_BYTES=${Math.min(err.maxBytes * 4, SETTING_MAXIMA.maxResponseBytes)} (bytes); else check the API URL (docsctl auth status)`,
    };
  }
  if (err instanceof TooManyPagesError) {
    return {
      exitCode: EXIT.FAILED,
      message: err.message,
      hint: `if the list is really that long, raise the bound: DOCSCTL_MAX_PAGES=${Math.min(err.maxPages * 10, SETTING_MAXIMA.maxPages)} (or read less of it: --limit N); else the server keeps sending next.page`,
    };
  }
  if (err instanceof CheckoutNeededError) {
    return {
      exitCode: EXIT.CONFLICT,
      message: err.message,
      hint: 'upgrade the organization’s plan (complete the checkout in the service’s app), then publish again',
    };
  }
  if (err instanceof MalformedAnswerError || (err as Error)?.name === 'PageShapeError') {
    return { exitCode: EXIT.FAILED, message: (err as Error).message, hint: MALFORMED_HINT };
  }
  // @inquirer/prompts: the user pressed Ctrl-C at a prompt.
  if ((err as Error)?.name === 'ExitPromptError') return { exitCode: EXIT.CANCELLED, message: 'cancelled: nothing was changed' };
  if (err instanceof InputError) return { exitCode: EXIT.USAGE, message: err.message };
  if (err instanceof NetworkError) {
    return { exitCode: EXIT.NETWORK, message: err.message, hint: 'check the API URL (docsctl auth status) and your connection' };
  }
  // A TypeError (or RangeError) while reading an answer that is not as documented (a field missing
  // or of another type) is the server's doing; with every answer as documented, it is a bug.
  if (err instanceof TypeError || err instanceof RangeError) {
    const blamed = run?.blameAnswer();
    if (blamed) return { exitCode: EXIT.FAILED, message: blamed.message, hint: `${MALFORMED_HINT} (docsctl stopped at: ${err.message})` };
  }
  return { exitCode: EXIT.FAILED, message: (err as Error)?.message ?? String(err), unexpected: true };
}
