/**
 * A download's memory, flat whatever its size.
 *
 * Each chunk of a streamed download is a new buffer (Node reads the socket into a fresh one), written
 * to its sink and then dead. But V8 frees a buffer's bytes only when it collects the small object
 * that holds them, and a download allocates almost nothing else on the JavaScript heap: no
 * collection comes until the dead chunks' bytes reach V8's external-memory threshold. A download
 * of 20 MB or 200 MB then peaks ~30 MiB above one of 2 MB (docs/performance.md, the export bench),
 * all of it chunks already on disk.
 *
 * So the HTTP layer reports each chunk it has given to a sink, and past every
 * `CLIENT_LIMITS.releaseEveryBytes` of them asks V8 for a minor collection (a scavenge: the young
 * generation only, where those chunk objects are; ~0.2 ms each, ~40 ms for 200 MB). V8 exposes that
 * call only under `--expose-gc`; the flag is set for the moment it takes to get the function and
 * unset again, so no later context (the jq thread's, say) sees a `gc` global. Where the function
 * cannot be had, nothing happens: memory is then what V8 makes it, as before.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CLIENT_LIMITS } from './limits.js';

type Collect = (options?: { type?: 'minor' | 'major' }) => void;

let collect: Collect | null | undefined;
let since = 0;

function collector(): Collect | null {
  try {
    setFlagsFromString('--expose-gc');
    try {
      const gc: unknown = runInNewContext('gc');
      return typeof gc === 'function' ? (gc as Collect) : null;
    } finally {
      // Unless node was started with it, no other context gets `gc`.
      if (!process.execArgv.includes('--expose-gc')) setFlagsFromString('--no-expose-gc');
    }
  } catch {
    return null;
  }
}

/** Report `bytes` of a download given to its sink; past every threshold, collect the dead chunks. */
export function released(bytes: number, every: number = CLIENT_LIMITS.releaseEveryBytes): void {
  since += bytes;
  if (since < every) return;
  since = 0;
  if (collect === undefined) collect = collector();
  collect?.({ type: 'minor' });
}
