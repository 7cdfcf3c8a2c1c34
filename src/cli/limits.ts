/**
 * The CLI's bounds on what it reads from files and stdin (docs/security.md, "Input files"): a file
 * named by a flag may be `/dev/zero`, a FIFO that never ends or a file that keeps growing. Each can
 * be changed by the setting named beside it (checked in src/cli/context.ts). The organization file's
 * own bound is in src/orgfile/limits.ts.
 */

export const INPUT_LIMITS = {
  /**
   * An input file or stdin (`api --input`, `-F key=@file`, `--body-file`, `--certificate-file`,
   * `--file`, a schema file…), in bytes (DOCSCTL_MAX_INPUT_BYTES): 64 MiB, the bound on an answer
   * (CLIENT_LIMITS.maxResponseBytes), since what is read is sent in one request. The largest input
   * is an OpenAPI specification (GitHub's, among the largest published, is about 12 MB).
   */
  inputBytes: 64 * 1024 * 1024,
  /**
   * `serve --seed FILE`, in bytes (DOCSCTL_MAX_SEED_BYTES): 256 MiB. A seed may be a state exported
   * by GET /_sandbox/state: 10,000 spaces holding 100,000 pages export as 82 MiB, and that seed
   * starts the sandbox in 3.3 s at a peak of 478 MiB of memory (docs/security.md); 256 MiB is three
   * times that organization, within about 1.5 GB of memory.
   */
  seedBytes: 256 * 1024 * 1024,
};

/** The settings that change them. */
export const INPUT_VARIABLES = {
  inputBytes: 'DOCSCTL_MAX_INPUT_BYTES',
  seedBytes: 'DOCSCTL_MAX_SEED_BYTES',
} as const;

/**
 * The largest values the settings accept: what is read becomes one JavaScript string, which ends at
 * 512 MiB (buffer.constants.MAX_STRING_LENGTH); an input is also sent in one request, so half that.
 */
export const INPUT_MAXIMA = {
  inputBytes: 256 * 1024 * 1024,
  seedBytes: 512 * 1024 * 1024 - 24,
};

export interface JqBounds {
  /** Each run of the expression, in seconds. */
  timeoutSeconds: number;
  /** jq's heap, its output and the thread's heap, each, in MiB. */
  maxMemoryMib: number;
}

/**
 * The bounds of `--jq` (Context.jqBounds reads and checks DOCSCTL_JQ_TIMEOUT and DOCSCTL_JQ_MAX_MEMORY):
 * each run of the expression within `timeoutSeconds`, jq's heap, its output and its thread's heap
 * within `maxMemoryMib` each (jq-wasm stops jq's heap at 256 MiB whatever this says; below 32 jq cannot
 * start: its heap starts at 16 MiB).
 */
export const JQ_BOUNDS = { timeoutSeconds: 10, maxMemoryMib: 256, minMemoryMib: 32, maxMemoryMibLimit: 4096 } as const;
