/**
 * `docsctl __complete ids KIND`: ids for shell completion, from a 60 s cache or a request that gives
 * up after 300 ms, so a TAB never blocks the shell for long. Errors print nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand } from '../cli/command.js';
import type { AnyOp } from '../contract/op.js';

const TTL_MS = 60_000;
/** Kind → the organization-level list operation (by method and path, as the contract declares it). */
const LISTS: Record<string, string> = {
  space: '/orgs/{organizationId}/spaces',
  collection: '/orgs/{organizationId}/collections',
  site: '/orgs/{organizationId}/sites',
  cr: '/orgs/{organizationId}/change-requests',
};

export default defineCommand({
  name: '__complete',
  summary: 'Ids for shell completion (internal)',
  args: [{ name: 'what', description: 'ids' }, { name: 'kind', description: Object.keys(LISTS).join(', ') }],
  examples: ['docsctl __complete ids space'],
  noJson: true,
  async run(ctx, { args }) {
    const path = LISTS[args.kind];
    if (args.what !== 'ids' || !path) return;
    try {
      const auth = await ctx.auth();
      if (!auth.apiUrl || !auth.token || !auth.org) return;
      const cacheFile = join(tmpdir(), `docsctl-complete-${process.getuid?.() ?? 'u'}.json`);
      const key = `${auth.apiUrl} ${auth.org} ${args.kind}`;
      let cache: Record<string, { at: number; ids: string[] }> = {};
      try {
        cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
      } catch {
        // no cache yet
      }
      const hit = cache[key];
      if (hit && Date.now() - hit.at < TTL_MS) return hit.ids.join('\n');
      const { families } = await import('../contract/index.js');
      const op = Object.values(families).flatMap((f) => Object.values(f) as AnyOp[]).find((o) => o.method === 'GET' && o.path === path);
      if (!op) return;
      // ~300 ms by default so a TAB never hangs the shell; DOCSCTL_COMPLETE_TIMEOUT_MS changes it.
      const wait = Number(ctx.env.DOCSCTL_COMPLETE_TIMEOUT_MS) > 0 ? Number(ctx.env.DOCSCTL_COMPLETE_TIMEOUT_MS) : 300;
      const api = await ctx.makeApi(auth.apiUrl, auth.token, { timeoutMs: wait, connectTimeoutMs: wait, maxRetries: 0 });
      const page = (await api.call(op, { params: { organizationId: auth.org }, query: { limit: 200 } })) as { items: { id: string; number?: number }[] };
      const ids = page.items.map((i) => (args.kind === 'cr' && i.number !== undefined ? String(i.number) : i.id));
      cache[key] = { at: Date.now(), ids };
      writeFileSync(cacheFile, JSON.stringify(cache), { mode: 0o600 });
      return ids.join('\n');
    } catch {
      return; // completion must never print errors into the shell
    }
  },
});
