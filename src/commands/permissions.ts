/**
 * `spaces permissions`, `collections permissions`, `sites permissions`: the same four commands on
 * the grants of each kind of content (contract/permissions.ts): `list` (users' and teams' grants
 * together, or with --effective everyone who can reach it: the aggregate), `add` (one role to users
 * and teams at once), `set` (one grant's role), `remove` (one grant, after a question naming who
 * loses what). Each family mounts its group with `later('permissions', …)`.
 */
import { checkBody, checkQuery, defineCommand, defineGroup, type GroupDef } from '../cli/command.js';
import type { Context } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import type { Column } from '../cli/output.js';
import { plural } from '../cli/text.js';
import type { AnyOp } from '../contract/op.js';
import { ROLES } from '../contract/op.js';
import { ops } from '../contract/permissions.js';
import { concatLists, type PageFetch } from './lists.js';
import { named } from './prompts.js';
import { listValues } from './flags.js';

type Kind = 'space' | 'collection' | 'site';

/** A grant or an aggregate row as the API gives it: a user's or a team's role (null on a site: none). */
type Row = {
  permission: string | null;
  user?: { id: string; displayName: string; email?: string };
  team?: { id: string; title: string; members: number };
  origin?: { type: string; space?: string; organization?: string; site?: string; reason?: string; team?: string };
};

/** The operations of one kind, and its path parameters. */
interface KindOps {
  invite: AnyOp;
  listUsers: AnyOp;
  updateUser: AnyOp;
  removeUser: AnyOp;
  listTeams: AnyOp;
  updateTeam: AnyOp;
  removeTeam: AnyOp;
  aggregate: AnyOp;
  params: (ctx: Context, id: string) => Promise<Record<string, string>>;
}

const KINDS: Record<Kind, KindOps> = {
  space: {
    invite: ops.inviteToSpace,
    listUsers: ops.listUserPermissionsInSpace,
    updateUser: ops.updateUserPermissionInSpace,
    removeUser: ops.removeUserFromSpace,
    listTeams: ops.listTeamPermissionsInSpace,
    updateTeam: ops.updateTeamPermissionInSpace,
    removeTeam: ops.removeTeamFromSpace,
    aggregate: ops.listPermissionsAggregateInSpace,
    params: async (_ctx, spaceId) => ({ spaceId }),
  },
  collection: {
    invite: ops.inviteToCollection,
    listUsers: ops.listUserPermissionsInCollection,
    updateUser: ops.updateUserPermissionInCollection,
    removeUser: ops.removeUserFromCollection,
    listTeams: ops.listTeamPermissionsInCollection,
    updateTeam: ops.updateTeamPermissionInCollection,
    removeTeam: ops.removeTeamFromCollection,
    aggregate: ops.listPermissionsAggregateInCollection,
    params: async (_ctx, collectionId) => ({ collectionId }),
  },
  site: {
    invite: ops.inviteToSite,
    listUsers: ops.listUserPermissionsInSite,
    updateUser: ops.updateUserPermissionInSite,
    removeUser: ops.removeUserFromSite,
    listTeams: ops.listTeamPermissionsInSite,
    updateTeam: ops.updateTeamPermissionInSite,
    removeTeam: ops.removeTeamFromSite,
    aggregate: ops.listPermissionsAggregateInSite,
    params: async (ctx, siteId) => ({ organizationId: await ctx.org(), siteId }),
  },
};

/** Why a site's aggregate gives a user their role: `space sp_1`, `organization`, `site member`, `team t_1`, `site default`. */
function reason(r: Row): string {
  const o = r.origin;
  if (!o) return '';
  if (o.type === 'space') return `space ${o.space ?? ''}`.trim();
  if (o.type === 'organization') return 'organization';
  return o.reason === 'team' ? `team ${o.team ?? ''}`.trim() : `site ${o.reason ?? ''}`.trim();
}

const columns: Column<Row>[] = [
  { key: 'type', value: (r) => (r.team ? 'team' : 'user') },
  { key: 'id', value: (r) => r.team?.id ?? r.user?.id },
  { key: 'name', value: (r) => r.team?.title ?? r.user?.displayName },
  { key: 'email', value: (r) => r.user?.email },
  { key: 'role', value: (r) => r.permission ?? 'none' },
];
/** A site's --effective list shows the reason its aggregate gives; --fields takes it everywhere. */
const effectiveColumns: Column<Row>[] = [...columns, { key: 'reason', value: reason }];
const listColumns: Column<Row>[] = [...columns, { key: 'reason', value: reason, extra: true }];

/** The grant of a user or a team (--user/--team): which one, and its id. */
function grantee(flags: { user?: string; team?: string }, verb: string): { who: 'user' | 'team'; id: string } {
  if (flags.user !== undefined) return { who: 'user', id: flags.user };
  if (flags.team !== undefined) return { who: 'team', id: flags.team };
  throw new UsageError('missing --user or --team', `say whose grant to ${verb}: --user USER or --team TEAM`);
}

/** The grant of `id` among the list's, or undefined (looked up for a question only). */
async function findGrant(ctx: Context, op: AnyOp, params: Record<string, string>, who: 'user' | 'team', id: string): Promise<Row | undefined> {
  const api = await ctx.api();
  for await (const r of api.paginate(op, { params }) as AsyncIterable<Row>) if ((who === 'team' ? r.team?.id : r.user?.id) === id) return r;
  return undefined;
}

export function permissionsGroup(kind: Kind): GroupDef {
  const k = KINDS[kind];
  const X = kind === 'collection' ? 'col_123' : kind === 'site' ? 'site_123' : 'sp_123';
  const cmd = `docsctl ${kind}s permissions`;
  const arg = { name: kind, description: `${kind} id` } as const;
  const roleFlag = { description: `the role: ${ROLES.join(', ')}`, value: 'role', choices: ROLES } as const;

  const list = defineCommand({
    name: 'list',
    aliases: ['ls'],
    summary: `List who was given a role on a ${kind} (users and teams), or with --effective everyone who can reach it`,
    description:
      `Without --effective: the grants of the ${kind}, users first, then teams. With --effective: every person who can reach it and their ` +
      `role in the end (organization role, default levels, teams, grants, admins)${kind === 'site' ? ', with the reason' : ''}.`,
    args: [arg],
    flags: {
      effective: { type: 'boolean', description: 'everyone who can reach it, with their effective role (the aggregate)' },
      role: { description: 'with --effective: only people with this role', value: 'role', choices: ROLES },
      // A site's aggregate takes more filters (the official document's).
      ...(kind === 'site'
        ? {
            search: { description: 'with --effective: only people whose name or email contains this text', value: 'text' },
            team: { description: 'with --effective: only members of this team', value: 'team' },
          }
        : {}),
    },
    examples: [
      `${cmd} list ${X}`,
      `${cmd} list ${X} --effective --role edit`,
      ...(kind === 'site' ? [`${cmd} list ${X} --effective --team team_123`] : []),
      `${cmd} list ${X} --json | jq -r '.[] | select(.team) | .team.title'`,
    ],
    list: true,
    output: { columns: listColumns },
    async run(ctx, { args, flags, print }) {
      const { search, team } = flags as { search?: string; team?: string };
      const filters: Record<string, string | undefined> = { role: flags.role, search, team };
      const only = (['role', 'search', 'team'] as const).find((f) => filters[f] !== undefined);
      if (only && !flags.effective) throw new UsageError(`--${only}: give it with --effective (the grants are listed whole)`);
      const params = await k.params(ctx, args[kind]);
      const api = await ctx.api();
      if (flags.effective) {
        const query = checkQuery(k.aggregate, kind === 'site' ? filters : { role: flags.role });
        await print(api.paginate(k.aggregate, { params, query }, flags.page), { columns: kind === 'site' ? effectiveColumns : listColumns });
        return;
      }
      const fetch =
        (op: AnyOp): PageFetch<Row> =>
        (cursor, limit) =>
          api.call(op, { params, query: { limit, ...(cursor ? { page: cursor } : {}) } }) as never;
      const name = `the grants of ${kind} ${args[kind]}`;
      return concatLists(api, [fetch(k.listUsers), fetch(k.listTeams)], flags.page, name, `${kind}s permissions list`);
    },
  });

  const add = defineCommand({
    name: 'add',
    summary: `Give users and teams a role on a ${kind} (many at once)`,
    description: `One request for them all. A user or team already given a role there gets this one instead. Needs the admin role on the ${kind}.`,
    args: [arg],
    flags: {
      user: { type: 'list', description: 'user id to give the role to (repeatable, or comma-separated)', value: 'user' },
      team: { type: 'list', description: 'team id to give the role to (repeatable, or comma-separated)', value: 'team' },
      role: roleFlag,
    },
    examples: [`${cmd} add ${X} --team team_123 --role edit`, `${cmd} add ${X} --user u_ada,u_bob --team team_123 --role read`],
    async run(ctx, { args, flags }) {
      if (flags.role === undefined) throw new UsageError('missing --role', `${cmd} add ${X} --team team_123 --role edit`);
      const users = flags.user ? listValues(flags.user) : undefined;
      const teams = flags.team ? listValues(flags.team) : undefined;
      if (!users?.length && !teams?.length) throw new UsageError('missing --user or --team', 'say who gets the role: --user USER and/or --team TEAM');
      const body = checkBody(k.invite, { role: flags.role, users, teams }, { users: '--user', teams: '--team' });
      const params = await k.params(ctx, args[kind]);
      await (await ctx.api()).call(k.invite, { params, body });
      const who = [users?.length ? plural(users.length, 'user') : '', teams?.length ? plural(teams.length, 'team') : ''].filter(Boolean).join(' and ');
      ctx.info(`gave ${flags.role} on ${kind} ${args[kind]} to ${who}`);
    },
  });

  const set = defineCommand({
    name: 'set',
    summary: `Change the role a user or a team was given on a ${kind}`,
    args: [arg],
    flags: {
      user: { description: 'the user whose grant to change', value: 'user', conflicts: ['team'] },
      team: { description: 'the team whose grant to change', value: 'team' },
      role: roleFlag,
    },
    examples: [`${cmd} set ${X} --user u_123 --role comment`, `${cmd} set ${X} --team team_123 --role read`],
    async run(ctx, { args, flags }) {
      const { who, id } = grantee(flags, 'change');
      if (flags.role === undefined) throw new UsageError('missing --role', `${cmd} set ${X} --${who} ${id} --role read`);
      const op = who === 'user' ? k.updateUser : k.updateTeam;
      const body = checkBody(op, { role: flags.role });
      const params = { ...(await k.params(ctx, args[kind])), [`${who}Id`]: id };
      await (await ctx.api()).call(op, { params, body });
      ctx.info(`${who} ${id} now has ${flags.role} on ${kind} ${args[kind]}`);
    },
  });

  const remove = defineCommand({
    name: 'remove',
    aliases: ['rm'],
    summary: `Take away the role a user or a team was given on a ${kind}`,
    description: 'What else gives them access stays: their organization role, their teams, the default levels.',
    args: [arg],
    flags: {
      user: { description: 'the user whose grant to remove', value: 'user', conflicts: ['team'] },
      team: { description: 'the team whose grant to remove', value: 'team' },
    },
    examples: [`${cmd} remove ${X} --user u_123 --yes`, `${cmd} remove ${X} --team team_123 --yes`],
    destructive: true,
    async run(ctx, { args, flags }) {
      const { who, id } = grantee(flags, 'remove');
      const base = await k.params(ctx, args[kind]);
      if (!flags.yes) {
        const grant = await findGrant(ctx, who === 'user' ? k.listUsers : k.listTeams, base, who, id).catch(() => undefined);
        const title = who === 'team' ? grant?.team?.title : grant?.user?.displayName;
        const role = grant ? `the ${grant.permission ?? 'no'} role` : 'the role';
        const loses =
          who === 'team'
            ? `Its ${grant?.team ? plural(grant.team.members, 'member') : 'members'} lose what this grant gave them; what else gives them access stays.`
            : 'What else gives them access stays (organization role, teams, default levels).';
        await ctx.confirm(`Take ${role} on ${kind} ${args[kind]} away from ${named(who, id, title)}? ${loses}`, flags.yes);
      }
      const op = who === 'user' ? k.removeUser : k.removeTeam;
      await (await ctx.api()).call(op, { params: { ...base, [`${who}Id`]: id } });
      ctx.info(`removed the grant of ${who} ${id} on ${kind} ${args[kind]}`);
    },
  });

  return defineGroup({
    name: 'permissions',
    summary: `Who has a role on the ${kind}: grants to users and teams, and everyone who can reach it`,
    commands: [list, add, set, remove],
  });
}
