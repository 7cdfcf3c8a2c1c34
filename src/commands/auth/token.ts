import { defineCommand } from '../../cli/command.js';
import { AuthError } from '../../cli/errors.js';

export default defineCommand({
  name: 'token',
  summary: 'Print the token in use (for scripts)',
  examples: ['curl -H "Authorization: Bearer $(docsctl auth token)" "$DOCSCTL_API_URL/v1/user"'],
  noJson: true,
  async run(ctx) {
    const auth = await ctx.auth();
    if (!auth.token) throw new AuthError(`no token (profile ${auth.profileName})`);
    return auth.token;
  },
});
