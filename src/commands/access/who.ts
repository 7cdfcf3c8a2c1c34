import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { CliError, EXIT, UsageError } from '../../cli/errors.js';
import { ApiError } from '../../client/errors.js';
import { ops as collectionOps } from '../../contract/collections.js';
import type { Role } from '../../contract/op.js';
import { ops as permissionOps } from '../../contract/permissions.js';
import { ops as siteOps } from '../../contract/sites.js';
import { ops as spaceOps } from '../../contract/spaces.js';
import type { Reader } from '../../orgfile/live.js';
import { reader as makeReader } from '../../orgfile/workflow.js';
import { concurrencyOf, fileFlags } from '../orgs/orgfile.js';
import { whoReaches, type TargetKind } from './model.js';
import { readForTarget } from './read.js';
import { whoColumns, whoRow } from './rows.js';

export default defineCommand({
  name: 'who',
  summary: 'Everyone who can reach a space, collection or site: their role and why',
  description:
    'Name the target with --space, --collection or --site; a bare TARGET is looked up as a space, then a collection, then a site. ' +
    'The reason is one of admin, organization (the organization role, inherited all the way up), default (the default level of the space, a collection above it or a site), ' +
    'team (a grant to one of their teams), direct (a grant to them) and guest (a guest invited to it). ' +
    "Computed from the official operations (members, teams, the content's default levels and parents, the user and team grants); " +
    "the service's own aggregate is read too, and any difference is reported on stderr.",
  args: [{ name: 'target', description: 'a space, collection or site id (kind looked up)', optional: true }],
  flags: {
    space: { description: 'the space to audit', value: 'id' },
    collection: { description: 'the collection to audit', value: 'id' },
    site: { description: 'the site to audit', value: 'id' },
    concurrency: fileFlags.concurrency,
  },
  examples: [
    'docsctl access who --space s_123',
    'docsctl access who --collection c_42 --json',
    'docsctl access who s_123 --fields name,role,why',
    'docsctl access who --site site_1 --jq "[.[] | select(.reason == \\"guest\\")]"',
  ],
  output: { columns: whoColumns },
  async run(ctx, { args, flags }) {
    const given = (['space', 'collection', 'site'] as const).filter((k) => flags[k] !== undefined);
    if (given.length + (args.target !== undefined ? 1 : 0) !== 1)
      throw new UsageError('name one target: --space ID, --collection ID, --site ID, or a bare TARGET id', 'e.g. docsctl access who --space s_123');
    const concurrency = concurrencyOf(flags.concurrency);
    const [api, organizationId] = [await ctx.api(), await ctx.org()];
    const r = makeReader(api, concurrency);
    const kind: TargetKind = given[0] ?? (await kindOf(r, organizationId, args.target!));
    const id = given[0] ? flags[given[0]]! : args.target!;
    const [view, aggregate] = await ctx.spinning(
      `reading who reaches ${kind} ${id}…`,
      Promise.all([readForTarget(r, organizationId, kind, id), readAggregate(r, organizationId, kind, id)]),
    );
    const reach = whoReaches(view, kind, id);
    crossCheck(
      ctx,
      kind,
      id,
      reach.map((x) => ({ id: x.person.id, role: x.role })),
      aggregate,
    );
    return reach.map((x) => whoRow(view, x.person, x.role, x.reason));
  },
});

/** A bare id: a space, else a collection, else a site (a 404 moves on to the next kind). */
async function kindOf(r: Reader, organizationId: string, id: string): Promise<TargetKind> {
  const tries: [TargetKind, () => Promise<unknown>][] = [
    ['space', () => r.call(spaceOps.getSpace, { params: { spaceId: id } })],
    ['collection', () => r.call(collectionOps.getCollection, { params: { collectionId: id } })],
    ['site', () => r.call(siteOps.getSite, { params: { organizationId, siteId: id } })],
  ];
  for (const [kind, get] of tries) {
    try {
      await get();
      return kind;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  throw new CliError(
    `no space, collection or site ${id}`,
    EXIT.NOT_FOUND,
    'check the id (docsctl tree lists them), or name the kind with --space, --collection or --site',
  );
}

/** The service's own answer (listPermissionsAggregateIn…): user id → role. */
async function readAggregate(r: Reader, organizationId: string, kind: TargetKind, id: string): Promise<Map<string, Role | null>> {
  const out = new Map<string, Role | null>();
  if (kind === 'site') {
    for (const p of await r.all(permissionOps.listPermissionsAggregateInSite, { params: { organizationId, siteId: id } })) out.set(p.user.id, p.permission);
  } else if (kind === 'space') {
    for (const p of await r.all(permissionOps.listPermissionsAggregateInSpace, { params: { spaceId: id } })) out.set(p.user.id, p.permission);
  } else {
    for (const p of await r.all(permissionOps.listPermissionsAggregateInCollection, { params: { collectionId: id } })) out.set(p.user.id, p.permission);
  }
  return out;
}

/** Every difference between the roles computed and the service's aggregate, on stderr. */
function crossCheck(ctx: Context, kind: TargetKind, id: string, computed: { id: string; role: Role }[], aggregate: ReadonlyMap<string, Role | null>): void {
  const mine = new Map(computed.map((c) => [c.id, c.role]));
  const lines: string[] = [];
  for (const [user, role] of mine) {
    const theirs = aggregate.get(user) ?? null;
    if (theirs !== role) lines.push(`  ${user}: ${role} here, ${theirs ?? 'no access'} in the service's aggregate`);
  }
  for (const [user, role] of aggregate) if (role && !mine.has(user)) lines.push(`  ${user}: no access here, ${role} in the service's aggregate`);
  if (lines.length)
    ctx.info(`warning: the service's aggregate of ${kind} ${id} differs from the roles computed for ${lines.length} user(s):\n${lines.join('\n')}`);
}
