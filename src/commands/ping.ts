import { defineCommand } from '../cli/command.js';
import { ops } from '../contract/members.js';

export default defineCommand({
  name: 'ping',
  summary: 'Record that you were active in the organization (your member lastSeenAt)',
  description: 'Prints the visitor claims token when the service sends one; --json prints the whole answer.',
  examples: ['docsctl ping', 'docsctl ping --json'],
  output: {
    fields: [
      {
        key: 'visitorClaims',
        value: (a: { serviceVisitorClaims?: string; gitbookVisitorClaims?: string }) => a.serviceVisitorClaims ?? a.gitbookVisitorClaims,
      },
    ],
  },
  async run(ctx, { flags }) {
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    // The request has no body (the operation takes none). The claims come as serviceVisitorClaims
    // (the seed) or gitbookVisitorClaims (the official document).
    const answer = await api.call(ops.ping, { params: { organizationId } });
    if (flags.json || (answer.serviceVisitorClaims ?? answer.gitbookVisitorClaims) !== undefined) return answer;
    ctx.info(`recorded your visit to ${organizationId}`);
    return undefined;
  },
});
