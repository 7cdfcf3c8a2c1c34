/** `--url URL` or `--file PATH` (sent as text), and `--wait`: shared by create and put. */
import type { FlagSpec } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { readFileOrStdin } from '../../cli/input.js';
import { specSlug } from '../../contract/openapi.js';
import { describeIssue } from '../../contract/op.js';

export const sourceFlags = {
  url: { description: 'URL the service fetches the specification from (an absolute URI; the sandbox fetches http and https)', value: 'url' },
  file: { description: 'local JSON or YAML file, sent as the specification’s text', value: 'path' },
  wait: { type: 'boolean', description: 'wait until processing ends; fail (exit 1) if it failed (default on a TTY)' },
  noWait: { type: 'boolean', description: 'answer at once, with processingState pending' },
} as const satisfies Record<string, FlagSpec>;

/** The `source` body field, and the flag it came from (for messages). */
export async function sourceOf(ctx: Context, flags: { url?: string; file?: string }): Promise<{ source: { url?: string; text?: string }; flag: string }> {
  if ((flags.url === undefined) === (flags.file === undefined)) {
    throw new UsageError('needs exactly one of --url or --file', 'docsctl openapi put SLUG --url https://example.com/openapi.yaml, or --file openapi.yaml');
  }
  if (flags.url !== undefined) return { source: { url: flags.url }, flag: '--url' };
  return { source: { text: await readFileOrStdin(ctx, flags.file!, '--file') }, flag: '--file' };
}

/**
 * A slug that is a path parameter (put): checked with the slug rule before sending, as put may
 * create the specification (an existing one has a slug that follows the rule too).
 */
export function checkSlug(slug: string): void {
  const r = specSlug.safeParse(slug);
  if (!r.success) throw new UsageError(`<slug>: ${describeIssue(r.error.issues[0])}`);
}
