import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { AuthError, UsageError } from '../../cli/errors.js';
import { terminalLine } from '../../cli/escape.js';
import type { Api } from '../../client/api.js';
import { ApiError } from '../../client/errors.js';
import { ops } from '../../contract/orgs.js';
import { checkApiUrl, ProfileStore } from '../../config/profiles.js';

/** How long `--with-token` waits for stdin before giving up (it never waits forever). */
const STDIN_TIMEOUT_MS = 10_000;
/** How many times a terminal login asks for a token the service refuses (401) before it gives up. */
const MAX_TOKEN_TRIES = 3;

export default defineCommand({
  name: 'login',
  summary: 'Save an API URL, a token and a default organization in a profile',
  description: 'On a TTY it asks for each. In scripts: pipe the token on stdin with --with-token (never as an argument).',
  flags: {
    apiUrl: { description: 'the service’s base URL (or DOCSCTL_API_URL)', value: 'url' },
    withToken: { type: 'boolean', description: 'read the token from stdin' },
  },
  examples: [
    'docsctl auth login',
    'echo "$TOKEN" | docsctl auth login --api-url http://127.0.0.1:4700 --org org-acme --with-token',
    'docsctl --profile staging auth login --api-url https://docs.example.com --with-token < token.txt',
  ],
  output: { fields: ['profile', 'apiUrl', 'user', 'organization'] },
  async run(ctx, { flags }) {
    const interactive = ctx.globals.interactive && !flags.withToken;
    // Checked before asking or reading anything: a bad URL or HTTP setting is a usage error naming it.
    ctx.httpSettings();
    if (flags.apiUrl !== undefined) {
      const bad = checkApiUrl(flags.apiUrl);
      if (bad) throw new UsageError(`--api-url: ${bad}`);
    }
    const fromEnv = flags.apiUrl === undefined && Boolean(ctx.env.DOCSCTL_API_URL);
    let apiUrl = flags.apiUrl ?? (ctx.env.DOCSCTL_API_URL || undefined);
    // Off a terminal the environment's URL is used as it is; on one, it is the prompt's default.
    if (fromEnv && !interactive) {
      const bad = checkApiUrl(apiUrl!);
      if (bad) throw new UsageError(`DOCSCTL_API_URL: ${bad}`, 'fix it, or pass --api-url URL');
    }
    let token: string;
    if (flags.withToken) {
      if (!apiUrl) throw new UsageError('--api-url: is required', 'pass --api-url URL or set DOCSCTL_API_URL');
      token = await readToken(ctx);
    } else if (interactive) {
      const { input } = await ctx.prompts();
      apiUrl = await input({ message: 'API URL', default: apiUrl, validate: (v) => checkApiUrl(v.trim()) ?? true }, promptIo(ctx));
      apiUrl = apiUrl.trim();
      token = await askToken(ctx);
    } else {
      throw new UsageError('no token given', 'pipe it on stdin with --with-token (prompts need a TTY)');
    }
    if (!apiUrl) throw new UsageError('--api-url: is required', 'pass --api-url URL or set DOCSCTL_API_URL');
    apiUrl = apiUrl.replace(/\/+$/, '');

    // Verify before saving: the token given here, never the environment's. A token the service
    // refuses is asked for again on a terminal (MAX_TOKEN_TRIES in all).
    let api = await ctx.makeApi(apiUrl, token);
    let user: Awaited<ReturnType<typeof getUser>>;
    for (let attempt = 1; ; attempt++) {
      try {
        user = await getUser(api);
        break;
      } catch (err) {
        await api.close();
        if (!(err instanceof ApiError && err.status === 401)) throw err;
        // The service's own words (`invalid or revoked token`), and which service said them.
        const refused = `the token was refused by ${apiUrl}: ${err.message} (401)`;
        if (!interactive || attempt >= MAX_TOKEN_TRIES) {
          throw new AuthError(
            interactive ? `${refused}, ${attempt} times; nothing was saved` : `${refused}; nothing was saved`,
            `check the token (whole, not expired or revoked) and that ${apiUrl} is the service that issued it`,
          );
        }
        ctx.info(
          `${refused}: check it (whole, not expired or revoked) and that ${apiUrl} issued it, then enter it again (${MAX_TOKEN_TRIES - attempt} more ${MAX_TOKEN_TRIES - attempt === 1 ? 'try' : 'tries'})`,
        );
        token = await askToken(ctx);
        api = await ctx.makeApi(apiUrl, token);
      }
    }
    try {
      const orgs = [];
      for await (const o of api.paginate(ops.listOrganizations).take(1000)) orgs.push(o);
      let org = ctx.globals.org;
      if (org !== undefined && !orgs.some((o) => o.id === org)) {
        throw new UsageError(`--org: ${org} is not one of your organizations (${orgs.map((o) => o.id).join(', ') || 'none'})`);
      }
      if (org === undefined && orgs.length === 1) org = orgs[0].id;
      if (org === undefined && orgs.length > 1) {
        if (!interactive) throw new UsageError('--org: is required: you belong to several organizations', `choose one of ${orgs.map((o) => o.id).join(', ')}`);
        const { select } = await ctx.prompts();
        org = await select(
          { message: 'Default organization', choices: orgs.map((o) => ({ name: terminalLine(`${o.title} (${o.id})`), value: o.id })) },
          promptIo(ctx),
        );
      }
      const store = await ProfileStore.open(ctx.env.DOCSCTL_CONFIG_DIR);
      const profile = ctx.globals.profile ?? (ctx.env.DOCSCTL_PROFILE || 'default');
      store.save(profile, { apiUrl, token, ...(org ? { org } : {}), user: user.displayName });
      ctx.info(`logged in to ${apiUrl} as ${user.displayName} (profile ${profile}${org ? `, organization ${org}` : ''})`);
      return flags.json ? { profile, apiUrl, user: { id: user.id, displayName: user.displayName }, organization: org ?? null } : undefined;
    } finally {
      await api.close();
    }
  },
});

function promptIo(ctx: Context) {
  return { input: ctx.io.stdin, output: ctx.io.stderr };
}

/** The token, asked for (masked) on a terminal. */
async function askToken(ctx: Context): Promise<string> {
  const { password } = await ctx.prompts();
  return (await password({ message: 'Token', mask: '*', validate: (v) => (v.trim() ? true : 'the token is required') }, promptIo(ctx))).trim();
}

/** The user the token is of (a 401 when the service refuses it). */
function getUser(api: Api) {
  return api.call(ops.getAuthenticatedUser);
}

/** The whole of stdin, trimmed; an error for a TTY, an empty stdin, or one that stays silent. */
async function readToken(ctx: Context): Promise<string> {
  const stdin = ctx.io.stdin;
  if (stdin.isTTY)
    throw new UsageError('--with-token reads the token from stdin, which is a terminal', 'pipe it: echo "$TOKEN" | docsctl auth login --with-token');
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      stdin.pause();
      reject(new UsageError(`--with-token: no token arrived on stdin within ${STDIN_TIMEOUT_MS / 1000} s`));
    }, STDIN_TIMEOUT_MS);
    stdin.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)));
    stdin.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    stdin.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  const token = text.trim();
  if (!token) throw new UsageError('--with-token: stdin was empty', 'pipe the token: echo "$TOKEN" | docsctl auth login --with-token');
  if (/\s/.test(token)) throw new UsageError('--with-token: the token must be one line without spaces');
  return token;
}
