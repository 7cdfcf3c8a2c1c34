/** The client's typed errors: every non-2xx answer is one ApiError; a failed exchange a NetworkError. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly path: string,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    /** What to do about it, when the client knows better than the status alone. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Whether a body is the service's error shape with a message (`{error: {message}}`), as opposed to a bare 404 of a route it lacks. */
export function hasErrorMessage(body: unknown): boolean {
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' && message !== '';
}

/** A request the client refuses to send: a path parameter outside the contract's rule (nothing was sent). */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export class NetworkError extends Error {
  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'NetworkError';
  }
}

/**
 * An answer larger than docsctl reads (DOCSCTL_MAX_RESPONSE_BYTES): said by its Content-Length, or
 * found while it streams in (the rest is not read). Names the request; the CLI exits 1.
 */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    /** The bound, in bytes. */
    readonly maxBytes: number,
    /** The size the server announced (Content-Length), when it did. */
    readonly announced?: number,
  ) {
    super(
      `${method} ${url}: the answer is larger than ${formatBytes(maxBytes)}, the most docsctl reads of one answer ` +
        (announced !== undefined ? `(its Content-Length says ${announced} bytes): not read` : '(it came without a Content-Length): cut there'),
    );
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * A list that goes on past the pages docsctl reads of one list (DOCSCTL_MAX_PAGES): the server kept
 * sending `next.page`. The items of the pages read were delivered; the CLI exits 1.
 */
export class TooManyPagesError extends Error {
  constructor(
    /** The list, e.g. `GET /v1/orgs/o/spaces`, when known. */
    readonly list: string | undefined,
    readonly maxPages: number,
  ) {
    super(
      `${list ? `${list}: ` : ''}the list goes on past ${maxPages} page${maxPages === 1 ? '' : 's'}, the most docsctl reads of one list (the server still sent a next.page)`,
    );
    this.name = 'TooManyPagesError';
  }
}

/** `67108864` → `64 MiB (67108864 bytes)`; `1500` → `1500 bytes`. */
function formatBytes(n: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) if (n >= size && n % size === 0) return `${n / size} ${unit} (${n} bytes)`;
  return `${n} bytes`;
}

/**
 * A 2xx answer docsctl cannot read: not JSON where the operation answers JSON (a proxy's HTML page,
 * a truncated body), a list whose `items` is not an array, or (found after the fact, see
 * `blameAnswer`) fields of the wrong type. Names the request; the CLI exits 1.
 */
export class MalformedAnswerError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    /** What is wrong, e.g. `not JSON: "<html>…"`, `items is not an array`. */
    readonly problem: string,
  ) {
    super(`${method} ${url}: the server sent a malformed answer (${problem})`);
    this.name = 'MalformedAnswerError';
  }
}

/**
 * A 2xx answer saying that the operation was not done: a publish answered the official document's
 * `{type: "checkout", sessionId}` (the organization's plan needs an upgrade first). The CLI exits 6
 * (cannot be done), whatever the output mode.
 */
export class CheckoutNeededError extends Error {
  constructor(
    readonly siteId: string,
    readonly sessionId: string,
  ) {
    super(`site ${siteId} was not published: the service asks for a checkout first (the organization's plan needs an upgrade; checkout session ${sessionId})`);
    this.name = 'CheckoutNeededError';
  }
}

// ---------------------------------------------------------------------------------------------
// Secrets: whatever a server echoes is masked before the CLI prints it.

/** A token too short to be one would mask ordinary words. */
const MIN_SECRET = 6;

/**
 * `text` with every token hidden: the given `token` and `others` (and their URL-encoded forms)
 * become `****` and their last 4 characters (as `auth status` shows them), and whatever follows
 * `Bearer` becomes `****`.
 */
export function maskSecrets(text: string, token?: string, others: Iterable<string> = []): string {
  if (!text) return text;
  let out = text;
  const all = new Set(others);
  if (token && token.length >= MIN_SECRET) all.add(token);
  // Longest first, so that a token that contains another is hidden whole.
  for (const s of [...all].sort((a, b) => b.length - a.length)) {
    const masked = `****${s.slice(-4)}`;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join(masked);
  }
  // Whatever follows `Bearer` is a credential, whoever's it is.
  return out.replace(/\b(Bearer)(\s+|%20|\+)[^\s"',;)\]}<>&]+/gi, '$1$2****');
}

// ---------------------------------------------------------------------------------------------
// The last answers read, to tell a server's malformed answer from a bug in docsctl.

/** A zod-like schema: only `safeParse` is used (the client does not load zod for this). */
export interface AnswerSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; expected?: string; values?: readonly unknown[] }[] };
  };
}

interface Answer {
  method: string;
  url: string;
  body: unknown;
  schema: AnswerSchema;
}

/** How many answers are kept: those a command is likely still reading when it fails. */
const KEPT_ANSWERS = 4;

/**
 * What one run of docsctl remembers for its error messages: the tokens it uses (masked wherever
 * they show) and the last answers it read (to tell a server's malformed answer from a bug). One
 * per run, never a module's: the CLI's Context makes it and gives it to every client it builds
 * (HttpOptions.run), so two runs in one process (the in-process tests, a program embedding docsctl,
 * at the same time or one after the other) know nothing of each other's.
 */
export class RunMemory {
  private readonly secrets = new Set<string>();
  private readonly answers: Answer[] = [];

  /** Remember a token so that `mask` (and the CLI's error report) hides it wherever it shows. */
  registerSecret(token: string | undefined): void {
    if (token && token.length >= MIN_SECRET) this.secrets.add(token);
  }

  /** `text` with this run's tokens (and `token`, and whatever follows `Bearer`) masked: see maskSecrets. */
  mask(text: string, token?: string): string {
    return maskSecrets(text, token, this.secrets);
  }

  /** Keep an answer of a documented operation (its body as parsed, and the schema it should match). */
  recordAnswer(answer: Answer): void {
    this.answers.push(answer);
    if (this.answers.length > KEPT_ANSWERS) this.answers.shift();
  }

  /**
   * After an unexpected TypeError or RangeError: if one of this run's last answers does not match
   * its operation's documented shape, the server is to blame and this is the error to report
   * (naming the request and the first field that is wrong). Undefined when every answer was as
   * documented: then the error is a bug in docsctl.
   */
  blameAnswer(): MalformedAnswerError | undefined {
    const answers = this.answers;
    for (let i = answers.length - 1; i >= 0; i--) {
      const a = answers[i];
      let result: ReturnType<AnswerSchema['safeParse']>;
      try {
        result = a.schema.safeParse(a.body);
      } catch {
        continue;
      }
      if (result.success) continue;
      const issues = result.error?.issues ?? [];
      const shown = issues.slice(0, 3).map((issue) => describeAnswerIssue(issue, a.body));
      if (issues.length > shown.length) shown.push(`${issues.length - shown.length} more`);
      return new MalformedAnswerError(a.method, a.url, shown.join('; ') || 'not as documented');
    }
    return undefined;
  }
}

/** `items[0].title: a number where a string was expected`, `urls: missing`. */
function describeAnswerIssue(
  issue: { path: readonly PropertyKey[]; message: string; code?: string; expected?: string; values?: readonly unknown[] },
  body: unknown,
): string {
  let where = '';
  let value: unknown = body;
  for (const key of issue.path) {
    where += typeof key === 'number' ? `[${key}]` : `${where ? '.' : ''}${String(key)}`;
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
  let what: string;
  if (value === undefined) what = where ? 'missing' : 'no answer';
  else if (issue.code === 'invalid_type' && issue.expected)
    what = `${got} where ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected} was expected`;
  else if (issue.code === 'invalid_value' && issue.values) {
    const shown = JSON.stringify(value);
    what = `${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown} is not one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  } else what = issue.message;
  return where ? `${where}: ${what}` : what;
}
