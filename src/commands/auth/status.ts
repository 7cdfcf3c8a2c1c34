import { defineCommand } from '../../cli/command.js';
import { AuthError } from '../../cli/errors.js';
import { ApiError } from '../../client/errors.js';
import { maskToken } from '../../client/http.js';
import { ops } from '../../contract/orgs.js';

export default defineCommand({
  name: 'status',
  summary: 'Show who you are, where, and where the token comes from (exit 3 when not authenticated)',
  examples: ['docsctl auth status', 'docsctl auth status --json | jq -r .user.displayName'],
  output: { fields: ['profile', 'apiUrl', { key: 'user', value: (s: { user: { displayName: string; id: string } }) => `${s.user.displayName} (${s.user.id})` }, 'organization', 'tokenSource', 'token', 'configPath'] },
  async run(ctx) {
    const auth = await ctx.auth();
    if (!auth.apiUrl || !auth.token) throw new AuthError(`not authenticated (profile ${auth.profileName})`);
    const api = await ctx.api();
    try {
      const user = await api.call(ops.getAuthenticatedUser);
      return {
        profile: auth.profileName, apiUrl: auth.apiUrl, user: { id: user.id, displayName: user.displayName, email: user.email },
        organization: auth.org ?? null, tokenSource: auth.tokenSource, token: maskToken(auth.token), configPath: auth.configPath ?? null,
      };
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) throw new AuthError(`the token (${auth.tokenSource}, ${maskToken(auth.token)}) was refused by ${auth.apiUrl}`);
      throw e;
    }
  },
});
