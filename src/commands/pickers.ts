/**
 * How to ask for a missing argument on a terminal, by the argument's name: `spaces get` with no
 * space offers a searchable list of the organization's spaces, `members set-role` the roles…
 * Loaded only when a prompt is about to be shown (main.ts wires it to the context).
 */
import type { Choice, Context } from '../cli/context.js';
import { ops as changeRequests } from '../contract/change-requests.js';
import { ops as collections } from '../contract/collections.js';
import { MEMBER_ROLES, ops as members } from '../contract/members.js';
import { ops as openapi } from '../contract/openapi.js';
import type { AnyOp, OpItem } from '../contract/op.js';
import { ops as saml } from '../contract/saml.js';
import { ops as sites } from '../contract/sites.js';
import { ops as spaces } from '../contract/spaces.js';

/** At most this many items are offered; past that, the id is better typed. */
const MAX_CHOICES = 500;

async function items<O extends AnyOp>(ctx: Context, op: O, params: Record<string, string>): Promise<OpItem<O>[]> {
  const api = await ctx.api();
  const out: OpItem<O>[] = [];
  for await (const item of api.paginate(op, { params } as never).take(MAX_CHOICES)) out.push(item);
  return out;
}

type Args = Record<string, string | undefined>;
type Pick = (ctx: Context, args: Args) => Promise<string>;

const org = async (ctx: Context) => ({ organizationId: await ctx.org() });

const PICKERS: Record<string, Pick> = {
  space: (ctx) =>
    ctx.choose(
      'Space',
      async () =>
        (await items(ctx, spaces.listSpaces, await org(ctx))).map(
          (s): Choice => ({
            value: s.id,
            name: `${s.emoji ? `${s.emoji} ` : ''}${s.title}`,
            description: `${s.id} · ${s.visibility}`,
          }),
        ),
      'spaces',
    ),
  collection: (ctx) =>
    ctx.choose(
      'Collection',
      async () => (await items(ctx, collections.listCollections, await org(ctx))).map((c): Choice => ({ value: c.id, name: c.title, description: c.id })),
      'collections',
    ),
  site: (ctx) =>
    ctx.choose(
      'Site',
      async () =>
        (await items(ctx, sites.listSites, await org(ctx))).map((s): Choice => ({ value: s.id, name: s.title, description: `${s.id} · ${s.visibility}` })),
      'sites',
    ),
  user: (ctx) =>
    ctx.choose(
      'Member',
      async () =>
        (await items(ctx, members.listMembers, await org(ctx))).map(
          (m): Choice => ({
            value: m.user.id,
            name: m.user.displayName,
            description: `${m.user.email ?? m.user.id} · ${m.role ?? 'guest'}`,
          }),
        ),
      'members',
    ),
  role: (ctx) => ctx.choose('Role', async () => MEMBER_ROLES.map((r) => ({ value: r, name: r })), 'roles'),
  provider: (ctx) =>
    ctx.choose(
      'SAML provider',
      async () => (await items(ctx, saml.listSamlProviders, await org(ctx))).map((p): Choice => ({ value: p.id, name: p.label, description: p.id })),
      'SAML providers',
    ),
  slug: (ctx) =>
    ctx.choose(
      'OpenAPI specification',
      async () =>
        (await items(ctx, openapi.listOpenAPISpecs, await org(ctx))).map((s): Choice => ({ value: s.slug, name: s.slug, description: s.processingState })),
      'specifications',
    ),
  // These two list what is inside the space or site given before them (pickArg checks it was).
  cr: (ctx, args) =>
    ctx.choose(
      'Change request',
      async () =>
        (await items(ctx, changeRequests.listChangeRequests, { spaceId: args.space! })).map(
          (c): Choice => ({
            value: String(c.number),
            name: `#${c.number} ${c.subject ?? ''}`.trim(),
            description: `${c.id} · ${c.status}`,
          }),
        ),
      'open change requests',
    ),
  section: (ctx, args) =>
    ctx.choose(
      'Section',
      async () =>
        (await items(ctx, sites.listSiteSections, { ...(await org(ctx)), siteId: args.site! })).map(
          (s): Choice => ({ value: s.id, name: s.title, description: s.id }),
        ),
      'sections',
    ),
};

/** The argument a picker lists the contents of. */
const NEEDS: Record<string, string> = { cr: 'space', section: 'site' };

/** The picker for an argument, or undefined when there is none (the usage error then names it). */
export function pickArg(ctx: Context, name: string, args: Args): Promise<string> | undefined {
  if (NEEDS[name] && !args[NEEDS[name]]) return undefined;
  return PICKERS[name]?.(ctx, args);
}
