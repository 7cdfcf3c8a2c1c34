import { defineCommand } from '../../cli/command.js';
import { AuthError } from '../../cli/errors.js';
import { ApiError } from '../../client/errors.js';
import { maskToken } from '../../client/http.js';
import { configFile, readConfig, type Profile } from '../../config/profiles.js';
import { ops } from '../../contract/orgs.js';

/** One line of `auth status`: a saved profile, or the environment's settings when they are not a saved profile's. */
interface ProfileStatus {
  /** The profile's name; null for settings that come from the environment alone. */
  profile: string | null;
  /** The profile (or environment) that commands use now. */
  current: boolean;
  apiUrl: string | null;
  organization: string | null;
  /** The user's display name: checked with the service for the current one, as saved at login for the others. */
  user: string | null;
  /** The user's id (the current one only: the others' tokens are not sent anywhere). */
  userId: string | null;
  /** `verified` (the current one, accepted by the service), `not checked` (another profile with a token), `no token`. */
  state: 'verified' | 'not checked' | 'no token';
  tokenSource: 'environment' | 'profile' | null;
  /** Masked to its last 4 characters. */
  token: string | null;
  configPath: string;
}

export default defineCommand({
  name: 'status',
  summary: 'List the saved profiles, marking the current one, and check its token (exit 3 when not authenticated)',
  description:
    'The current profile is the one commands use: --profile, else DOCSCTL_PROFILE, else the last one logged in ' +
    'or switched to; DOCSCTL_API_URL, DOCSCTL_TOKEN and DOCSCTL_ORG override its values, and with no saved profile ' +
    'the environment alone is listed as "(environment)". Only the current token is sent to the service (GET /v1/user).',
  examples: ['docsctl auth status', "docsctl auth status --jq '.[] | select(.current) | .user'", 'docsctl auth status --fields profile,current'],
  output: {
    columns: [
      { key: 'profile', value: (s: ProfileStatus) => s.profile ?? '(environment)' },
      { key: 'current', value: (s: ProfileStatus) => (s.current ? '*' : '') },
      'apiUrl',
      'organization',
      'user',
      'state',
      'tokenSource',
      'token',
    ],
  },
  async run(ctx) {
    const auth = await ctx.auth();
    // With the environment saying it all, the config file was not read yet (nor the current profile's name).
    const config = auth.profiles ? undefined : readConfig(ctx.env.DOCSCTL_CONFIG_DIR);
    const saved: Record<string, Profile> = auth.profiles ?? profilesOf(config?.profiles);
    const inUse = config?.currentProfile ?? auth.profileName;
    const path = auth.configPath ?? configFile(ctx.env.DOCSCTL_CONFIG_DIR);
    if (!auth.apiUrl || !auth.token) {
      const others = Object.keys(saved).filter((n) => n !== auth.profileName && saved[n].token);
      throw new AuthError(
        `not authenticated (profile ${auth.profileName})`,
        others.length
          ? `run docsctl auth login, or use another profile: docsctl auth switch ${others.length === 1 ? others[0] : `NAME (${others.join(', ')})`}`
          : undefined,
      );
    }
    const api = await ctx.api();
    let user;
    try {
      user = await api.call(ops.getAuthenticatedUser);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401)
        throw new AuthError(`the token (${auth.tokenSource}, ${maskToken(auth.token)}) was refused by ${auth.apiUrl}`);
      throw e;
    }
    const current: ProfileStatus = {
      profile: Object.hasOwn(saved, inUse) ? inUse : null,
      current: true,
      apiUrl: auth.apiUrl,
      organization: auth.org ?? null,
      user: user.displayName,
      userId: user.id,
      state: 'verified',
      tokenSource: auth.tokenSource ?? null,
      token: maskToken(auth.token),
      configPath: path,
    };
    const rows: ProfileStatus[] = current.profile === null ? [current] : [];
    for (const [name, p] of Object.entries(saved)) {
      if (name === current.profile) rows.push(current);
      else {
        rows.push({
          profile: name,
          current: false,
          apiUrl: p.apiUrl ?? null,
          organization: p.org ?? null,
          user: p.user ?? null,
          userId: null,
          state: p.token ? 'not checked' : 'no token',
          tokenSource: p.token ? 'profile' : null,
          token: p.token ? maskToken(p.token) : null,
          configPath: path,
        });
      }
    }
    return rows;
  },
});

/** The `profiles` of a config file, whatever it holds. */
function profilesOf(value: unknown): Record<string, Profile> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Profile>) : {};
}
