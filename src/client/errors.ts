/** The client's typed errors: every non-2xx answer is one ApiError; a failed exchange a NetworkError. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly path: string,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
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
