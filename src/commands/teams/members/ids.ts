/** What the team commands share: the client with a team's path parameters. */
import type { Context } from '../../../cli/context.js';

/** The client, and the path parameters of a team of the organization. */
export async function ctxTeam(ctx: Context, teamId: string) {
  const [api, organizationId] = [await ctx.api(), await ctx.org()];
  return { api, organizationId, params: { organizationId, teamId } };
}
