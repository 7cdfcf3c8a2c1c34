/**
 * `docsctl __complete ids KIND`: ids for shell completion, one `id<TAB>title` line each (zsh and
 * fish show the title beside the id; bash keeps the id), from a 60 s cache or requests that give
 * up after 300 ms, so a TAB never blocks the shell for long. Errors print nothing. `--org` and
 * `--profile` choose where the ids come from, as for any command; change requests are those of the
 * space given with `--space` (the argument typed before), by number, open ones first; operations
 * are the official document's (`docsctl api`), from the table beside docsctl.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand } from '../cli/command.js';
import { tsvField } from '../cli/escape.js';
import type { IdKind } from '../cli/flags.js';
import type { AnyOp } from '../contract/op.js';

const TTL_MS = 60_000;

type Item = Record<string, unknown>;
interface Source {
  /** The list operation, by its path as the contract declares it (GET). */
  path: string;
  /** The id to complete, and the title shown beside it. */
  entry: (item: Item) => [string, string];
  /** One request per status (a change request's), in this order. */
  statuses?: readonly string[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
/** A change request: its number, with its status and subject. */
const crEntry = (i: Item): [string, string] => [i.number !== undefined ? String(i.number) : text(i.id), `${text(i.status)} · ${text(i.subject)}`];
/** Kind → where its ids come from (profiles are read from the config, operations from the table of `api`, instead). */
const SOURCES: Record<Exclude<IdKind, 'profile' | 'operation'>, Source> = {
  space: { path: '/orgs/{organizationId}/spaces', entry: (i) => [text(i.id), `${i.emoji ? `${text(i.emoji)} ` : ''}${text(i.title)}`] },
  collection: { path: '/orgs/{organizationId}/collections', entry: (i) => [text(i.id), text(i.title)] },
  site: { path: '/orgs/{organizationId}/sites', entry: (i) => [text(i.id), text(i.title)] },
  // A number names a change request within its space: those of the space typed (--space), every status.
  cr: { path: '/spaces/{spaceId}/change-requests', entry: crEntry, statuses: ['open', 'draft', 'merged', 'archived'] },
  // What a merge takes (the service merges drafts too).
  'mergeable-cr': { path: '/spaces/{spaceId}/change-requests', entry: crEntry, statuses: ['open', 'draft'] },
  user: {
    path: '/orgs/{organizationId}/members',
    entry: (i) => {
      const u = (i.user ?? {}) as Item;
      return [text(u.id), text(u.displayName)];
    },
  },
  org: { path: '/orgs', entry: (i) => [text(i.id), text(i.title)] },
};
const KINDS = [...Object.keys(SOURCES), 'profile', 'operation'];

/** One completion line: tabs and line breaks in a title would break it, control characters are escaped (the shell shows titles). */
const line = ([id, title]: [string, string]) => (title ? `${tsvField(id)}\t${tsvField(title.replace(/[\t\r\n]+/g, ' '))}` : tsvField(id));

export default defineCommand({
  name: '__complete',
  summary: 'Ids for shell completion (internal)',
  args: [
    { name: 'what', description: 'ids' },
    { name: 'kind', description: KINDS.join(', ') },
  ],
  flags: { space: { description: 'the space whose change requests to list (cr, mergeable-cr)', value: 'space' } },
  examples: ['docsctl __complete ids space', 'docsctl __complete ids space --org org_123', 'docsctl __complete ids cr --space sp_123'],
  noJson: true,
  async run(ctx, { args, flags }) {
    if (args.what !== 'ids' || !KINDS.includes(args.kind)) return;
    try {
      if (args.kind === 'profile') {
        const { readConfig } = await import('../config/profiles.js');
        const profiles = readConfig(ctx.env.DOCSCTL_CONFIG_DIR).profiles ?? {};
        return Object.entries(profiles)
          .map(([name, p]) => line([name, [p.org, p.apiUrl].filter(Boolean).join(' · ')]))
          .join('\n');
      }
      if (args.kind === 'operation') {
        const { loadOperations } = await import('./api-operations.js');
        return (await loadOperations()).operations.map((o) => line([o.id, o.summary])).join('\n');
      }
      const source = SOURCES[args.kind as keyof typeof SOURCES];
      const auth = await ctx.auth();
      const inOrg = source.path.includes('{organizationId}');
      const inSpace = source.path.includes('{spaceId}');
      const space = flags.space?.trim();
      if (!auth.apiUrl || !auth.token || (inOrg && !auth.org) || (inSpace && !space)) return;
      const cacheFile = join(tmpdir(), `docsctl-complete-${process.getuid?.() ?? 'u'}.json`);
      // Another token may see other ids (orgs especially): the key holds a digest of it, never the token.
      const who = createHash('sha256').update(auth.token).digest('hex').slice(0, 12);
      const key = `${auth.apiUrl} ${who} ${inOrg ? auth.org : inSpace ? `space:${space}` : ''} ${args.kind}`;
      let cache: Record<string, { at: number; lines: string[] }> = {};
      try {
        cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
      } catch {
        // no cache yet
      }
      const hit = cache[key];
      if (hit && Array.isArray(hit.lines) && Date.now() - hit.at < TTL_MS) return hit.lines.join('\n');
      const { families } = await import('../contract/index.js');
      const op = Object.values(families)
        .flatMap((f) => Object.values(f) as AnyOp[])
        .find((o) => o.method === 'GET' && o.path === source.path);
      if (!op) return;
      // ~300 ms by default so a TAB never hangs the shell; DOCSCTL_COMPLETE_TIMEOUT_MS changes it.
      const wait = Number(ctx.env.DOCSCTL_COMPLETE_TIMEOUT_MS) > 0 ? Number(ctx.env.DOCSCTL_COMPLETE_TIMEOUT_MS) : 300;
      const api = await ctx.makeApi(auth.apiUrl, auth.token, { timeoutMs: wait, connectTimeoutMs: wait, maxRetries: 0 });
      const params = inOrg ? { organizationId: auth.org } : inSpace ? { spaceId: space } : {};
      // Each status asked at once (the service lists one at a time), shown in the source's order.
      const pages = (await Promise.all(
        (source.statuses ?? [undefined]).map((status) => api.call(op, { params, query: { limit: 200, ...(status ? { status } : {}) } })),
      )) as { items: Item[] }[];
      const lines = pages
        .flatMap((p) => p.items)
        .map(source.entry)
        .filter(([id]) => id)
        .map(line);
      cache[key] = { at: Date.now(), lines };
      writeFileSync(cacheFile, JSON.stringify(cache), { mode: 0o600 });
      return lines.join('\n');
    } catch {
      return; // completion must never print errors into the shell
    }
  },
});
