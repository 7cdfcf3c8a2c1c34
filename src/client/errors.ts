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
