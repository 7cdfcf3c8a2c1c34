/** What the team commands share: the client with a team's path parameters, and lists of ids given as repeated or comma-separated values. */
import type { Context } from '../../../cli/context.js';

/** The client, and the path parameters of a team of the organization. */
export async function ctxTeam(ctx: Context, teamId: string) {
  const [api, organizationId] = [await ctx.api(), await ctx.org()];
  return { api, organizationId, params: { organizationId, teamId } };
}

/** Values given as separate words, repeated flags or comma-separated (`u_1,u_2`), blanks dropped, each once. */
export function splitIds(values: readonly string[]): string[] {
  return [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
