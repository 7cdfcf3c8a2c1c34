import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import type { Context } from '../cli/context.js';
import { defineCommand } from '../cli/command.js';
import { CliError, EXIT, UsageError } from '../cli/errors.js';
import { plural } from '../cli/text.js';

const serve = defineCommand({
  name: 'serve',
  summary: 'Run the sandbox: a stateful, in-memory server of the whole API',
  description:
    'Prints the URL, the admin token, the organization, its pid and an export line to paste; Ctrl-C stops it. ' +
    'With --detach it runs in the background: the command returns once the sandbox listens, having printed the same, and `docsctl serve stop --port P` stops it ' +
    '(exit 4 when no sandbox started with --detach runs on that port). Its output goes to a log, sandboxes/<port>.log in the config folder unless --log says where.',
  args: [
    {
      name: 'action',
      description: 'stop: stop the sandbox that serve --detach started on --port (default 4700), and wait until its process has ended',
      optional: true,
      choices: ['stop'],
    },
  ],
  flags: {
    memory: { type: 'boolean', description: 'keep the state in memory (the default)' },
    data: {
      description:
        'keep the state in this SQLite database (made when missing; a JSON state file is imported once): each write is committed before it is acknowledged. Needs the optional package better-sqlite3',
      value: 'file',
    },
    port: { type: 'number', description: 'port to listen on (default 4700; 0 picks a free one)', value: 'n' },
    host: { description: 'address to listen on (default 127.0.0.1)', value: 'addr' },
    token: { description: 'the admin user’s token (default: random; with --data, replaces the saved one)', value: 'token' },
    seed: {
      type: 'list',
      description:
        "start from this: a JSON fixture, a state exported by GET /_sandbox/state, or an organization file (docsctl orgs export), applied to the default organization; repeatable, and a folder of organization files, as orgs plan -f takes them (one organization); or a folder of content: a backup (docsctl orgs backup: its organization file, then each space folder's pages and files) or one space in Git Sync's layout",
      value: 'file|dir',
    },
    json: { type: 'boolean', description: 'print one JSON line {url, token, organizationId, users, pid} (with --detach, also log)' },
    chaos: {
      type: 'number',
      description: 'answer this share (0..1) of /v1 requests with a random fault: 429, 500, 503, a delay or a dropped connection',
      value: 'rate',
    },
    chaosSeed: { type: 'number', description: 'seed of the chaos (same seed, same faults; default 1)', value: 'n' },
    allowFetch: {
      description:
        'hosts that content import and OpenAPI sources may fetch from, besides loopback: comma-separated names, *.domain patterns, addresses, or * for any. A name (or *) lets the sandbox ask for that host, but never connect to a private, link-local or metadata address it resolves to: only that address, listed here, allows it',
      value: 'hosts',
    },
    detach: {
      type: 'boolean',
      description:
        'run in the background: return once it listens (DOCSCTL_SERVE_START_TIMEOUT seconds at most, default 60), printing the same lines; stop it with docsctl serve stop --port P',
    },
    log: { description: 'with --detach: append its output to this file (default: sandboxes/<port>.log in the config folder)', value: 'file' },
  },
  examples: [
    'docsctl serve --memory',
    'docsctl serve --memory --detach --port 4700 --token ci-token-123',
    'docsctl serve stop --port 4700',
    'docsctl serve --data sandbox.db',
    'docsctl serve --memory --allow-fetch docs.example.com,*.githubusercontent.com',
    'docsctl serve --memory --port 0 --json',
    'docsctl serve --memory --seed fixtures.json --token dev-token',
    'docsctl serve --memory --seed org.yaml',
  ],
  noJson: true,
  async run(ctx, { args, flags }): Promise<void> {
    const port = flags.port ?? 4700;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port: must be a whole number from 0 to 65535');
    if (args.action !== undefined) return stop(ctx, args.action, flags as Record<string, unknown>, port);
    if (flags.log !== undefined && !flags.detach) throw new UsageError('--log: only with --detach (in the foreground the output is on the terminal)');
    if (flags.chaos !== undefined && !(flags.chaos >= 0 && flags.chaos <= 1)) throw new UsageError('--chaos: must be a number from 0 to 1');
    if (flags.chaosSeed !== undefined && !Number.isInteger(flags.chaosSeed)) throw new UsageError('--chaos-seed: must be a whole number');
    if (flags.token !== undefined && !/^\S{8,}$/.test(flags.token)) throw new UsageError('--token: must be at least 8 characters without spaces');
    const { startServer } = await import('../server/serve.js');
    const { SeedError } = await import('../server/seed.js');
    const { StateFileError, TokenError } = await import('../server/serve.js');
    const { HOST_PATTERN } = await import('../server/lib/fetch.js');
    const allowFetch = flags.allowFetch
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const badHost = allowFetch?.find((h) => !HOST_PATTERN.test(h));
    if (allowFetch && (badHost !== undefined || allowFetch.length === 0)) {
      throw new UsageError(`--allow-fetch: ${badHost === undefined ? 'needs at least one host' : `"${badHost}" is not a host name, *.domain pattern or *`}`);
    }
    // The deadline of one outbound fetch, in ms (tests shorten it; a slow network may need more).
    const fetchTimeout = Number(ctx.env.DOCSCTL_SANDBOX_FETCH_TIMEOUT_MS);
    const fetchTimeoutMs = Number.isInteger(fetchTimeout) && fetchTimeout > 0 ? fetchTimeout : undefined;
    let seed;
    /** An organization file (docsctl orgs export) given to --seed: applied once the sandbox listens. */
    let orgFile: import('../orgfile/model.js').Desired | undefined;
    /** A state exported by GET /_sandbox/state (the portable format) given to --seed. */
    let state: string | undefined;
    const seeds = [...(flags.seed ?? [])];
    /** A folder of content given to --seed (a backup, or a space in Git Sync's layout): seeded by the server once it listens. */
    let seedFolder: { dir: string; orgFile?: string } | undefined;
    /** The one file given to --seed, as read (for the line:column of a fixture's bad entry). */
    let seedText: { file: string; text: string } | undefined;
    const { isFolder } = await import('../orgfile/files.js');
    const folders = seeds.filter((s) => isFolder(s));
    if (folders.length) {
      const { seedFolderKind } = await import('../server/content/git-sync.js');
      const content = folders.flatMap((dir) => {
        const kind = seedFolderKind(dir);
        return kind ? [{ dir, kind }] : [];
      });
      for (const dir of folders) {
        if (content.some((c) => c.dir === dir) || readdirSync(dir).some((n) => /\.(ya?ml|json)$/i.test(n) && !n.startsWith('.'))) continue;
        throw new UsageError(
          `--seed: ${dir} is a folder, but neither a backup (manifest.json) nor a space in Git Sync's layout (.gitbook.yaml), nor a folder of organization files`,
        );
      }
      if (content.length > 1)
        throw new UsageError(`--seed: one folder of content at a time (a backup or a space), not ${content.map((c) => c.dir).join(' and ')}`);
      if (content[0]) {
        const { dir, kind } = content[0];
        await checkGitbookYaml(dir, kind);
        seedFolder = { dir, ...(kind === 'backup' ? { orgFile: orgFileIn(dir) } : {}) };
        seeds.splice(seeds.indexOf(dir), 1);
        if (seedFolder.orgFile) seeds.push(seedFolder.orgFile);
      }
    }
    if (seedFolder && !seeds.length) seed = { ...(await import('../server/seed.js')).defaultSeed(flags.token), collections: [], spaces: [] };
    if (seeds.length) {
      const { isOrgFile, loadOrgFiles, parseOrgFile, OrgFileError } = await import('../orgfile/source.js');
      const { orgFileMaxBytes } = await import('./orgs/orgfile.js');
      const maxBytes = await orgFileMaxBytes(ctx.env);
      const orgFileOf = (load: () => import('../orgfile/model.js').Desired) => {
        try {
          return load();
        } catch (e) {
          if (e instanceof OrgFileError) throw new UsageError(`--seed: ${e.message}`);
          throw e;
        }
      };
      if (seeds.length > 1 || isFolder(seeds[0])) {
        // Several organization files, or a folder of them: one organization, read as orgs plan -f reads them.
        orgFile = orgFileOf(() => loadOrgFiles(seeds, { env: ctx.env, maxBytes }));
      } else {
        // Bounded (DOCSCTL_MAX_SEED_BYTES): /dev/zero, a FIFO or a growing file stop there.
        const text = (await import('../cli/input.js')).readFileText(ctx, seeds[0], '--seed', 'seedBytes');
        seedText = { file: seeds[0], text };
        const asOrgFile = () => orgFileOf(() => parseOrgFile(text, seeds[0], { env: ctx.env, baseDir: dirname(resolve(seeds[0])), maxBytes }));
        if (isExportedState(text)) {
          state = text;
        } else if (isOrgFile(text, maxBytes)) {
          orgFile = asOrgFile();
        } else {
          try {
            seed = JSON.parse(text);
          } catch (e) {
            // A fixture or an exported state (JSON) that does not parse: where JSON stops reading it.
            if (/^\s*[{[]/.test(text) && /"(organizations|clockOffset)"\s*:/.test(text)) {
              throw new UsageError(
                `--seed: ${seeds[0]}:${jsonErrorAt(text, e as Error)}: malformed JSON: ${(e as Error).message.replace(/ in JSON at position \d+.*$/s, '')}`,
              );
            }
            // Anything else is an organization file (YAML) gone wrong: read as orgs validate reads it.
            orgFile = asOrgFile();
          }
        }
      }
      // The default organization and users, without their content: the files' is applied to it.
      if (orgFile) seed = { ...(await import('../server/seed.js')).defaultSeed(flags.token), collections: [], spaces: [] };
    }
    if (flags.detach) {
      const { startDetached } = await import('./serve-detach.js');
      return startDetached(ctx, flags as Record<string, unknown>, serve.flags!);
    }
    // The child of `serve --detach` (see serve-detach.ts): stoppable by its control token.
    const detached = (await import('./serve-detach.js')).detachedChild(ctx.env);
    let askedToStop = () => {};
    const asked = new Promise<void>((resolve) => (askedToStop = resolve));
    /** The users' keys in the organization files (the banner's). */
    let keys = new Map<string, { role: string | null; key?: string }>();
    let server;
    try {
      if (orgFile || seedFolder) {
        // Seeding takes a while: a port already in use is said before it, not after.
        if (port !== 0) await portFree(port, flags.host ?? '127.0.0.1');
        // Seeded once, in a sandbox of its own (no chaos, no database): the state it makes is where
        // this one starts, and what POST /_sandbox/reset goes back to, with the same ids.
        const seeded = await seededState(ctx, { seed, orgFile, seedFolder, token: flags.token, allowFetch, fetchTimeoutMs });
        seed = undefined;
        state = seeded.state;
        keys = seeded.keys;
      }
      server = await startServer({
        ...(detached ? { control: { token: detached.token, onStop: () => askedToStop() } } : {}),
        port,
        host: flags.host ?? '127.0.0.1',
        ...(flags.token ? { token: flags.token } : {}),
        ...(seed ? { seed } : {}),
        ...(state !== undefined ? { state } : {}),
        ...(flags.data ? { data: flags.data } : {}),
        ...(flags.chaos ? { chaos: { rate: flags.chaos, seed: flags.chaosSeed ?? 1 } } : {}),
        ...(allowFetch ? { allowFetch } : {}),
        ...(fetchTimeoutMs !== undefined ? { fetchTimeoutMs } : {}),
      });
    } catch (e) {
      if (e instanceof SeedError) {
        if (!seedText) throw new UsageError(`--seed: ${e.message}`);
        // The file, and the line:column of the fixture's entry when it is known.
        const at = await fixtureAt(seedText.text, e.path);
        throw new UsageError(`--seed: ${seedText.file}${at ? `:${at}` : ''}: ${e.message.replace(/^seed: /, '')}`);
      }
      if (e instanceof StateFileError) throw new UsageError(`--data: ${e.message}`, e.hint);
      if (e instanceof TokenError) throw new UsageError(`--token: ${e.message}`);
      if (flags.data) {
        const { SqliteUnavailableError, SQLITE_HINT } = await import('../server/persist/sqlite.js');
        if (e instanceof SqliteUnavailableError) throw new CliError(`--data: ${e.message}`, EXIT.FAILED, SQLITE_HINT);
      }
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`--port: ${port} is already in use`, 'pick another with --port, or --port 0 for any free one');
      throw e;
    }
    /** The sandbox's users, and their keys in the organization files. */
    const users: { id: string; role: string | null; token: string; key?: string }[] = server.users.map((u) => {
      const key = keys.get(u.id)?.key;
      return key !== undefined ? { ...u, key } : u;
    });
    // Listen for the stop signals before announcing anything, so an early Ctrl-C is handled too.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
      void asked.then(resolve);
    });
    detached?.register(server.url);
    const stopLine = `docsctl serve stop --port ${new URL(server.url).port}`;
    const info = {
      url: server.url,
      token: server.token,
      organizationId: server.organizationId,
      users,
      pid: process.pid,
      ...(detached ? { log: detached.log } : {}),
    };
    let output: string;
    if (flags.json) {
      output = JSON.stringify(info) + '\n';
    } else {
      const lines = [
        `docsctl sandbox listening on ${server.url}`,
        `admin token:   ${server.token}`,
        `organization:  ${server.organizationId}`,
        `pid:           ${process.pid}`,
        ...(detached ? [`log:           ${detached.log}`, `stop it with:  ${stopLine}`] : []),
        '',
        `members of the organization${orgFile ? `, roles as ${orgFile.source} left them` : ''} (role: token):`,
        ...users.map((u) => `  ${String(u.role ?? 'guest').padEnd(9)} ${u.id.padEnd(12)} ${u.token}${u.key !== undefined ? `  (${u.key} in the files)` : ''}`),
        '',
        'to use it from another shell:',
        `export DOCSCTL_API_URL=${server.url} DOCSCTL_TOKEN=${server.token} DOCSCTL_ORG=${server.organizationId}`,
        '',
      ];
      output = lines.join('\n');
    }
    ctx.out(output);
    await detached?.ready(output);
    await stopped;
    await server.close();
    detached?.done();
    if (!flags.json || detached) ctx.info('sandbox stopped');
  },
});
export default serve;

/** `serve stop [--port P]`: it takes no other flag. */
async function stop(ctx: Context, action: string, flags: Record<string, unknown>, port: number) {
  if (action !== 'stop') throw new UsageError(`unknown action '${action}' for 'docsctl serve'`, 'the one action is stop: docsctl serve stop --port P');
  const other = Object.keys(flags).find((k) => k !== 'port' && flags[k] !== undefined);
  if (other) throw new UsageError(`--${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: not taken by serve stop (it takes --port)`);
  if (port === 0) throw new UsageError('--port: give the port the sandbox listens on (serve --detach printed it)');
  const { stopDetached } = await import('./serve-detach.js');
  await stopDetached(ctx, port);
}

/**
 * An organization file given to --seed: applied to the sandbox through the client, by the same plan
 * and apply as `docsctl orgs apply` (no second implementation of sites, sections and their rules in
 * the seed; the sandbox imports no CLI code). Nothing is pruned: the sandbox's users stay members.
 */
async function seedFromFile(
  ctx: Context,
  server: { url: string; token: string; organizationId: string },
  desired: import('../orgfile/model.js').Desired,
): Promise<Map<string, { role: string | null; key?: string }>> {
  const { reader, planFile, applyFile } = await import('../orgfile/workflow.js');
  const { OrgFileError } = await import('../orgfile/source.js');
  const api = await ctx.makeApi(server.url, server.token);
  try {
    const r = reader(api);
    let plan;
    try {
      plan = await planFile(r, server.organizationId, desired, false);
    } catch (e) {
      if (e instanceof OrgFileError) throw new UsageError(`--seed: ${e.message}`);
      throw e;
    }
    const result = await applyFile(r, plan, () => {});
    if (result.error !== undefined) {
      const { describeFailure } = await import('../cli/errors.js');
      throw new UsageError(
        `--seed: applying ${desired.source} to the sandbox failed: ${describeFailure(result.error, ctx.run).message}`,
        'an OpenAPI specification is fetched from its url: allow its host with --allow-fetch, or leave openapi: out of the file',
      );
    }
    ctx.debug(`--seed: ${plural(result.applied.length, 'change')} applied from ${desired.source}`);
    // Who is who now: each member's role after the files, and its key in them (the banner's).
    const { ops: memberOps } = await import('../contract/members.js');
    const keyOf = new Map(desired.members.map((m) => [m.id, m.key]));
    const members = await r.all(memberOps.listMembers, { params: { organizationId: server.organizationId } });
    return new Map(members.map((m) => [m.user.id, { role: m.role ?? null, ...(keyOf.has(m.user.id) ? { key: keyOf.get(m.user.id)! } : {}) }]));
  } finally {
    await api.close();
  }
}

/** Whether the port can be listened on (a server listening there, closed at once); throws listen's error (EADDRINUSE) if not. */
async function portFree(port: number, host: string): Promise<void> {
  const probe = createNetServer();
  await new Promise<void>((done, fail) => {
    probe.once('error', fail);
    probe.listen(port, host, () => done());
  });
  await new Promise<void>((done) => probe.close(() => done()));
}

/**
 * An organization file and/or a folder of content given to --seed, applied to a sandbox of its own
 * (in memory, on loopback, without chaos): the state it leaves, exported, is where `serve` starts and
 * what `POST /_sandbox/reset` goes back to; with the users' keys in the files. A bad seed is a UsageError.
 */
async function seededState(
  ctx: Context,
  opts: {
    seed: import('../server/seed.js').SeedData | undefined;
    orgFile: import('../orgfile/model.js').Desired | undefined;
    seedFolder: { dir: string; orgFile?: string } | undefined;
    token: string | undefined;
    allowFetch: string[] | undefined;
    fetchTimeoutMs: number | undefined;
  },
): Promise<{ state: string; keys: Map<string, { role: string | null; key?: string }> }> {
  const { startServer } = await import('../server/serve.js');
  const { SeedError } = await import('../server/seed.js');
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.seed ? { seed: opts.seed } : {}),
    ...(opts.allowFetch ? { allowFetch: opts.allowFetch } : {}),
    ...(opts.fetchTimeoutMs !== undefined ? { fetchTimeoutMs: opts.fetchTimeoutMs } : {}),
  });
  try {
    const keys = opts.orgFile ? await seedFromFile(ctx, server, opts.orgFile) : new Map<string, { role: string | null; key?: string }>();
    const folder = opts.seedFolder;
    if (folder) {
      const { seedContentFromFolder } = await import('../server/content/git-sync.js');
      const titles = new Map((opts.orgFile?.spaces ?? []).map((s) => [s.key, s.title]));
      try {
        const seeded = seedContentFromFolder(server.store, folder.dir, { org: server.organizationId, titles, title: basename(resolve(folder.dir)) });
        for (const s of seeded) ctx.debug(`--seed: ${s.folder}: ${plural(s.pages, 'page')} and ${plural(s.files, 'file')} into space ${s.space}`);
      } catch (e) {
        if (e instanceof SeedError) throw new UsageError(`--seed: ${inFolder(folder.dir, e.message)}`);
        throw e;
      }
    }
    return { state: server.store.exportState(), keys };
  } finally {
    await server.close();
  }
}

/** A seed folder's message about one of its files (`SUMMARY.md:4: …`) names it by its path from here. */
function inFolder(dir: string, message: string): string {
  const m = /^([^:\s]+)(:.*)$/s.exec(message);
  if (m && existsSync(join(dir, m[1]))) return `${join(dir, m[1])}${m[2]}`;
  return message.startsWith(dir) ? message : `${dir}: ${message}`;
}

/**
 * Each `.gitbook.yaml` of a seed folder (its root's for a space, each space folder's in a backup),
 * checked before anything is seeded: YAML that parses, a mapping whose `root` and
 * `structure.readme` / `structure.summary` are strings. A UsageError naming file:line:column and the rule.
 */
async function checkGitbookYaml(dir: string, kind: 'backup' | 'space'): Promise<void> {
  const { isMap, isScalar, LineCounter, parseDocument } = await import('yaml');
  const { LIMITS } = await import('../server/limits.js');
  const files =
    kind === 'space'
      ? [join(dir, '.gitbook.yaml')]
      : readdirSync(dir, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => join(dir, d.name, '.gitbook.yaml'));
  for (const file of files) {
    let stat;
    try {
      stat = lstatSync(file);
    } catch {
      continue; // none: the defaults
    }
    // Symbolic links and sizes are refused by the seeding itself (LIMITS.seed), naming the file.
    if (!stat.isFile() || stat.size > LIMITS.seed.maxFileBytes) continue;
    const text = readFileSync(file, 'utf8');
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
    const at = (offset: number) => {
      const { line, col } = lines.linePos(offset);
      return `${file}:${line}:${col}`;
    };
    const error = doc.errors[0];
    if (error) throw new UsageError(`--seed: ${at(error.pos[0])}: not YAML: ${error.message.split('\n')[0]}`);
    const top = doc.contents;
    if (top === null || (isScalar(top) && top.value === null)) continue;
    if (!isMap(top)) throw new UsageError(`--seed: ${at(top.range?.[0] ?? 0)}: must be a mapping (root:, structure:)`);
    const stringAt = (path: string[], name: string) => {
      const node = doc.getIn(path, true) as import('yaml').Node | undefined;
      if (node !== undefined && !(isScalar(node) && typeof node.value === 'string'))
        throw new UsageError(`--seed: ${at(node.range?.[0] ?? 0)}: ${name}: must be a path (text)`);
    };
    stringAt(['root'], 'root');
    const structure = doc.get('structure', true) as import('yaml').Node | undefined;
    if (structure !== undefined && !isMap(structure))
      throw new UsageError(`--seed: ${at(structure.range?.[0] ?? 0)}: structure: must be a mapping (readme:, summary:)`);
    stringAt(['structure', 'readme'], 'structure.readme');
    stringAt(['structure', 'summary'], 'structure.summary');
  }
}

/** `line:column` of where JSON.parse stopped reading `text` (its message's position; the end when it has none). */
function jsonErrorAt(text: string, e: Error): string {
  const pos = /at position (\d+)/.exec(e.message);
  return lineCol(text, pos ? Number(pos[1]) : text.length);
}

/** `line:column` of a fixture's entry at `path` in its text, or undefined when it cannot be found. */
async function fixtureAt(text: string, path: readonly (string | number)[] | undefined): Promise<string | undefined> {
  if (!path?.length) return undefined;
  const doc = (await import('yaml')).parseDocument(text);
  // The entry, or the nearest of its parents that is there (a field missing is found at its object).
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as import('yaml').Node | undefined;
    const offset = node?.range?.[0];
    if (offset !== undefined) return lineCol(text, offset);
  }
  return undefined;
}

/** 1-based `line:column` of an offset in `text`. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/** Whether `text` is a state exported by GET /_sandbox/state (`{"version", "clockOffset", "data"}`). */
function isExportedState(text: string): boolean {
  if (!text.trimStart().startsWith('{') || !text.includes('"clockOffset"')) return false;
  try {
    const doc = JSON.parse(text) as unknown;
    return typeof doc === 'object' && doc !== null && 'clockOffset' in doc && 'data' in doc && 'version' in doc;
  } catch {
    return false;
  }
}

/** The organization file at a backup's root (`orgs backup`): its one YAML file. */
function orgFileIn(dir: string): string | undefined {
  const yaml = readdirSync(dir).filter((n) => /\.ya?ml$/i.test(n) && !n.startsWith('.'));
  return yaml.length === 1 ? join(dir, yaml[0]) : yaml.find((n) => /^org/i.test(n)) ? join(dir, yaml.find((n) => /^org/i.test(n))!) : undefined;
}
